// In the resume preview, for a handle whose agents run on other hosts: per host alias of the handle, the alias that
// reaches the same machine from here (like the repository mapping). Every agent of that alias follows (`hostMap`),
// and the preview is asked again with it (docs/hosts.md).
import { useId } from 'react';
import { HOST_ALIAS } from '../../shared/contract.js';
import { decodedHandleAgents } from './handle-repos.js';
import './components.css';

/** The host aliases a handle's agents carry, in order, each once; [] for anything unreadable. */
export function handleHosts(handle: string): string[] {
  const hosts = decodedHandleAgents(handle).map((a) => {
    const host = typeof a === 'object' && a !== null ? (a as { host?: unknown }).host : undefined;
    return typeof host === 'string' ? host : null;
  });
  return [...new Set(hosts.filter((h): h is string => h !== null))];
}

/** The `hostMap` param: only entries that are host aliases and differ from the handle's. */
export function usableHostMap(mapped: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [from, to] of Object.entries(mapped)) if (to !== '' && to !== from && HOST_ALIAS.test(to)) out[from] = to;
  return out;
}

interface Props {
  hosts: readonly string[];
  mapped: Readonly<Record<string, string>>;
  disabled: boolean;
  onChange(host: string, to: string): void;
}

export function HostMapFields({ hosts, mapped, disabled, onChange }: Props) {
  const id = useId();
  if (hosts.length === 0) return null;
  return (
    <fieldset className="bt-repo-map">
      <legend>Hosts</legend>
      <p className="bt-field-hint">
        Agents of this handle run on other hosts. If a host has another name here (another alias of your ssh config),
        give it: every agent of that host follows, and the preview is checked again.
      </p>
      {hosts.map((host, i) => {
        const value = mapped[host] ?? '';
        const problem = value === '' || HOST_ALIAS.test(value) ? null : 'An ssh alias or user@host[:port]';
        return (
          <div key={host} className="bt-field">
            <label htmlFor={`${id}-${i}`}>
              <span className="bt-mono">{host}</span> is reached here as
            </label>
            <input
              id={`${id}-${i}`}
              className="bt-input bt-mono"
              value={value}
              placeholder={host}
              disabled={disabled}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              onChange={(e) => onChange(host, e.target.value.trim())}
            />
            {problem ? <span className="bt-field-error">{problem}</span> : null}
          </div>
        );
      })}
    </fieldset>
  );
}
