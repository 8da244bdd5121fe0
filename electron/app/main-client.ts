// Main's own connection to the core (core-link.ts), used for events only (never attaches to output), so main can
// notify about agents without a single terminal byte passing through it. Also a Wire over a MessagePortMain.
import type { MessagePortMain } from 'electron';
import type { FocusAgentMessage } from '../../shared/bridge-contract.js';
import type { RpcClient, Wire } from '../../shared/client.js';
import type { Attention } from './attention.js';

/** A Wire over an Electron MessagePortMain: JSON control messages as text, frames as ArrayBuffers (as the relay posts). */
export function portMainWire(port: Pick<MessagePortMain, 'on' | 'postMessage' | 'start' | 'close'>): Wire {
  return {
    send: (text) => port.postMessage(text),
    onMessage: (listener) => {
      port.on('message', (event) => {
        if (typeof event.data === 'string') listener(event.data);
        else if (event.data instanceof ArrayBuffer) listener(new Uint8Array(event.data));
      });
      port.start();
    },
    onClose: (listener) => {
      port.on('close', () => listener('the Baton core closed the port'));
    },
    close: () => port.close(),
  };
}

/**
 * Watches agents' status and attention state on main's own client for the badge and notifications. `open` shows the
 * window and takes the page to the agent a clicked notification was about.
 */
export function watchAgents(
  client: RpcClient,
  attention: Attention,
  open: (agent: FocusAgentMessage) => void = () => undefined,
): void {
  void client
    .call('attention.list', {})
    .then((list) => list.forEach((e) => attention.known(e.agentId, e.attention)))
    .catch(() => undefined); // An older core without attention: only exits are told.
  client.on('agent.state', ({ runId, agentId, attention: state }) => {
    void Promise.all([client.call('attention.list', {}), client.call('attention.settings', { run: runId })])
      .then(([list, settings]) => {
        const entry = list.find((e) => e.agentId === agentId);
        const ref = entry ?? { runId, runName: '', agentId, label: '' };
        attention.stateChanged(ref, state, settings, () => open({ runId, agentId }));
      })
      .catch(() => undefined); // Deleted meanwhile, or the core is going away.
  });
  client.on('agent.status', ({ runId, agentId, status, exitCode }) => {
    if (status !== 'exited' && status !== 'failed') return;
    void client
      .call('run.get', { run: runId })
      .then((run) => {
        const agent = run.agents.find((a) => a.id === agentId);
        if (agent) attention.agentEnded(run, agent, status, exitCode);
      })
      .catch(() => undefined); // Deleted meanwhile, or the core is going away: nothing to tell.
  });
}
