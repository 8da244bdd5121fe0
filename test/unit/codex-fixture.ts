// What the Codex adapter tests share (codex-adapter.test.ts, codex-follow.test.ts): a copy of the sample store in a
// temp HOME, a vendor context of their own, rollouts written in the CLI's format (docs/vendors.md §2), and waits.
import { cp, mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { localDayFolders } from '../../electron/core/vendors/codex/days.js';
import { CODEX_STORE, type CodexStore } from '../../electron/core/vendors/codex/store.js';
import { createVendors, type VendorOptions, type Vendors } from '../../electron/core/vendors/registry.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/vendor-samples/codex/.codex', import.meta.url));
export const FAKE = fileURLToPath(new URL('../fakes/codex.mjs', import.meta.url));
export const SAMPLE_ID = '019abcde-1234-7def-8abc-0123456789ab';
export const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The sample store copied into a new temp folder, as CODEX_HOME. */
export async function sampleStore(): Promise<{ tmp: string; store: string; env: Record<string, string> }> {
  const tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-codex-')));
  const store = join(tmp, 'codex-home');
  await cp(FIXTURE, store, { recursive: true });
  return { tmp, store, env: { HOME: join(tmp, 'home'), CODEX_HOME: store, PATH: '/usr/bin:/bin' } };
}

/** A vendor context of a test's own (its claims and caches start empty); options shorten timings. */
export function codexVendors(options?: VendorOptions): {
  vendors: Vendors;
  codexAdapter: VendorAdapter;
  rollouts: CodexStore;
} {
  const vendors = createVendors(options);
  return { vendors, codexAdapter: vendors.get('codex')!, rollouts: vendors.context.state(CODEX_STORE) };
}

export async function until<T>(get: () => T | undefined, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A rollout in `store`'s day folder for `at` (local time of `tz`-less env: this process's). */
export async function writeRolloutIn(
  store: string,
  env: Record<string, string>,
  id: string,
  cwd: string,
  opts: { folder?: string; at?: Date; prompt?: string } = {},
): Promise<string> {
  const at = opts.at ?? new Date();
  const folder = opts.folder ?? localDayFolders(at, env)[0];
  const dir = join(store, 'sessions', folder);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `rollout-2026-01-01T00-00-00-${id}.jsonl`);
  const lines = [
    {
      timestamp: at.toISOString(),
      ordinal: 0,
      type: 'session_meta',
      payload: { session_id: id, id, timestamp: at.toISOString(), cwd, source: 'cli', model_provider: 'openai' },
    },
    {
      timestamp: at.toISOString(),
      ordinal: 1,
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n</environment_context>' }],
      },
    },
    {
      timestamp: at.toISOString(),
      ordinal: 2,
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: opts.prompt ?? 'hello' }] },
    },
  ];
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

export function uuid7(): string {
  const h = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${Date.now().toString(16).padStart(12, '0').slice(0, 8)}-${Date.now().toString(16).padStart(12, '0').slice(8, 12)}-7${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
