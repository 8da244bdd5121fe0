// Git's rule for a new branch name (git check-ref-format --branch), without running git: a handle's worktree branch
// is checked by it before anything is resumed (codec.ts), and a new or resumed agent's branch before git is asked
// about it (runs/worktree-prepare.ts, runs/worktree-resume.ts).

const BRANCH_MAX_CHARS = 255;
// Controls, and the characters git's check-ref-format refuses anywhere in a ref: space ~ ^ : ? * [ \
const REF_FORBIDDEN = /[\u0000-\u0020\u007f-\u009f~^:?*[\\]/u;
const FORMAT_CHARS = /\p{Cf}/u;

/** git check-ref-format --branch, in full: what git itself would accept as a new branch name. */
export function isBranchName(name: string): boolean {
  if (name.length === 0 || name.length > BRANCH_MAX_CHARS) return false;
  if (name.startsWith('-') || name === '@' || name.includes('@{') || name.includes('..') || name.includes('//'))
    return false;
  if (REF_FORBIDDEN.test(name) || FORMAT_CHARS.test(name)) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
