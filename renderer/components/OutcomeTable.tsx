// What a resume (or an adoption, or a fork) did, per agent: one row each, its label, vendor and what became of it.
import type { ResumeOutcome } from '../../shared/contract.js';

const OUTCOME_CLASS: Record<ResumeOutcome['outcome'], string> = {
  resumed: 'bt-ok-text',
  fresh: 'bt-warn-text',
  failed: 'bt-danger-text',
};

/** A table of one row per agent; `cell` says the last column of a row (its text, and its class for the colour). */
export function AgentOutcomes<Row extends { agentId: string; label: string; vendor: string }>({
  rows,
  caption,
  column,
  cell,
}: {
  rows: readonly Row[];
  caption: string;
  column: string;
  cell(row: Row): { text: string; className: string };
}) {
  return (
    <div className="bt-table-wrap" role="status">
      <table className="bt-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Vendor</th>
            <th scope="col">{column}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const { text, className } = cell(row);
            return (
              <tr key={row.agentId}>
                <th scope="row">{row.label}</th>
                <td>{row.vendor}</td>
                <td className={className}>{text}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** What a resume (or an adoption) did: resumed, fresh with its warning, or failed with its reason. */
export function OutcomeTable({
  outcomes,
  caption = 'Resume outcome per agent',
}: {
  outcomes: ResumeOutcome[];
  caption?: string;
}) {
  return (
    <AgentOutcomes
      rows={outcomes}
      caption={caption}
      column="Outcome"
      cell={(o) => ({ text: `${o.outcome}${o.message ? `: ${o.message}` : ''}`, className: OUTCOME_CLASS[o.outcome] })}
    />
  );
}
