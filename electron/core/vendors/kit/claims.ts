// Exclusive claims of discovered session ids (docs/vendors.md §11): each follower takes an id only when no other follower
// of the same vendor holds it, so two agents started in one directory never end up with one conversation.
import type { VendorName } from '../../../../shared/words.js';
import type { StateSlot, VendorContext } from './context.js';

/** One follower's identity in a claim book. */
export type Claimant = symbol;

export class SessionClaims {
  private readonly owners = new Map<string, Claimant>();

  /** A new follower's identity. */
  newClaimant(what: string): Claimant {
    return Symbol(what);
  }

  /**
   * A new follower: its identity, and the id its plan's hints carry when that has the vendor's shape (a resume, or
   * an id the vendor made before the spawn), claimed for it at once.
   */
  enter(
    what: string,
    hints: Readonly<Record<string, string>>,
    pattern: RegExp,
  ): { me: Claimant; hinted: string | null } {
    const me = this.newClaimant(what);
    const hinted = hints.sessionId && pattern.test(hints.sessionId) ? hints.sessionId : null;
    if (hinted) this.claim(hinted, me);
    return { me, hinted };
  }

  /** `id` is unclaimed, or already `me`'s. */
  isFree(id: string, me: Claimant): boolean {
    const owner = this.owners.get(id);
    return owner === undefined || owner === me;
  }

  /** Gives `id` to `me`. Callers check isFree with no await in between: another follower may be reading too. */
  claim(id: string, me: Claimant): void {
    this.owners.set(id, me);
  }
}

/** What a follower that discovers ids works with, all from its core's vendor context. */
export interface FollowDeps<S, T> {
  store: S;
  claims: SessionClaims;
  timings: Readonly<T>;
}

/** A discovering vendor's store reader, claim book and timings (its defaults under the context's options). */
export function followDeps<S, T extends Record<string, number>>(
  ctx: VendorContext,
  vendor: VendorName,
  store: StateSlot<S>,
  timings: T,
): FollowDeps<S, T> {
  return { store: ctx.state(store), claims: ctx.claims(vendor), timings: ctx.timings(vendor, timings) };
}
