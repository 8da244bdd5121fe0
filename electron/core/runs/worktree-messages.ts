// How worktree outcomes reach the user: the contract's errors, and the lines shown in an agent's pane or a reply.
import { BatonError, type ErrorCode } from '../../../shared/contract.js';
import { WorktreeError, type IncludeResult } from '../worktrees/index.js';

export function includeNotices(included: IncludeResult): string[] {
  const out: string[] = [];
  if (included.copied.length > 0) {
    const names = included.copied.slice(0, 5).join(', ');
    out.push(
      `copied ${included.copied.length} file${included.copied.length === 1 ? '' : 's'} named by .worktreeinclude: ${names}${included.copied.length > 5 ? ', …' : ''}`,
    );
  }
  for (const s of included.skipped.slice(0, 5)) out.push(`not copied: ${s.path}: ${s.reason}`);
  return out;
}

export function removedMessage(r: {
  worktreePath: string;
  branch: string;
  branchDeleted: boolean;
  branchKept?: string;
}): string {
  return `removed the worktree ${r.worktreePath}; ${r.branchDeleted ? `deleted branch ${r.branch}` : `kept branch ${r.branch}: ${r.branchKept ?? 'kept'}`}`;
}

const CODES: Record<WorktreeError['code'], ErrorCode> = {
  'not-a-repo': 'invalid',
  invalid: 'invalid',
  escape: 'invalid',
  dirty: 'conflict',
  conflict: 'conflict',
  'not-owned': 'conflict',
  'not-approved': 'conflict',
  failed: 'failed',
};

/** A worktree failure as the contract's error; anything else as it is. */
export function asBatonError(err: unknown, field?: string): Error {
  if (err instanceof WorktreeError) {
    const code = CODES[err.code];
    return new BatonError(
      field === undefined ? { code, message: err.message } : { code, message: `${field}: ${err.message}`, field },
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}
