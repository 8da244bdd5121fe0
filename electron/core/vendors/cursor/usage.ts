// Cursor's usage (docs/cost.md): its chat store (`store.db`, content-addressed blobs) records no token counts or cost
// that Baton could read, so a Cursor agent's tokens and cost are unknown, said as such.
import type { UsageReading } from '../kit/usage.js';

export const CURSOR_USAGE_UNRECORDED = "Cursor's chat store records no token counts";

export const cursorUsage = {
  costUnknownBecause: CURSOR_USAGE_UNRECORDED,
  read: (): Promise<UsageReading> => Promise.resolve({ kind: 'unrecorded', reason: CURSOR_USAGE_UNRECORDED }),
};
