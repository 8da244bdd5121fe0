// What the opencode adapter tests share (opencode-adapter, opencode-store and opencode-follow): an empty data folder in
// a temp HOME, the sample database (docs/vendors.md §13), a writer of its own for the tests, and a vendor context.
import { copyFile, mkdir, mkdtemp, readFile, realpath, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { OPENCODE_STORE, type OpencodeStore } from '../../electron/core/vendors/opencode/store.js';
import { createVendors, type VendorOptions, type Vendors } from '../../electron/core/vendors/registry.js';

const SAMPLE = fileURLToPath(
  new URL('../fixtures/vendor-samples/opencode/.local/share/opencode/opencode.db', import.meta.url),
);
export const SAMPLE_ID = 'ses_deb4a1b2c3ffQm7Lr2VxN9pK4s';

/** A temp HOME with an empty opencode data folder. */
export async function emptyStore(): Promise<{ tmp: string; env: Record<string, string>; dataDir: string }> {
  const tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-opencode-')));
  const dataDir = join(tmp, 'home', '.local', 'share', 'opencode');
  await mkdir(dataDir, { recursive: true });
  return { tmp, env: { HOME: join(tmp, 'home'), PATH: '/usr/bin:/bin' }, dataDir };
}

/** A vendor context of a test's own (its claims and caches start empty); options shorten timings. */
export function opencodeVendors(options?: VendorOptions): {
  vendors: Vendors;
  opencodeAdapter: VendorAdapter;
  store: OpencodeStore;
} {
  const vendors = createVendors(options);
  return { vendors, opencodeAdapter: vendors.get('opencode')!, store: vendors.context.state(OPENCODE_STORE) };
}

export const copySample = (dataDir: string) => copyFile(SAMPLE, join(dataDir, 'opencode.db'));

/** Changes the store through sql.js (as a test's own writer; the adapter never writes). */
export async function editStoreIn(
  dataDir: string,
  sql: string,
  params: (string | number | null)[] = [],
): Promise<void> {
  const SQL = await initSqlJs({
    locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'),
  });
  const path = join(dataDir, 'opencode.db');
  const db = new SQL.Database(await readFile(path));
  db.run(sql, params);
  await writeFile(path, db.export());
  db.close();
  const later = new Date(Date.now() + 5000);
  await utimes(path, later, later);
}
