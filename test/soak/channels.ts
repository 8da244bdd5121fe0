// Malformed messages on every channel of a running core: raw HTTP before the token check (bad cookies, URLs,
// headers), WebSocket frames after it, and the CLI's standard input. The core must answer or close, never die, and
// its memory must stay flat; the CLI must end with a one-line error, never a stack trace.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { fuzzHttp, fuzzSocket, rng } from '../helpers/fuzz.js';
import { BATON_BIN, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import type { SoakRow } from './table.js';

const MB = 1 << 20;

function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

const alive = (s: ServerProcess) => s.child.exitCode === null && s.child.signalCode === null;

function openSocket(server: ServerProcess): Promise<WebSocket> {
  const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
    headers: { Authorization: `Bearer ${server.token}` },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** `baton inspect` with `input` on standard input: its exit code and whether it printed a stack trace. */
function cliWithStdin(server: ServerProcess, input: Buffer): Promise<{ code: number | null; trace: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BATON_BIN, 'inspect'], {
      env: { ...process.env, BATON_URL: server.url, BATON_TOKEN: server.token },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.once('close', (code) => resolve({ code, trace: /\n\s+at /.test(err) }));
  });
}

function stdinInput(r: () => number): Buffer {
  const n = Math.floor(r() * 4000);
  switch (Math.floor(r() * 4)) {
    case 0:
      return Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
    case 1:
      return Buffer.from(
        `baton1.${Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256))).toString('base64url')}`,
      );
    case 2:
      return Buffer.from(`{"v":1,"run":${'['.repeat(Math.min(n, 3000))}`);
    default:
      return Buffer.alloc(Math.floor(r() * 200_000), 0x41);
  }
}

export async function channelFuzz(
  perChannel: number,
  cliRuns: number,
): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  const root = tempDir('baton-soak-channels-');
  const server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  const pid = server.child.pid!;
  try {
    const port = Number(new URL(server.url).port);
    await fuzzHttp(port, 200, 1);
    await fuzzSocket(() => openSocket(server), 200, 1);
    const before = rssBytes(pid);
    const statuses = await fuzzHttp(port, perChannel, 7);
    const http5xx = statuses.filter((s) => s !== null && s >= 500).length;
    const socket = await fuzzSocket(() => openSocket(server), perChannel, 7);
    const r = rng(11);
    let cliBad = 0;
    for (let i = 0; i < cliRuns; i += 4) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(4, cliRuns - i) }, () => cliWithStdin(server, stdinInput(r))),
      );
      cliBad += batch.filter((b) => b.trace || (b.code !== 1 && b.code !== 2)).length;
    }
    const after = rssBytes(pid);
    const flat = after < 2 * before + 50 * MB;
    const ok = alive(server) && http5xx === 0 && socket.problems.length === 0 && cliBad === 0 && flat;
    return {
      count: perChannel * 2 + cliRuns,
      ok,
      figures: `${alive(server) ? 0 : 1} crashes; HTTP ${perChannel}: ${http5xx} 5xx; WebSocket ${perChannel}: ${socket.problems.length} problems${socket.problems.length ? ` (${socket.problems[0]})` : ''}; CLI stdin ${cliRuns}: ${cliBad} traces or odd exits; RSS ${Math.round(before / MB)} → ${Math.round(after / MB)} MB`,
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}
