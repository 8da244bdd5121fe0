// The raw-mode terminal the fake vendor TUIs share: a prompt line with a footer under it, a line editor over raw
// stdin (echo, backspace, bracketed paste, Ctrl-C/Ctrl-D, "Enter right behind keys is a paste") and a queue that
// hands submitted lines to the fake one at a time. Every vendor's marks, texts and key rules are options: the
// fakes pass their own. Node builtins only.

export const out = (s) => process.stdout.write(s);
/** `s` on one screen line: line breaks become spaces. */
export const oneLine = (s) => s.replace(/\r\n|\r|\n/g, ' ');
export const printLine = (s) => out(`${s}\r\n`);
export const printLines = (...lines) => lines.forEach(printLine);

/**
 * FAKE_TUI_BUSY_ON_TEXT_MS: the first typed text blocks the fake's event loop this long before it is taken, as a real
 * CLI under load (or busy restoring a session) reads it late: an Enter sent a fixed pause after the text then arrives
 * while the text has not been taken yet, and the two are read together, as a paste.
 */
let busyDone = false;
function busyOnFirstText(data) {
  const ms = Number(process.env.FAKE_TUI_BUSY_ON_TEXT_MS ?? 0);
  if (busyDone || !(ms > 0) || !/[^\r\n\x1b]/.test(data)) return;
  busyDone = true;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The command name of a line that is a lone `/name` (trailing blanks allowed), else null. */
export function slashCommand(text) {
  const m = /^\/([A-Za-z][\w-]*)\s*$/.exec(text);
  return m ? m[1] : null;
}

/** A reply as the TUIs print it: `<mark> <text>`, then an empty line. */
export function printReply(mark, text) {
  printLine(`${mark} ${text}`);
  printLine('');
}

/** A conversation `[{role, text}]` as the TUIs print it when it is resumed: user turns `user`, the rest `reply`. */
export function printTurns(turns, marks) {
  for (const t of turns) {
    if (t.role === 'user') printLine(`${marks.user} ${oneLine(t.text)}`);
    else printReply(marks.reply, oneLine(t.text));
  }
}

/**
 * Ctrl-C and Ctrl-D as most TUIs take them (a `keys` table for createTui): the first press empties the box and
 * says `message(label)`; a second press of the same key in a row runs `exit` (default: exit 0). `redraw()` tells
 * whether the prompt is drawn again after the message.
 */
export function pressTwiceToExit({ labels: [c, d], message, redraw = () => true, exit }) {
  const key = (which, label) => (tui) => tui.pressAgainToExit(which, message(label), { redraw: redraw(), exit });
  return { '\x03': key('c', c), '\x04': key('d', d) };
}

/**
 * The prompt handler of the Gemini-style TUIs: a slash command is echoed, `/quit` and `/exit` run `quit()` and any
 * other is unknown; a message is echoed, `converse(text)` answers it and the reply is printed.
 */
export function chatPrompt({ marks, converse, quit }) {
  return async (text, tui) => {
    const name = slashCommand(text);
    if (name !== null) {
      printLine(`${marks.user} ${text}`);
      if (name === 'quit' || name === 'exit') {
        quit();
        return;
      }
      printLine(`Unknown command: /${name}`);
      tui.draw();
      return;
    }
    printLine(`${marks.user} ${oneLine(text)}`);
    printReply(marks.reply, await converse(text, tui));
    tui.draw();
  };
}

/**
 * A prompt box and its line editor.
 *   mark, footer, placeholder   the prompt line `<mark> <text or placeholder>` and the footer line below it
 *   onPrompt(text, tui)         a submitted line, trimmed and not empty; the prompt is already cleared (async)
 *   keys                        handlers of control keys ('\x03', '\x04') → `(tui) => changed?`; a key with none is
 *                               an ordinary control key, which disarms (see pressAgainToExit) and is ignored
 *   typing()                    whether keys reach the box (false while a picker shows)
 *   pasteReaches()              whether a bracketed paste reaches the box
 *   bracketedPaste, ss3         the escape sequences understood (else a paste arrives as typed keys)
 *   ctrlJ                       Ctrl-J puts a newline in the box (else it is ignored)
 *   echoOnSubmit                an Enter redraws what was typed in the same chunk before it submits
 *   pasteEnter                  null, or how an Enter right behind keys is taken as part of a paste:
 *                                 {windowMs, mode: 'newline'}  within windowMs of the last typed key (0: never),
 *                                   it is a newline in the box;
 *                                 {windowMs, mode: 'burst'}  in the same chunk as text (typed or pasted), or
 *                                   within windowMs of the chunk that had some, it does nothing.
 *   beforeExit()                what the fake tidies before any exit (a registry file, an open lock, …)
 */
export function createTui({
  mark,
  footer,
  placeholder = '',
  onPrompt,
  keys = {},
  typing = () => true,
  pasteReaches = () => true,
  bracketedPaste = true,
  ss3 = true,
  ctrlJ = true,
  echoOnSubmit = true,
  pasteEnter = null,
  beforeExit = () => {},
}) {
  let buf = '';
  let promptShown = false;
  let armed = null;
  let esc = null; // null | 'esc' | 'csi' | 'ss3'
  let csiParams = '';
  let pasting = false;
  let pasteBuf = '';
  let lastTextAt = 0;
  const queue = [];
  let working = false;
  /** An approval dialog on screen: its keys answer it, nothing reaches the box (see `ask`). */
  let dialog = null;

  function draw() {
    // the prompt line, the footer below it, the cursor back at the end of the prompt line
    const shown = oneLine(buf);
    out(`\r\x1b[2K${mark} ${shown || placeholder}\r\n\x1b[2K${footer}\x1b[1A\r\x1b[${2 + [...shown].length}C`);
    promptShown = true;
  }

  function redraw() {
    out(`\r\x1b[2K${mark} ${oneLine(buf)}`);
  }

  function clearPrompt() {
    if (!promptShown) return;
    out('\r\x1b[2K\x1b[1B\x1b[2K\x1b[1A\r');
    promptShown = false;
  }

  function exit(code) {
    beforeExit();
    if (process.stdin.isTTY) {
      try {
        process.stdin.setRawMode(false);
      } catch {
        /* the terminal is gone */
      }
    }
    process.exit(code);
  }

  async function handle(raw) {
    const text = raw.trim();
    if (text === '') {
      draw();
      return;
    }
    clearPrompt();
    await onPrompt(text, tui);
  }

  async function runQueue() {
    if (working) return;
    working = true;
    while (queue.length) await handle(queue.shift());
    working = false;
  }

  /** Hands a line to the fake, after the ones before it. */
  function submit(line) {
    queue.push(line);
    void runQueue();
  }

  const tui = {
    get buf() {
      return buf;
    },
    set buf(v) {
      buf = v;
    },
    /** The control key pressed once already ('c', 'd', …), or null; any other key disarms. */
    get armed() {
      return armed;
    },
    set armed(v) {
      armed = v;
    },
    get working() {
      return working;
    },
    /** Set while the fake restores a session (restore.mjs): what it reads then is dropped. */
    dropInput: false,
    draw,
    redraw,
    clearPrompt,
    exit,
    submit,

    /** The first press arms `key`, empties the box and says `message`; a second press in a row runs `exit`. */
    pressAgainToExit(key, message, { redraw: again = true, exit: leave = () => exit(0) } = {}) {
      if (armed === key) leave();
      armed = key;
      buf = '';
      clearPrompt();
      printLine(message);
      if (again) draw();
    },

    /**
     * An approval dialog: prints `lines` and waits for a key of `approve` (true) or `deny` (false, Esc included);
     * every other key is ignored while it shows.
     */
    ask(lines, { approve = ['1', 'y', '\r'], deny = ['2', '3', 'n', '\x1b'] } = {}) {
      printLines(...lines);
      return new Promise((resolve) => {
        dialog = (ch) => {
          const answer = approve.includes(ch) ? true : deny.includes(ch) ? false : null;
          if (answer === null) return;
          dialog = null;
          out(`\x1b[${lines.length}A\r\x1b[J`); // the answered dialog goes, as the TUIs take theirs away
          resolve(answer);
        };
      });
    },

    /** Decodes one chunk of raw input. */
    feed(data) {
      if (dialog) {
        for (const ch of data) dialog?.(ch);
        return;
      }
      const at = Date.now();
      let changed = false;
      let textInChunk = false;
      const sawText = () => {
        textInChunk = true;
        lastTextAt = pasteEnter?.mode === 'burst' ? at : Date.now();
      };
      for (const ch of data) {
        if (pasting) {
          pasteBuf += ch;
          if (pasteBuf.endsWith('\x1b[201~')) {
            pasting = false;
            const text = pasteBuf.slice(0, -6).replace(/\r\n|\r/g, '\n');
            pasteBuf = '';
            if (pasteReaches()) {
              buf += text;
              changed = true;
            }
            if (pasteEnter?.mode === 'burst') sawText();
          }
          continue;
        }
        if (esc === 'esc') {
          if (ch === '[') {
            esc = 'csi';
            csiParams = '';
          } else if (ss3 && ch === 'O') esc = 'ss3';
          else esc = null; // Alt+key or a lone Esc: ignored
          continue;
        }
        if (esc === 'ss3') {
          esc = null;
          continue;
        }
        if (esc === 'csi') {
          const c = ch.charCodeAt(0);
          if (c >= 0x40 && c <= 0x7e) {
            esc = null;
            if (bracketedPaste && ch === '~' && csiParams === '200') {
              pasting = true;
              pasteBuf = '';
            }
            // every other sequence (arrows, focus, …) is ignored
          } else csiParams += ch;
          continue;
        }
        if (ch === '\x1b') {
          esc = 'esc';
          continue;
        }
        const key = keys[ch];
        if (key) {
          if (key(tui)) changed = true;
          continue;
        }
        armed = null;
        if (!typing()) continue;
        if (ch === '\r') {
          if (pasteEnter?.mode === 'burst' && (textInChunk || at - lastTextAt < pasteEnter.windowMs)) continue;
          if (
            pasteEnter?.mode === 'newline' &&
            pasteEnter.windowMs > 0 &&
            Date.now() - lastTextAt < pasteEnter.windowMs
          ) {
            buf += '\n'; // too close behind the keys: part of a paste
            changed = true;
            continue;
          }
          const line = buf;
          buf = '';
          if (echoOnSubmit && changed) redraw();
          changed = false;
          submit(line);
          continue;
        }
        if (ch === '\x7f' || ch === '\b') {
          const chars = [...buf];
          chars.pop();
          buf = chars.join('');
          changed = true;
          continue;
        }
        if (ch === '\n' && ctrlJ) {
          buf += '\n'; // Ctrl-J: a newline in the prompt
          changed = true;
          continue;
        }
        if (ch.charCodeAt(0) < 0x20) continue;
        buf += ch;
        changed = true;
        if (pasteEnter) sawText();
      }
      if (changed && !working) redraw();
    },

    /**
     * Takes the terminal: SIGTERM/SIGHUP exit 143/129, SIGINT (when `sigint`) acts as Ctrl-C, stdin in raw mode
     * feeds the editor, and its end exits 0.
     */
    listen({ sigint = false } = {}) {
      for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => exit(sig === 'SIGTERM' ? 143 : 129));
      if (sigint) process.on('SIGINT', () => keys['\x03'](tui));
      if (process.stdin.isTTY) process.stdin.setRawMode(true);
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (data) => {
        if (tui.dropInput) return; // restoring a session: keys read now are lost, as in the real CLI (restore.mjs)
        busyOnFirstText(data);
        tui.feed(data);
      });
      process.stdin.on('end', () => exit(0));
      process.stdin.resume();
    },
  };
  return tui;
}
