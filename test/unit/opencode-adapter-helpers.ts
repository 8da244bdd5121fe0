// opencode-adapter.test.ts's and opencode-store.test.ts's shared parts: an empty opencode data folder per test with
// the adapter and store over it, the sample database and the real WAL (test/fixtures/opencode-wal/make.py) to put in it.
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import type { AgentContext, VendorAdapter, VendorEnv } from '../../electron/core/vendors/adapter.js';
import {
  sqlJsLoader,
  withImage as withImageOf,
  type SqlDatabase,
} from '../../electron/core/vendors/kit/sqlite-image.js';
import { type OpencodeStore } from '../../electron/core/vendors/opencode/store.js';
import { type Vendors } from '../../electron/core/vendors/registry.js';
import type { VendorName } from '../../shared/words.js';
import { copySample, editStoreIn, emptyStore, opencodeVendors } from './opencode-fixture.js';

export const WAL_DIR = fileURLToPath(new URL('../fixtures/opencode-wal/', import.meta.url));
export const WAL_ONE = 'ses_deb4a1b2c3feWalOneAbCdEfGh'; // /home/u/other, transaction 1 of the WAL
export const WAL_TWO = 'ses_deb4a1b2c3fdWalTwoAbCdEfGh'; // /home/u/proj, transaction 2 of the WAL
const PAGE = 4096;
export const FRAME = 24 + PAGE;

export let tmp: string;
export let env: Record<string, string>;
export let dataDir: string;
let vendors: Vendors;
export let opencodeAdapter: VendorAdapter;
let store: OpencodeStore;
export const getAdapter = (vendor: VendorName) => vendors.get(vendor);
export const listOpencodeSessions = (e: VendorEnv) => store.list(e);
export const opencodeSessions = (e: VendorEnv) => store.sessions(e);
export const withImage = <T>(bytes: Uint8Array, fn: (db: SqlDatabase) => T) => withImageOf(sqlJsLoader(), bytes, fn);
export const useSample = () => copySample(dataDir);
export const editStore = (sql: string, params?: (string | number | null)[]) => editStoreIn(dataDir, sql, params);

export function useOpencodeStore(): void {
  beforeEach(async () => {
    ({ tmp, env, dataDir } = await emptyStore());
    ({ vendors, opencodeAdapter, store } = opencodeVendors());
  });

  afterEach(async () => {
    await rm(tmp, { recursive: true, force: true });
  });
}

export function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'planner', cwd: '/home/u/proj', args: [], command: null, ...over };
}

export async function useWal(wal?: (bytes: Buffer) => Buffer): Promise<void> {
  await copyFile(join(WAL_DIR, 'opencode.db'), join(dataDir, 'opencode.db'));
  const bytes = await readFile(join(WAL_DIR, 'opencode.db-wal'));
  await writeFile(join(dataDir, 'opencode.db-wal'), wal ? wal(bytes) : bytes);
}
