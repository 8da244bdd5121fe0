// The hook socket's wire (docs/attention.md §4), shared by `baton hook` (the client an agent's CLI runs) and the core:
// the environment a spawn gets, and the size limits. One JSON line goes in, one word comes back.

/** The environment variables a spawn gets: where the socket is, which agent it is, and the agent's secret. */
export const HOOK_ENV = {
  socket: 'BATON_HOOK_SOCKET',
  agent: 'BATON_HOOK_AGENT',
  secret: 'BATON_HOOK_SECRET',
} as const;

/** A report is small; anything bigger is refused unread. */
export const HOOK_MAX_BYTES = 256 * 1024;
/** A vendor's standard input or argument is cut here before it is parsed. */
export const HOOK_MAX_INPUT = 128 * 1024;
