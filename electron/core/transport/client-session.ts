// One connected client, whatever carries it (WebSocket, MessagePort): requests in, replies, events and output out.
import {
  BatonError,
  clientMessageSchema,
  describeIssue,
  events,
  requests,
  type ClientMessage,
  type EventName,
  type Method,
  type ServerMessage,
  type WireError,
} from '../../../shared/contract.js';
import type { CoreHost } from '../host.js';
import type { Subscription } from '../pty/terminal.js';
import { handlers } from './handlers.js';

export interface Outbox {
  send(message: ServerMessage): void;
}

export class ClientSession {
  private readonly subscriptions = new Map<string, { terminalId: string; subscription: Subscription }>();
  private readonly unlisten: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly core: CoreHost,
    private readonly out: Outbox,
  ) {
    for (const name of Object.keys(events) as EventName[]) {
      this.unlisten.push(core.service.on(name, (payload) => this.out.send({ t: 'evt', name, payload })));
    }
  }

  /** Takes one raw message; anything malformed is answered with an error, never thrown. */
  async receive(raw: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return; // Not even JSON: there is no request id to answer.
    }
    const message = clientMessageSchema.safeParse(parsed);
    if (!message.success) {
      const id = (parsed as { id?: unknown }).id;
      if (typeof id === 'number') this.reply(id, { code: 'invalid', message: 'malformed message' });
      return;
    }
    if (message.data.t === 'ack') return this.ack(message.data);
    await this.request(message.data.id, message.data.method, message.data.params);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const { subscription } of this.subscriptions.values()) subscription.close();
    this.subscriptions.clear();
    for (const off of this.unlisten) off();
  }

  private ack(message: Extract<ClientMessage, { t: 'ack' }>): void {
    const sub = this.subscriptions.get(message.agentId);
    if (sub && sub.terminalId === message.terminalId) sub.subscription.ack(message.offset);
  }

  private async request(id: number, method: string, params: unknown): Promise<void> {
    if (!Object.hasOwn(requests, method)) return this.reply(id, { code: 'invalid', message: `unknown method '${method.slice(0, 64)}'` });
    const m = method as Method;
    const checked = requests[m].params.safeParse(params ?? {});
    if (!checked.success) return this.reply(id, describeIssue(checked.error));
    try {
      const result = m === 'agent.attach' ? await this.attach(checked.data as never) : await handlers[m](this.core, checked.data as never);
      if (!this.closed) this.out.send({ t: 'res', id, ok: true, result });
    } catch (err) {
      this.reply(id, toWireError(err));
    }
  }

  private async attach(params: { agentId: string; terminalId?: string; fromOffset?: number; visible?: boolean }) {
    this.subscriptions.get(params.agentId)?.subscription.close();
    this.subscriptions.delete(params.agentId);
    let terminalId = '';
    const { start, subscription, terminalId: current } = await this.core.service.attach(params.agentId, params, (frame) => {
      if (this.closed) return;
      if (frame.kind === 'bytes') {
        this.out.send({ t: 'out', agentId: params.agentId, terminalId, offset: frame.offset, data: frame.data.toString('base64') });
      } else {
        this.out.send({ t: 'reset', agentId: params.agentId, terminalId, offset: frame.offset, cols: frame.cols, rows: frame.rows, screen: frame.screen });
      }
    });
    terminalId = current;
    this.subscriptions.set(params.agentId, { terminalId, subscription });
    if (start.mode === 'bytes') return { mode: 'bytes' as const, terminalId, offset: start.offset, data: start.data.toString('base64') };
    return { mode: 'reset' as const, terminalId, offset: start.offset, cols: start.cols, rows: start.rows, screen: start.screen };
  }

  private reply(id: number, error: WireError): void {
    if (!this.closed) this.out.send({ t: 'res', id, ok: false, error });
  }
}

function toWireError(err: unknown): WireError {
  if (err instanceof BatonError) return err.toWire();
  // Internal failures are reported by kind only: their messages may carry paths or values from a request.
  process.stderr.write(`baton: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  return { code: 'internal', message: 'internal error in the Baton core (see its log)' };
}
