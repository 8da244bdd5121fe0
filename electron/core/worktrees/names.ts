// How Baton names what it creates: branch `baton/<run>/<label>` and directory `<baseDir>/<repo>/<run>-<label>`,
// both from the same sanitised segments and the same clash suffix (-2, -3, …), so a branch and its worktree are
// easy to pair by eye. Segments are lower-case ASCII (two runs differing only in case must not share a ref file
// on a case-insensitive disk), at most 40 characters, and can never be `.`, `..` or hold a `/`.

const MAX_SEGMENT = 40;

/** A run name, label or repository name as one safe path and ref segment; `fallback` when nothing is left. */
export function sanitiseSegment(text: string, fallback: string): string {
  let s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-');
  s = trimEdges(s.slice(0, MAX_SEGMENT));
  // git refuses a component ending in `.lock`; `@{` and `..` cannot survive the rules above.
  while (s.endsWith('.lock')) s = trimEdges(s.slice(0, -'.lock'.length));
  return s === '' ? fallback : s;
}

function trimEdges(s: string): string {
  return s.replace(/^[-.]+/, '').replace(/[-.]+$/, '');
}

export interface Names {
  branch: string;
  /** The directory name under `<baseDir>/<repo>/`. */
  dirName: string;
}

/** The n-th candidate (n = 1: no suffix). */
export function namesFor(run: string, label: string, n: number): Names {
  const r = sanitiseSegment(run, 'run');
  const l = sanitiseSegment(label, 'agent');
  const suffix = n > 1 ? `-${n}` : '';
  return { branch: `baton/${r}/${l}${suffix}`, dirName: `${r}-${l}${suffix}` };
}

/** A plain, user-supplied branch name worth asking git about (git's own check follows). */
export function plausibleBranch(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !name.startsWith('-') && !/[\0-\x20\x7f~^:?*[\\]/.test(name);
}
