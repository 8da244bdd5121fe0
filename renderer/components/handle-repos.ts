// Which repository each agent of a pasted handle had its worktree in, read from the handle itself (its optional
// per-agent `worktree.repoRoot`, docs/architecture.md §4), and the repository mapping the user gives for those that
// are missing here. The core checks the handle and every path again; this only tells the dialog which repositories
// to ask about. Pure, so it is tested without a page.
import { validateCwd } from './validate.js';

function decodeBase64Url(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** The handle's agents as its JSON holds them (unchecked: the core checks everything); [] for anything unreadable. */
export function decodedHandleAgents(handle: string): unknown[] {
  const text = handle.trim();
  try {
    const json = text.startsWith('baton1.')
      ? decodeBase64Url(text.slice('baton1.'.length))
      : text.startsWith('{')
        ? text
        : null;
    if (json === null) return [];
    const body: unknown = JSON.parse(json);
    const agents = typeof body === 'object' && body !== null ? (body as { agents?: unknown }).agents : undefined;
    return Array.isArray(agents) ? (agents as unknown[]) : [];
  } catch {
    return [];
  }
}

/** Per agent, in the handle's order (the preview's), its worktree's repository root or null; [] for anything unreadable. */
export function handleRepoRoots(handle: string): (string | null)[] {
  try {
    return decodedHandleAgents(handle).map((a: unknown) => {
      const worktree = typeof a === 'object' && a !== null ? (a as { worktree?: unknown }).worktree : undefined;
      const root =
        typeof worktree === 'object' && worktree !== null ? (worktree as { repoRoot?: unknown }).repoRoot : undefined;
      return typeof root === 'string' ? root : null;
    });
  } catch {
    return [];
  }
}

/** The repositories to offer a new path for: those of agents whose worktree failed, and any the user already mapped. */
export function reposToMap(
  roots: readonly (string | null)[],
  states: readonly ('existing' | 'recreate' | 'failed' | 'unknown' | null)[],
  mapped: Readonly<Record<string, string>>,
): string[] {
  const out = new Set<string>();
  roots.forEach((root, i) => {
    if (root !== null && (states[i] === 'failed' || root in mapped)) out.add(root);
  });
  return [...out];
}

/** The `repoMap` param: only entries with a usable absolute path, different from the root itself. */
export function usableRepoMap(mapped: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [root, path] of Object.entries(mapped))
    if (path !== '' && path !== root && validateCwd(path) === null) out[root] = path;
  return out;
}
