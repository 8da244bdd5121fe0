// The fake Codex's TUI: the header, the prompt box with its footer `? for shortcuts` (raw mode, echo; text and
// Enter in one burst is a paste, not submitted; text, a pause, then Enter is submitted), the slash commands
// `/quit`, `/exit` and `/new`, Ctrl-C twice to quit, and the resume picker. Node builtins only.
import { createTui, out, printLine, printLines, printTurns, slashCommand } from '../lib/tui.mjs';
import { VERSION } from './options.mjs';
import { runTurn } from './turn.mjs';

/** Enter this soon after other input is part of a paste burst: it submits nothing. */
const PASTE_WINDOW_MS = 50;

/** The screen of `thread` in `cwd`; with `picker`, the resume picker shows and the prompt box takes no keys. */
export function createScreen({ thread, opts, cwd, picker }) {
  const tui = createTui({
    mark: '›',
    footer: '  ? for shortcuts                                   100% context left',
    onPrompt: handlePrompt,
    keys: {
      '\x03': onCtrlC,
      '\x04': (tui) => {
        if (tui.buf === '') tui.exit(0);
      },
    },
    typing: () => !picker,
    pasteReaches: () => !picker,
    // A burst ending in Enter is a paste: the Enter inserts nothing and nothing is submitted.
    pasteEnter: { windowMs: PASTE_WINDOW_MS, mode: 'burst' },
    beforeExit: thread.close,
  });

  function onCtrlC(tui) {
    if (picker) tui.exit(0);
    tui.pressAgainToExit('c', 'ctrl + c again to quit');
  }

  const printHeader = () =>
    printLines(`>_ OpenAI Codex (v${VERSION}) (fake)`, 'model:     fake-codex', `directory: ${cwd}`, '');

  function quit() {
    tui.clearPrompt();
    if (thread.rollout) printLine(`To continue this session, run codex resume ${thread.id}`);
    tui.exit(0);
  }

  async function handlePrompt(text) {
    const name = slashCommand(text);
    if (name !== null) {
      if (name === 'quit' || name === 'exit') return quit();
      if (name === 'new') {
        thread.renew();
        out('\x1b[2J\x1b[3J\x1b[H');
        printHeader();
        tui.draw();
        return;
      }
      printLine(`› ${text}`);
      printLine(`■ Unrecognized command '/${name}'. Type "/" for a list of supported commands.`);
      tui.draw();
      return;
    }
    await runTurn(text, { thread, tui, cwd, opts });
  }

  return {
    /** Takes the terminal and shows the header, then the picker, or the resumed turns, the prompt box and the
     * prompt given on the command line (submitted as if typed). */
    start() {
      tui.listen({ sigint: true });
      printHeader();
      if (picker) {
        printLines('Resume a previous session', '  No sessions yet', '', 'esc to start new   ctrl + c to quit');
      } else {
        if (thread.resumed) printTurns(thread.turns, { user: '›', reply: '•' });
        tui.draw();
        if (opts.prompt) tui.submit(opts.prompt);
      }
    },
  };
}
