// The agents of the renderer bench: small Node programs run as `shell` agents, each in raw mode (no tty echo, so
// the pane gets exactly what the program writes), and the line workload they write; and the scale scene's bash agent.
// The tty turns each LF into CRLF (ONLCR), so a line of 100 characters arrives as 102 bytes, exactly what
// renderer/bench-hooks.ts writes into its baseline xterm.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LINE_CHARS = 100;
/** Bytes of one line as the pane receives it: 100 characters + CRLF. */
export const LINE_BYTES = LINE_CHARS + 2;

/** Line `i` of the workload, as renderer/bench-hooks.ts `lineWorkload` makes it (without the line end). */
export function workloadLine(i: number): string {
  let s = `${String(i).padStart(8, '0')} `;
  for (let k = 9; k < LINE_CHARS; k++) s += String.fromCharCode(33 + ((i * 7 + k) % 94));
  return s;
}

/**
 * `writer.cjs MAX`: builds lines 0..MAX-1 up front; each "N\r" on stdin writes lines 0..N-1 in 64 KiB writes
 * (a TTY stdout is written synchronously: the program blocks while the core holds the PTY paused).
 */
const WRITER = `const max = +process.argv[2];
const L = ${LINE_CHARS + 1};
const buf = Buffer.alloc(max * L);
for (let i = 0; i < max; i++) {
  const at = i * L;
  buf.write(String(i).padStart(8, '0'), at, 'latin1');
  buf[at + 8] = 32;
  for (let k = 9; k < ${LINE_CHARS}; k++) buf[at + k] = 33 + ((i * 7 + k) % 94);
  buf[at + ${LINE_CHARS}] = 10;
}
process.stdin.setRawMode(true);
let pending = '';
process.stdin.on('data', (d) => {
  pending += d.toString('latin1');
  for (let k; (k = pending.indexOf('\\r')) >= 0; ) {
    const n = Math.min(max, parseInt(pending.slice(0, k), 10) || 0);
    pending = pending.slice(k + 1);
    const end = n * L;
    for (let at = 0; at < end; at += 65536) process.stdout.write(buf.subarray(at, Math.min(end, at + 65536)));
  }
});
process.stdout.write('writer ready (' + max + ' lines)\\n');
`;

/** `flood.cjs`: "f" starts 100-character lines in 64 KiB writes, forever; "s" stops them. */
const FLOOD = `const L = ${LINE_CHARS + 1};
const n = Math.floor(65536 / L);
const block = Buffer.alloc(n * L);
for (let i = 0; i < n; i++) {
  const at = i * L;
  block.write('flood ' + String(i).padStart(4, '0') + ' ', at, 'latin1');
  for (let k = 11; k < ${LINE_CHARS}; k++) block[at + k] = 33 + ((i * 7 + k) % 94);
  block[at + ${LINE_CHARS}] = 10;
}
process.stdin.setRawMode(true);
let on = false;
const pump = () => {
  if (!on) return;
  process.stdout.write(block);
  setImmediate(pump);
};
process.stdin.on('data', (d) => {
  const s = d.toString('latin1');
  if (s.includes('s')) on = false;
  else if (s.includes('f') && !on) {
    on = true;
    pump();
  }
});
process.stdout.write('flood ready\\n');
`;

/** `echo.cjs`: every byte typed is written straight back, with a line break after every 40. */
const ECHO = `process.stdin.setRawMode(true);
let n = 0;
process.stdin.on('data', (d) => {
  let out = '';
  for (const c of d.toString('latin1')) {
    out += c;
    if (++n % 40 === 0) out += '\\n';
  }
  process.stdout.write(out);
});
process.stdout.write('echo ready\\n');
`;

export interface AgentScripts {
  writer: string;
  flood: string;
  echo: string;
}

export function writeAgentScripts(dir: string): AgentScripts {
  const scripts = { writer: join(dir, 'writer.cjs'), flood: join(dir, 'flood.cjs'), echo: join(dir, 'echo.cjs') };
  writeFileSync(scripts.writer, WRITER);
  writeFileSync(scripts.flood, FLOOD);
  writeFileSync(scripts.echo, ECHO);
  return scripts;
}

/**
 * The scale scene's agent, as argv: `historyLines` lines of history, then a burst every second until the file `quiet`
 * exists. A bash script that starts no process while it runs, as real agents wait for their model without forking.
 * Its first form (`sh`, with `$(date +%s)` and `sleep 1`) forked two processes a second per agent: 200 a second for
 * the scene, about 0.27 of a core on this 2-core machine, taken from the page and the core it measures
 * (docs/performance.md "The scale scene's agents: no process a second (fakes31)"). `printf '%(%s)T'` is bash's clock
 * and `read -t 1` on a pipe nobody writes is its sleep.
 */
export const burstyAgent = (quiet: string, historyLines: number): string[] => [
  'bash',
  '-c',
  [
    `seq 1 ${historyLines} | sed 's/^/history line /'`,
    // A pipe of its own, open for reading and writing: `read -t 1` on it waits a second.
    'exec 3<> <(:)',
    'i=0',
    'while :; do',
    // Quiet, it waits as an idle agent does: no output and no new process.
    `  if [ -e '${quiet}' ]; then exec sleep 100000; fi`,
    '  i=$((i+1))',
    `  printf '\\033[1;36m● tick %(%s)T\\033[0m step %d: reading files, planning the change\\n  ⎿ src/module-%d.ts\\n' -1 "$i" "$i"`,
    '  read -t 1 -u 3',
    'done',
  ].join('\n'),
];
