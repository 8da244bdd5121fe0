// Hosts: this machine, the hosts of the user's ssh config and the ones added, each with its state (connected,
// connecting — with the install step under way —, unreachable with ssh's own error, needs setup), a Connect button
// (which installs Baton's core there on first use) and a field to add user@host[:port] (docs/hosts.md).
import { useEffect, useId, useState, type FormEvent } from 'react';
import { HOST_ALIAS, type HostView } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { Dialog } from './Dialog.js';
import { errorMessage } from './format.js';
import './components.css';

const STATE_TEXT: Record<HostView['state'], string> = {
  local: 'this machine',
  idle: 'not connected',
  connecting: 'connecting…',
  connected: 'connected',
  unreachable: 'unreachable',
  'needs-setup': 'needs setup',
};

const STATE_CLASS: Partial<Record<HostView['state'], string>> = {
  connected: 'bt-ok-text',
  unreachable: 'bt-danger-text',
  'needs-setup': 'bt-warn-text',
};

export function HostsDialog() {
  const hosts = useBaton((s) => s.hosts);
  const refreshHosts = useBaton((s) => s.refreshHosts);
  const connectHost = useBaton((s) => s.connectHost);
  const addHost = useBaton((s) => s.addHost);
  const openDialog = useBaton((s) => s.openDialog);
  const connected = useBaton((s) => s.status === 'connected');
  const id = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (connected) refreshHosts().catch((err: unknown) => setError(errorMessage(err)));
  }, [connected, refreshHosts]);

  const draftError = draft === '' || HOST_ALIAS.test(draft) ? null : 'An ssh alias or user@host[:port]';
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (draft === '' || draftError) return;
    try {
      await addHost(draft);
      setDraft('');
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const connect = (alias: string) => {
    setError(null);
    connectHost(alias).catch((err: unknown) => setError(errorMessage(err)));
  };

  return (
    <Dialog
      title="Hosts"
      wide
      onClose={() => openDialog(null)}
      footer={
        <button type="button" className="bt-button" onClick={() => openDialog(null)}>
          Close
        </button>
      }
    >
      <p className="bt-muted">
        Agents run on this machine or on a host you reach with your own ssh (your keys, agent, ProxyJump and
        known_hosts). The first connection installs Baton’s core there; Node 20 or later must be installed on it.
      </p>
      {hosts === null ? (
        <p role="status">Loading hosts…</p>
      ) : (
        <div className="bt-table-wrap">
          <table className="bt-table" aria-label="Hosts" data-testid="hosts-table">
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Reaches</th>
                <th scope="col">State</th>
                <th scope="col">Live agents</th>
                <th scope="col">
                  <span className="bt-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {hosts.map((h) => (
                <tr key={h.alias ?? ''} data-host={h.alias ?? 'local'}>
                  <td className="bt-mono">{h.alias ?? 'This machine'}</td>
                  <td className="bt-mono">{h.target ?? '—'}</td>
                  <td>
                    <span className={STATE_CLASS[h.state]}>{STATE_TEXT[h.state]}</span>
                    {h.message ? <div className="bt-field-hint">{h.message}</div> : null}
                  </td>
                  <td>{h.liveAgents}</td>
                  <td>
                    {h.alias !== null && h.state !== 'connected' ? (
                      <button
                        type="button"
                        className="bt-small-button"
                        disabled={h.state === 'connecting' || !connected}
                        aria-label={`Connect to ${h.alias}`}
                        onClick={() => connect(h.alias!)}
                      >
                        {h.state === 'unreachable' || h.state === 'needs-setup' ? 'Retry' : 'Connect'}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="bt-row bt-gap" onSubmit={(e) => void add(e)}>
        <div className="bt-field bt-field-grow">
          <label htmlFor={`${id}-host`}>Add a host</label>
          <input
            id={`${id}-host`}
            className="bt-input bt-mono"
            value={draft}
            placeholder="you@devbox.example.com:22"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={draftError ? true : undefined}
            aria-describedby={`${id}-host-hint`}
            onChange={(e) => setDraft(e.target.value.trim())}
          />
          <span id={`${id}-host-hint`} className={draftError ? 'bt-field-error' : 'bt-field-hint'}>
            {draftError ?? 'An alias of your ~/.ssh/config, or user@host[:port]'}
          </span>
        </div>
        <button type="submit" className="bt-button" disabled={draft === '' || draftError !== null || !connected}>
          Add
        </button>
      </form>
      {error ? (
        <p className="bt-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
