// The vendors this build knows: one line per vendor folder (docs/architecture.md §9). The record is checked against
// VENDOR_NAMES, so a name added there without a line here, or a line without its name, does not compile.
// A core makes one Vendors (host.ts does): its adapters share that core's vendor context (claims, caches,
// timings) and nothing else.
import type { VendorInfo } from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import type { TranscriptSource, VendorAdapter, VendorDefinition, VendorEnv } from './adapter.js';
import { claude } from './claude/index.js';
import { codex } from './codex/index.js';
import { copilot } from './copilot/index.js';
import { cursor } from './cursor/index.js';
import { gemini } from './gemini/index.js';
import { VendorContext, type VendorOptions } from './kit/context.js';
import { detectVendors } from './kit/detect.js';
import type { VersionCache } from './kit/version-cache.js';
import { opencode } from './opencode/index.js';
import { qwen } from './qwen/index.js';
import { shell } from './shell/index.js';

export { findOnPath, resolveBin } from './kit/bin.js';
export type { VendorOptions } from './kit/context.js';

/** In the order the New run dialog and first launch list them. */
const VENDORS = {
  claude,
  gemini,
  copilot,
  qwen,
  codex,
  opencode,
  cursor,
  shell,
} as const satisfies { readonly [V in VendorName]: VendorDefinition<V> };

/** The adapters of one core, over one vendor context. */
export class Vendors {
  readonly context: VendorContext;
  readonly adapters: ReadonlyMap<VendorName, VendorAdapter>;

  constructor(options: VendorOptions = {}) {
    this.context = new VendorContext(options);
    this.adapters = new Map(
      Object.values(VENDORS).map((d): [VendorName, VendorAdapter] => [d.vendor, d.create(this.context)]),
    );
  }

  get(vendor: VendorName): VendorAdapter | undefined {
    return this.adapters.get(vendor);
  }

  /** Which CLIs are installed here (binary, version), for first launch and the New run dialog. */
  detect(env: VendorEnv, versions?: VersionCache): Promise<VendorInfo[]> {
    return detectVendors(this.context, this.adapters.values(), env, versions);
  }
}

/** Each vendor's transcripts for search (docs/search.md §2), for the search worker: no adapter is made. */
export function transcriptSources(): ReadonlyMap<VendorName, TranscriptSource> {
  const out = new Map<VendorName, TranscriptSource>();
  for (const d of Object.values(VENDORS) as VendorDefinition[]) if (d.searchText) out.set(d.vendor, d.searchText);
  return out;
}

/** A core's vendors; tests pass options (shorter follow timings) instead of changing globals. */
export function createVendors(options: VendorOptions = {}): Vendors {
  return new Vendors(options);
}
