// What the vendor adapters of one core share while it runs: the ids its followers claimed, the caches of the vendor
// stores it read, and the follow timings (docs/architecture.md §9). One context per core (its host makes it), none per
// module: two cores in one process (the tests run many) never see each other's claims or caches, and a test shortens
// a timing by passing an option instead of changing a global.
import type { VendorName } from '../../../../shared/words.js';
import { SessionClaims } from './claims.js';

export interface VendorOptions {
  /**
   * Follow timings per vendor, laid over that vendor's defaults (its folder names them: `CODEX_TIMINGS`, …). Keys a
   * vendor does not have are ignored.
   */
  readonly timings?: { readonly [V in VendorName]?: Readonly<Record<string, number>> };
}

/** A piece of per-context state (a cache, a loader), made the first time a context is asked for it. */
export interface StateSlot<T> {
  /** For messages and debugging only; slots are told apart by identity. */
  readonly name: string;
  make(ctx: VendorContext): T;
}

/** Declares a slot; the declaring module keeps the returned object and asks `ctx.state(slot)` for its value. */
export function stateSlot<T>(name: string, make: (ctx: VendorContext) => T): StateSlot<T> {
  return { name, make };
}

export class VendorContext {
  private readonly claimBooks = new Map<VendorName, SessionClaims>();
  private readonly states = new Map<StateSlot<unknown>, unknown>();

  constructor(private readonly options: VendorOptions = {}) {}

  /** The ids this vendor's followers hold: a claimed id never goes to a second agent (docs/vendors.md §11). */
  claims(vendor: VendorName): SessionClaims {
    let book = this.claimBooks.get(vendor);
    if (!book) {
      book = new SessionClaims();
      this.claimBooks.set(vendor, book);
    }
    return book;
  }

  /** The slot's value in this context, made at first use. */
  state<T>(slot: StateSlot<T>): T {
    if (this.states.has(slot)) return this.states.get(slot) as T;
    const value = slot.make(this);
    this.states.set(slot, value);
    return value;
  }

  /** `defaults` with this context's overrides for `vendor` (numbers only, known keys only), frozen. */
  timings<T extends Record<string, number>>(vendor: VendorName, defaults: T): Readonly<T> {
    const given = this.options.timings?.[vendor] ?? {};
    const out: Record<string, number> = { ...defaults };
    for (const key of Object.keys(defaults)) {
      const v = given[key];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = v;
    }
    return Object.freeze(out) as Readonly<T>;
  }
}
