// One agent of the New run dialog: vendor, working directory, label, its isolation (the children: WorktreeFields),
// and its start progress or result.
import { useId, useState, type ReactNode } from 'react';
import type { VendorInfo } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { FolderBrowser } from './FolderBrowser.js';
import { CWD_RULE, LABEL_RULE } from './validate.js';
import type { WorktreeChoice } from './worktree-spec.js';
import './components.css';

export interface AgentRow {
  key: number;
  vendor: VendorName | '';
  cwd: string;
  label: string;
  worktree: WorktreeChoice;
  /** '' = this machine; else a host alias (docs/hosts.md). */
  host: string;
}

export type AgentRowField = 'vendor' | 'cwd' | 'label';
export type AgentRowErrors = Partial<Record<AgentRowField, string>>;

interface Props {
  index: number;
  row: AgentRow;
  /** Only the errors to show now (touched fields, or after Start). */
  errors: AgentRowErrors;
  vendors: VendorInfo[] | null;
  /** The hosts an agent can run on besides this machine (their aliases); none: the Host field is not shown. */
  hosts?: readonly string[];
  disabled: boolean;
  canRemove: boolean;
  status: ReactNode;
  /** What follows the three fields, full width: the isolation choice. */
  children?: ReactNode;
  onChange(patch: Partial<AgentRow>): void;
  onTouch(field: AgentRowField): void;
  onRemove(): void;
}

export function vendorOptionText(v: VendorInfo): string {
  if (!v.found) return `${v.displayName} (not installed)`;
  return v.version ? `${v.displayName} — ${v.version}` : v.displayName;
}

function Hint({ id, error, rule }: { id: string; error: string | undefined; rule?: string }) {
  return (
    <span id={id} className={error ? 'bt-field-error' : 'bt-field-hint'}>
      {error ?? rule ?? ''}
    </span>
  );
}

export function AgentRowFields({
  index,
  row,
  errors,
  vendors,
  hosts = [],
  disabled,
  canRemove,
  status,
  children,
  onChange,
  onTouch,
  onRemove,
}: Props) {
  const id = useId();
  const n = index + 1;
  const [browsing, setBrowsing] = useState(false);
  return (
    <fieldset className="bt-agent-row" data-agent-row={n}>
      <legend>Agent {n}</legend>
      <div className="bt-field">
        <label htmlFor={`${id}-vendor`}>Vendor</label>
        <select
          id={`${id}-vendor`}
          value={row.vendor}
          disabled={disabled}
          aria-invalid={errors.vendor ? true : undefined}
          aria-describedby={`${id}-vendor-hint`}
          onChange={(e) => {
            onChange({ vendor: e.target.value as VendorName });
            onTouch('vendor');
          }}
        >
          {row.vendor === '' ? (
            <option value="">{vendors ? 'Choose a vendor' : 'Detecting vendor CLIs…'}</option>
          ) : null}
          {(vendors ?? []).map((v) => (
            <option key={v.vendor} value={v.vendor} disabled={!v.found}>
              {vendorOptionText(v)}
            </option>
          ))}
        </select>
        <Hint
          id={`${id}-vendor-hint`}
          error={errors.vendor}
          rule={vendors?.find((v) => v.vendor === row.vendor)?.note ?? undefined}
        />
      </div>
      {hosts.length > 0 || row.host !== '' ? (
        <div className="bt-field">
          <label htmlFor={`${id}-host`}>Host</label>
          <select
            id={`${id}-host`}
            value={row.host}
            disabled={disabled}
            onChange={(e) => onChange({ host: e.target.value })}
          >
            <option value="">This machine</option>
            {[...new Set([...hosts, ...(row.host ? [row.host] : [])])].map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="bt-field bt-field-grow">
        <label htmlFor={`${id}-cwd`}>{row.host ? `Working directory on ${row.host}` : 'Working directory'}</label>
        <input
          id={`${id}-cwd`}
          className="bt-input bt-mono"
          value={row.cwd}
          disabled={disabled}
          placeholder="/home/you/project"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={errors.cwd ? true : undefined}
          aria-describedby={`${id}-cwd-hint`}
          onChange={(e) => {
            onChange({ cwd: e.target.value });
            // A relative path is wrong at once; other rules wait for the field to be left, then follow live.
            if (e.target.value !== '' && !e.target.value.startsWith('/')) onTouch('cwd');
          }}
          onBlur={() => onTouch('cwd')}
        />
        {window.baton && row.host === '' ? (
          <button
            type="button"
            className="bt-button"
            disabled={disabled}
            aria-label={`Choose the working directory of agent ${n}`}
            onClick={() => {
              // The desktop app's native folder picker; a web page has none, so there the field is typed.
              void window.baton?.pickDirectory(row.cwd || undefined).then((dir) => {
                if (dir) onChange({ cwd: dir });
                onTouch('cwd');
              });
            }}
          >
            Browse…
          </button>
        ) : (
          // A host's folders (or this machine's, in a web page): listed by that machine's own core.
          <button
            type="button"
            className="bt-button"
            disabled={disabled}
            aria-expanded={browsing}
            aria-label={`Browse folders ${row.host ? `on ${row.host} ` : ''}for agent ${n}`}
            onClick={() => setBrowsing(!browsing)}
          >
            Browse…
          </button>
        )}
        <Hint id={`${id}-cwd-hint`} error={errors.cwd} rule={CWD_RULE} />
        {browsing && !disabled ? (
          <FolderBrowser
            key={row.host}
            host={row.host}
            start={row.cwd}
            onPick={(dir) => {
              onChange({ cwd: dir });
              onTouch('cwd');
              setBrowsing(false);
            }}
            onClose={() => setBrowsing(false)}
          />
        ) : null}
      </div>
      <div className="bt-field">
        <label htmlFor={`${id}-label`}>Label</label>
        <input
          id={`${id}-label`}
          className="bt-input"
          value={row.label}
          disabled={disabled}
          placeholder="optional"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={errors.label ? true : undefined}
          aria-describedby={`${id}-label-hint`}
          onChange={(e) => {
            onChange({ label: e.target.value });
            onTouch('label');
          }}
        />
        <Hint id={`${id}-label-hint`} error={errors.label} rule={LABEL_RULE} />
      </div>
      <div className="bt-agent-row-end">
        {canRemove ? (
          <button
            type="button"
            className="bt-small-button"
            aria-label={`Remove agent ${n}`}
            disabled={disabled}
            onClick={onRemove}
          >
            Remove
          </button>
        ) : null}
        <span className="bt-agent-status" role="status">
          {status}
        </span>
      </div>
      {children}
    </fieldset>
  );
}
