// How many of the newest runs the page's first list asks for (run-list-sync.ts): a screenful and more, and what every
// list the page asks leaves out. Apart, so the page's first module (api/early-socket.ts) can ask for them before the
// rest of the script has loaded.
export const FIRST_SCREEN = 150;

/**
 * Asked with every `run.list` of the page's: its history shows how many agents need the user (`needYou`), never each
 * agent's state, and those states were about half of what 10,000 runs' answers took to make, send and check.
 */
export const HISTORY_ROWS = { states: false } as const;
