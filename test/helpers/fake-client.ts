// A page's client without a core, for the renderer's state tests: `call` answers as the test says, and the test fires
// the events the page listens to. Terminals are not served here.
import type { BatonClient } from '../../shared/client.js';
import type { EventName, EventPayload, Method, Params, Result } from '../../shared/contract.js';

export interface FakeClient {
  client: BatonClient;
  fire<E extends EventName>(name: E, payload: EventPayload<E>): void;
}

export function fakeClient(call: <M extends Method>(method: M, params: Params<M>) => Promise<Result<M>>): FakeClient {
  const listeners = new Map<string, ((p: unknown) => void)[]>();
  const client: BatonClient = {
    call,
    on: <E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void) => {
      listeners.set(name, [...(listeners.get(name) ?? []), listener as (p: unknown) => void]);
      return () => undefined;
    },
    attach: () => Promise.reject(new Error('no terminals here')),
    onClose: () => () => undefined,
    close: () => undefined,
  };
  const fire = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    for (const l of listeners.get(name) ?? []) l(payload);
  };
  return { client, fire };
}
