// The New run dialog's rows of agents, apart from the form's state: the vendor a new row starts with, the checks a row
// must pass before Start, how each agent's start went, and where an earlier run's agent worked (NewRunDialog.tsx).
import type { ReactNode } from 'react';
import type { AgentView, VendorInfo } from '../../shared/contract.js';
import type { AgentRow, AgentRowErrors } from './AgentRowFields.js';
import { validateCwd, validateLabel } from './validate.js';

export function defaultVendor(vendors: VendorInfo[] | null): AgentRow['vendor'] {
  const found = (vendors ?? []).filter((v) => v.found);
  return (found.find((v) => v.vendor !== 'shell') ?? found[0])?.vendor ?? '';
}

export function rowErrors(row: AgentRow, rows: AgentRow[], vendors: VendorInfo[] | null): AgentRowErrors {
  const errors: AgentRowErrors = {};
  const info = vendors?.find((v) => v.vendor === row.vendor);
  if (row.vendor === '') errors.vendor = 'Choose a vendor';
  else if (info && !info.found)
    errors.vendor = `${info.displayName} is not installed on ${row.host || 'the Baton host'}`;
  const cwd = validateCwd(row.cwd);
  if (cwd) errors.cwd = cwd;
  const others = rows.filter((r) => r.key !== row.key).map((r) => r.label);
  const label = validateLabel(row.label, others);
  if (label) errors.label = label;
  return errors;
}

export function agentResult(agent: AgentView | undefined): ReactNode {
  if (!agent) return null;
  if (agent.status === 'failed')
    return <span className="bt-danger-text">failed: {agent.warning ?? 'could not start'}</span>;
  if (agent.status === 'exited')
    return (
      <span className="bt-warn-text">
        exited{agent.exitCode !== null ? ` (code ${agent.exitCode})` : ''}
        {agent.warning ? `: ${agent.warning}` : ''}
      </span>
    );
  return (
    <span className="bt-ok-text">
      {agent.status}
      {agent.warning ? `: ${agent.warning}` : ''}
    </span>
  );
}

/** Where an agent of an earlier run worked in the user's checkout: for one in a worktree, the same folder of its repository. */
export function checkoutDir(a: AgentView): string {
  const w = a.worktree;
  if (!w) return a.cwd;
  return a.cwd === w.worktreePath || !a.cwd.startsWith(`${w.worktreePath}/`)
    ? w.repoRoot
    : `${w.repoRoot}${a.cwd.slice(w.worktreePath.length)}`;
}
