// A bare WebSocket speaking the wire protocol, so requests reach the server even when the client library would
// refuse them locally: what the server itself does with bad input is what these tests check.
import WebSocket from 'ws';
import type { WireError } from '../../shared/contract.js';
import type { ServerProcess } from './server.js';

export interface RawReply {
  ok: boolean;
  result?: unknown;
  error?: WireError;
}

export class RawConnection {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: RawReply) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as RawReply & { t: string; id?: number };
      if (m.t === 'res' && m.id !== undefined) this.waiting.get(m.id)?.(m);
    });
  }

  static open(server: ServerProcess): Promise<RawConnection> {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws`, {
      headers: { Authorization: `Bearer ${server.token}` },
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawConnection(ws)));
      ws.once('error', reject);
    });
  }

  call(method: string, params: unknown): Promise<RawReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ t: 'req', id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}
