// A write of the store that failed, in the user's words: what could not be saved, why (the disk is full, …),
// where, and what to do. The message is what a client shows, so it is a BatonError, not an internal error.
import { BatonError } from '../../../shared/contract.js';
import { errnoCode } from './safe-read.js';

const WHY: Record<string, { reason: string; advice: string }> = {
  ENOSPC: { reason: 'the disk is full', advice: 'free some space' },
  EDQUOT: { reason: 'the disk quota is used up', advice: 'free some space' },
  EIO: { reason: 'the disk reported an input/output error', advice: 'check the disk' },
  EROFS: { reason: 'the file system is read-only', advice: 'make it writable' },
  EACCES: { reason: 'permission denied', advice: 'check the owner and mode of the data directory' },
  EPERM: { reason: 'permission denied', advice: 'check the owner and mode of the data directory' },
};

/** A write of the store the disk refused, in the user's words; reported by the store once per outage. */
export class StoreWriteError extends BatonError {}

/** True for a failure of the file system (it has an errno code), as opposed to a bug or a refused value. */
export function isFileSystemError(err: unknown): boolean {
  return (
    err instanceof Error && !(err instanceof BatonError) && typeof (err as NodeJS.ErrnoException).code === 'string'
  );
}

/**
 * The error for a failed write of run `runName` under `place`. A run being created is refused outright; an
 * existing run keeps its state in memory and is written again later, which the message promises.
 */
export function saveFailure(err: unknown, runName: string, place: string, creating: boolean): StoreWriteError {
  const code = errnoCode(err);
  const why = WHY[code] ?? { reason: `the write failed (${code})`, advice: 'check the data directory' };
  const message = creating
    ? `could not create run '${runName}': ${why.reason} (${place}): ${why.advice}, then try again`
    : `could not save run '${runName}': ${why.reason} (${place}): ${why.advice}; Baton keeps running and will save again`;
  return new StoreWriteError({ code: 'failed', message });
}
