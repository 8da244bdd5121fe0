// The environment a process Baton starts inherits: Baton's own, as a terminal would give it (so a user can point a
// CLI at another home or endpoint), minus Baton's token (docs/architecture.md §10: agents never inherit BATON_TOKEN).

/** Variables that never leave Baton: its token, under any suffix. */
const PRIVATE_PREFIX = 'BATON_TOKEN';

/** `env` without Baton's private variables and unset entries: for agents' terminals and vendor helper commands. */
export function inheritedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith(PRIVATE_PREFIX)) out[k] = v;
  return out;
}
