// How many of the newest runs the page's first list asks for (run-list-sync.ts): a screenful and more. Apart, so the
// page's first module (api/early-socket.ts) can ask for them before the rest of the script has loaded.
export const FIRST_SCREEN = 150;
