// opencode's event stream as Baton follows it (electron/core/vendors/opencode/attention.ts, server.ts): the real
// 1.18.33 takes connections on its port while it starts and never answers a stream asked for then; the watch must
// drop that request and ask again, or the agent's state never changes (seen with the real CLI in the compat suite).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { StateSignal } from '../../electron/core/attention/signals.js';
import { OPENCODE_ATTENTION } from '../../electron/core/vendors/opencode/attention.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

describe('opencode: following its event stream', () => {
  it('asks again when the server took the stream request but never answered it', async () => {
    const held: ServerResponse[] = [];
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      // The first request, made "while it starts", is held forever, as the real CLI does.
      if (requests === 1) return void held.push(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const status = { type: 'session.status', properties: { sessionID: 's', status: { type: 'busy' } } };
      res.write(`data: ${JSON.stringify(status)}\n\n`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    cleanups.push(() => {
      held.forEach((r) => r.destroy());
      server.closeAllConnections();
      server.close();
    });
    const port = String((server.address() as AddressInfo).port);
    const seen: StateSignal[] = [];
    const stop = OPENCODE_ATTENTION.watch!({ port }, {}, (s) => seen.push(s));
    cleanups.push(stop);
    const deadline = Date.now() + 15_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(seen[0]).toEqual({ state: 'working' });
    expect(requests).toBeGreaterThanOrEqual(2);
  }, 20_000);
});
