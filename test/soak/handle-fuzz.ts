// Fuzzed handles (random bytes, mutations of a real handle, caw handles) through handle.inspect and, for every one
// the preview refused, run.resume: nothing may be spawned, the core may not die, and no error may echo the handle.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../shared/contract.js';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv } from '../helpers/server.js';
import { killTagged, taggedPids } from './tagged.js';
import type { SoakRow } from './table.js';

const TAG = 'BATON_SOAK_FUZZ';
const CONCURRENCY = 32;

const rand = (n: number) => Math.floor(Math.random() * n);
const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const NASTY = [
  '',
  '../../etc',
  '/etc/passwd',
  '\u202e',
  '\u200b',
  'a'.repeat(5000),
  '\0',
  '😀',
  '%',
  '${HOME}',
  '$(id)',
  '`id`',
  '-rf',
  '--resume',
];

function mutateJson(body: unknown): unknown {
  const text = JSON.stringify(body);
  const value: unknown = JSON.parse(text);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return rand(6) === 0 ? [] : v.map(walk);
    if (v && typeof v === 'object') {
      const o = { ...(v as Record<string, unknown>) };
      for (const k of Object.keys(o)) {
        const r = rand(12);
        if (r === 0) delete o[k];
        else if (r === 1) o[k] = NASTY[rand(NASTY.length)];
        else if (r === 2) o[k] = [null, 42, -1, true, {}, []][rand(6)];
        else o[k] = walk(o[k]);
      }
      if (rand(8) === 0) o[`x${rand(100)}`] = NASTY[rand(NASTY.length)];
      return o;
    }
    return v;
  };
  return walk(value);
}

/** One fuzzed handle text. */
export function fuzzHandle(valid: string): string {
  const body: unknown = JSON.parse(Buffer.from(valid.slice('baton1.'.length), 'base64url').toString('utf8'));
  switch (rand(7)) {
    case 0:
      return randomBytes(1 + rand(200)).toString(['latin1', 'utf8', 'base64', 'hex'][rand(4)] as BufferEncoding) || 'x';
    case 1:
      return `baton1.${randomBytes(1 + rand(300)).toString('base64url')}`;
    case 2: {
      const chars = [...valid];
      for (let i = 0, n = 1 + rand(4); i < n; i++) chars[rand(chars.length)] = String.fromCharCode(33 + rand(94));
      return chars.join('');
    }
    case 3:
      return valid.slice(0, rand(valid.length)) || 'b';
    case 4:
      return `baton1.${b64u(JSON.stringify(mutateJson(body)))}`;
    case 5:
      return JSON.stringify(mutateJson(body));
    default:
      return JSON.stringify(
        mutateJson({
          version: 1,
          provider: ['claude_code', 'codex', 'opencode', 'x'][rand(4)],
          session_id: randomUUID(),
          resume_key: randomUUID(),
        }),
      );
  }
}

/** Whether an error message shows any of the handle: the whole text, or any 16-character run of it. */
export function echoes(message: string, handle: string): boolean {
  if (handle.length >= 8 && message.includes(handle)) return true;
  for (let i = 0; i + 16 <= handle.length; i += 4) if (message.includes(handle.slice(i, i + 16))) return true;
  return false;
}

export async function handleFuzz(total: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  const root = tempDir('baton-soak-fuzz-');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const tag = randomUUID();
  const server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), { [TAG]: tag }));
  const serverPid = server.child.pid!;
  let echoed = 0;
  let accepted = 0;
  let resumes = 0;
  let unexpected = 0;
  try {
    const client: RpcClient = await server.connect();
    const seed = await client.call('run.start', {
      name: 'fuzz seed',
      agents: [{ vendor: 'claude', label: 'seed', cwd }],
    });
    await client.call('run.stop', { run: seed.id });
    const valid = (await client.call('run.handle', { run: seed.id })).handle;
    const runsBefore = (await client.call('run.list', {})).length;
    const baselinePids = new Set(taggedPids(TAG, tag, [serverPid]));

    const one = async (): Promise<void> => {
      const handle = fuzzHandle(valid);
      const refused = async (call: () => Promise<unknown>): Promise<boolean> => {
        try {
          await call();
          return false;
        } catch (err) {
          if (!(err instanceof BatonError)) unexpected++;
          if (echoes(err instanceof Error ? err.message : String(err), handle)) echoed++;
          return true;
        }
      };
      if (!(await refused(() => client.call('handle.inspect', { handle })))) {
        accepted++;
        return;
      }
      resumes++;
      if (!(await refused(() => client.call('run.resume', { handle })))) unexpected++;
    };
    let done = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (done < total) {
          done++;
          await one();
        }
      }),
    );
    const spawned = taggedPids(TAG, tag, [serverPid]).filter((p) => !baselinePids.has(p)).length;
    const runsAfter = (await client.call('run.list', {})).length;
    const alive = server.child.exitCode === null && server.child.signalCode === null;
    const serverEchoed = echoes(server.output(), valid) ? 1 : 0;
    client.close();
    const ok =
      spawned === 0 && runsAfter === runsBefore && alive && echoed === 0 && serverEchoed === 0 && unexpected === 0;
    return {
      count: total,
      ok,
      figures: `${spawned} spawns, ${runsAfter - runsBefore} runs created, ${alive ? 0 : 1} crashes, ${echoed + serverEchoed} errors or logs echoing the handle, ${unexpected} unexpected replies (${resumes} resumes tried, ${accepted} mutations still valid)`,
    };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    killTagged(TAG, tag);
  }
}
