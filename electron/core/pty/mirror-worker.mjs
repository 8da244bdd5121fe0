// The mirrors' own thread: headless xterms parse every terminal's output here, in parallel with the PTY reads
// on the main thread (parsing inline halved throughput: the PTY waited while xterm parsed).
// Plain JavaScript so it loads the same from sources, from dist/ and in Electron.
import { readdirSync, readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import xtermHeadless from '@xterm/headless';
import serializeAddon from '@xterm/addon-serialize';
import { bufferText } from '../../../shared/buffer-text.mjs';

const { Terminal } = xtermHeadless;
const { SerializeAddon } = serializeAddon;
const mirrors = new Map();

/**
 * Every process's /proc/<pid>/stat line, joined by NUL (a command name may hold a newline, never a NUL): the process
 * tracker's reads, made here rather than on the core's main thread (proc-stat.ts, scanProcesses).
 */
function statLines() {
  const lines = [];
  let names = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return '';
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      lines.push(readFileSync(`/proc/${name}/stat`, 'latin1'));
    } catch {
      // Gone since the listing.
    }
  }
  return lines.join('\0');
}

parentPort.on('message', (m) => {
  if (m.t === 'scan') {
    parentPort.postMessage({ t: 'scan', request: m.request, lines: statLines() });
    return;
  }
  if (m.t === 'open') {
    const term = new Terminal({ cols: m.cols, rows: m.rows, scrollback: m.scrollback, allowProposedApi: true });
    const serializer = new SerializeAddon();
    term.loadAddon(serializer);
    mirrors.set(m.id, { term, serializer, scrollback: m.scrollback, applied: 0, queued: 0, soon: [] });
    return;
  }
  const mirror = mirrors.get(m.id);
  if (!mirror) return;
  switch (m.t) {
    case 'write':
      mirror.queued = m.end;
      mirror.term.write(new Uint8Array(m.data, 0, m.length), () => {
        mirror.applied = m.end;
        parentPort.postMessage({ t: 'applied', id: m.id, end: m.end });
        // The batch's memory goes back to be filled again (fresh memory cost the core page faults for every byte).
        // Not before xterm's write loop has finished with it: it reads the length once this callback has returned.
        if (m.reuse) queueMicrotask(() => parentPort.postMessage({ t: 'free', data: m.data }, [m.data]));
        // Captures that take the next boundary between writes: the screen matches `applied` here too.
        for (const capture of mirror.soon.splice(0)) answer(mirror, capture);
      });
      break;
    case 'resize':
      mirror.term.resize(m.cols, m.rows);
      break;
    case 'capture':
      // A stream's reset need not wait for a backlog of writes (its client gets the rest from the ring): it takes
      // the screen now when nothing is being parsed, else at the next boundary between writes.
      if (m.soon && mirror.applied === mirror.queued) answer(mirror, m);
      else if (m.soon) mirror.soon.push(m);
      // Inside the write callback every earlier write is applied and no later one yet: the screen matches `applied`.
      else mirror.term.write('', () => answer(mirror, m));
      break;
    case 'close':
      mirror.term.dispose();
      mirrors.delete(m.id);
      break;
  }
});

function answer(mirror, m) {
  parentPort.postMessage({
    t: 'screen',
    id: m.id,
    request: m.request,
    screen: {
      cols: mirror.term.cols,
      rows: mirror.term.rows,
      offset: mirror.applied,
      // A bounded catch-up (a first visit) takes the screen and only the newest `m.scrollback` lines above it.
      serialized: mirror.serializer.serialize({
        scrollback: Math.min(m.scrollback ?? mirror.scrollback, mirror.scrollback),
      }),
      // A reset asks for no text (0): reading it cost more than the rest of a first visit's catch-up.
      text: m.textLines === 0 ? '' : bufferText(mirror.term.buffer.active, m.textLines),
    },
  });
}
