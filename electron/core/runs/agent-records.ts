// New agents from the request's specs: validated, labelled uniquely within their run, not started yet.
import type { AgentSpec } from '../../../shared/contract.js';
import type { AgentRecord } from '../store/types.js';
import type { Vendors } from '../vendors/registry.js';
import { invalid } from './errors.js';
import { newAgentId } from './ids.js';
import { checkedDirectory, uniqueLabel } from './validation.js';

export async function newAgentRecords(specs: readonly AgentSpec[], existing: readonly AgentRecord[], vendors: Vendors): Promise<AgentRecord[]> {
  const labels = existing.map((a) => a.label);
  const out: AgentRecord[] = [];
  for (const [i, spec] of specs.entries()) {
    const field = `agents[${i}]`;
    const adapter = vendors.get(spec.vendor);
    if (!adapter) throw invalid(`vendor '${spec.vendor}' is not supported yet`, `${field}.vendor`);
    if (spec.command && spec.vendor !== 'shell') throw invalid('only shell agents take a command', `${field}.command`);
    const cwd = await checkedDirectory(spec.cwd, `${field}.cwd`, { label: spec.label, vendor: spec.vendor });
    const label = uniqueLabel(spec.label ?? spec.vendor, labels, `${field}.label`, spec.label !== undefined);
    labels.push(label);
    out.push({
      id: newAgentId(),
      label,
      vendor: spec.vendor,
      cwd,
      args: [...(spec.args ?? [])],
      command: spec.command ? [...spec.command] : null,
      sessionIds: [],
      status: 'starting',
      exitCode: null,
      warning: null,
      startedAt: null,
    });
  }
  return out;
}
