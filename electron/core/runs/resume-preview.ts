// What the preview of a resume shows for each agent (`handle.inspect`): where it will run, whether that directory can
// be used and why not (never the path), the command and its worktree. Apart from resume-planner.ts, which decides
// the plan; this only turns a planned agent into the preview's words.
import type { HandlePreview } from '../../../shared/contract.js';
import type { HandleAgent } from '../handle/codec.js';
import type { PlannedAgent } from './resume-agent-plan.js';
import { inspectDirectory, problemText, type DirectoryCheck, type DirectoryProblem } from './workdir.js';

export type HandlePreviewAgent = HandlePreview['agents'][number];

export async function previewAgent(
  p: PlannedAgent,
  h: HandleAgent,
  own: DirectoryCheck | null,
  used: ReadonlySet<string>,
): Promise<HandlePreviewAgent> {
  const recreating = p.worktree !== null && p.worktree.state !== 'existing';
  const runsIn = p.known && !recreating && !p.agent.host ? await inspectDirectory(p.agent.cwd) : own;
  const cwd = p.known ? p.agent.cwd : own?.ok ? own.real : h.cwd;
  let problem: string | null = null;
  let check = p.check;
  if (own === null) {
    problem = 'this handle carries no directory: give one';
    check = 'cwd-missing';
  } else {
    // Where it runs first; then the handle's own directory, which must be usable too (resolve refuses it).
    const bad = [runsIn, own].find((c) => c !== null && !c.ok);
    if (bad && !bad.ok) {
      const text = problemText(bad.problem);
      // Never the path: the CLI repeats this reason in its error line, which can end up in a log.
      problem =
        bad === own && p.known && h.cwd !== p.agent.cwd ? `the directory the handle names for it: ${text}` : text;
      check = isTrustProblem(bad.problem) ? 'cwd-unsafe' : 'cwd-missing';
    }
  }
  return {
    label: p.agent.label,
    vendor: p.agent.vendor,
    cwd,
    cwdProblem: problem,
    newDirectory: cwd !== null && !used.has(cwd),
    sessionId: h.sessionId,
    check,
    command: problem === null ? p.plan.argv : [],
    worktree: previewWorktree(p),
    ...(p.agent.host ? { host: p.agent.host } : {}),
  };
}

function previewWorktree(p: PlannedAgent): HandlePreviewAgent['worktree'] {
  const w = p.worktree;
  const branch = p.agent.worktree?.branch ?? '';
  if (w === null) return null;
  if (w.state === 'existing') return { branch: w.branch, state: 'existing', reason: null };
  if (w.state === 'recreate')
    return { branch, state: 'recreate', reason: `its worktree is gone: it will be re-created from branch ${w.branch}` };
  return { branch, state: 'failed', reason: w.reason };
}

function isTrustProblem(problem: DirectoryProblem): boolean {
  return problem.kind === 'foreign-owner' || problem.kind === 'writable';
}
