// What a resume (or an adoption) did, per agent: resumed, fresh with its warning, or failed with its reason.
import type { ResumeOutcome } from '../../shared/contract.js';

const OUTCOME_CLASS: Record<ResumeOutcome['outcome'], string> = {
  resumed: 'bt-ok-text',
  fresh: 'bt-warn-text',
  failed: 'bt-danger-text',
};

export function OutcomeTable({
  outcomes,
  caption = 'Resume outcome per agent',
}: {
  outcomes: ResumeOutcome[];
  caption?: string;
}) {
  return (
    <div className="bt-table-wrap" role="status">
      <table className="bt-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Vendor</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {outcomes.map((o) => (
            <tr key={o.agentId}>
              <th scope="row">{o.label}</th>
              <td>{o.vendor}</td>
              <td className={OUTCOME_CLASS[o.outcome]}>
                {o.outcome}
                {o.message ? `: ${o.message}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
