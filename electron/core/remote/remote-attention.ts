// A remote agent's attention state from its own host (docs/hosts.md, docs/attention.md): its vendor's hooks report to
// the core on that host, which knows the agent's state first-hand. This side relays that core's `agent.state` for the
// remote agent to the local one, and reads it again after a dropped connection (events sent meanwhile are lost). A
// host whose core has no attention (`attention.list` unknown there) is not followed: the local core then reads the
// agent's state from its screen, as for a vendor without signals.
import type { AgentAttention } from '../../../shared/contract.js';
import { reportFailure } from '../log.js';
import type { RemoteCore } from './remote-core.js';

export type RemoteCoreEvents = Pick<RemoteCore, 'call' | 'on' | 'onReconnect'>;

/**
 * Follows the remote agent's state: `onState` gets its state now, then each change its host's core announces. Returns
 * the function that stops following, or null when that core cannot say (an older core, or the agent has ended
 * there): the caller keeps inferring the state locally.
 */
export async function followRemoteAttention(
  core: RemoteCoreEvents,
  remoteAgentId: string,
  onState: (attention: AgentAttention) => void,
): Promise<(() => void) | null> {
  const current = async (): Promise<AgentAttention | null> =>
    (await core.call('attention.list', {})).find((e) => e.agentId === remoteAgentId)?.attention ?? null;
  let stopped = false;
  let announced = false;
  // Listening first: a change announced while the current state is asked for is newer than the answer.
  const offState = core.on('agent.state', (e) => {
    if (stopped || e.agentId !== remoteAgentId) return;
    announced = true;
    onState(e.attention);
  });
  const offReconnect = core.onReconnect(() => {
    current()
      .then((attention) => !stopped && attention && onState(attention))
      .catch((err: unknown) => reportFailure('reading a remote agent’s state after a reconnect', err));
  });
  const stop = () => {
    stopped = true;
    offState();
    offReconnect();
  };
  const initial = await current().catch(() => null);
  if (!initial) {
    stop();
    return null;
  }
  if (!announced) onState(initial);
  return stop;
}
