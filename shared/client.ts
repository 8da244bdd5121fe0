// The one API every client uses (renderer, CLI, tests), and its implementation over any message wire.
import {
  BatonError,
  events as eventSchemas,
  requests,
  serverMessageSchema,
  type EventName,
  type EventPayload,
  type Method,
  type Params,
  type Result,
  type ServerMessage,
} from './contract.js';
import { AGENT_ID } from './words.js';

/** Live output of one agent's terminal, from an attach. */
export interface TerminalStreamHandlers {
  /** Bytes at [offset, offset + data.length). Call `ack` once they are in the view. */
  onData(data: Uint8Array, offset: number): void;
  /** Replace the view with this serialized screen; output continues from `offset`. */
  onReset(screen: string, offset: number, cols: number, rows: number): void;
}

export interface TerminalStream {
  readonly terminalId: string;
  /** Everything below `offset` has been written into the view (flow control). */
  ack(offset: number): void;
  detach(): void;
}

export interface AttachOptions {
  terminalId?: string;
  fromOffset?: number;
  visible?: boolean;
  /** Ack each chunk as soon as it arrives (scripts and tests); a pane acks after its terminal has drawn. */
  autoAck?: boolean;
}

export interface BatonClient {
  call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
  attach(agentId: string, options: AttachOptions, handlers: TerminalStreamHandlers): Promise<TerminalStream>;
  /** Called once when the connection is gone. */
  onClose(listener: (reason: string) => void): () => void;
  close(): void;
}

/**
 * The WebSocket subprotocols a browser offers: `baton.v1`, which the server selects, and the token. A page cannot set
 * headers on a WebSocket, and a token in the URL would reach logs and history; subprotocols are sent only to the
 * server the socket opens to. The token is base64url-encoded so that any BATON_TOKEN is a valid protocol name.
 */
export const WS_PROTOCOL = 'baton.v1';
export const WS_TOKEN_PREFIX = 'baton.token.';

export function tokenProtocols(token: string): string[] {
  const bytes = new TextEncoder().encode(token);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const encoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${encoded}`];
}

/** A bidirectional text-message channel: a WebSocket, a MessagePort, … */
export interface Wire {
  send(text: string): void;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: (reason: string) => void): void;
  close(): void;
}

interface Pending {
  method: Method;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface StreamState {
  terminalId: string;
  handlers: TerminalStreamHandlers;
  autoAck: boolean;
  /** Frames that arrive before the attach reply is processed. */
  early: ServerMessage[] | null;
}

export class RpcClient implements BatonClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: never) => void>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly streams = new Map<string, StreamState>();
  private closedReason: string | null = null;

  constructor(private readonly wire: Wire) {
    wire.onMessage((text) => this.receive(text));
    wire.onClose((reason) => this.closed(reason));
  }

  call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    if (this.closedReason !== null)
      return Promise.reject(new BatonError({ code: 'failed', message: `not connected: ${this.closedReason}` }));
    const checked = requests[method].params.safeParse(params);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const field = issue?.path.map(String).join('.') ?? '';
      return Promise.reject(
        new BatonError({
          code: 'invalid',
          message: `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`,
          ...(field ? { field } : {}),
        }),
      );
    }
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
      this.wire.send(JSON.stringify({ t: 'req', id, method, params }));
    });
  }

  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  onClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  async attach(agentId: string, options: AttachOptions, handlers: TerminalStreamHandlers): Promise<TerminalStream> {
    const state: StreamState = { terminalId: '', handlers, autoAck: options.autoAck ?? false, early: [] };
    this.streams.set(agentId, state);
    let result: Result<'agent.attach'>;
    try {
      result = await this.call('agent.attach', {
        agentId,
        ...(options.terminalId ? { terminalId: options.terminalId } : {}),
        ...(options.fromOffset !== undefined ? { fromOffset: options.fromOffset } : {}),
        ...(options.visible !== undefined ? { visible: options.visible } : {}),
      });
    } catch (err) {
      if (this.streams.get(agentId) === state) this.streams.delete(agentId);
      throw err;
    }
    state.terminalId = result.terminalId;
    const ack = (offset: number) =>
      this.wire.send(JSON.stringify({ t: 'ack', agentId, terminalId: state.terminalId, offset }));
    if (result.mode === 'bytes') {
      const data = decodeBase64(result.data);
      if (data.length > 0) handlers.onData(data, result.offset);
      if (state.autoAck) ack(result.offset + data.length);
    } else {
      handlers.onReset(result.screen, result.offset, result.cols, result.rows);
    }
    const early = state.early ?? [];
    state.early = null;
    for (const frame of early) this.deliver(state, frame, ack);
    return {
      terminalId: result.terminalId,
      ack,
      detach: () => {
        if (this.streams.get(agentId) !== state) return;
        this.streams.delete(agentId);
        void this.call('agent.detach', { agentId }).catch(() => undefined);
      },
    };
  }

  close(): void {
    this.wire.close();
    this.closed('closed by the client');
  }

  private receive(text: string): void {
    let message: ServerMessage;
    try {
      const raw: unknown = JSON.parse(text);
      // Output frames are most of the traffic: checked by hand (same rules as the schema), the rest by zod.
      message = isOutputFrame(raw) ? raw : serverMessageSchema.parse(raw);
    } catch {
      return; // A message we cannot read is dropped rather than trusted.
    }
    switch (message.t) {
      case 'res':
        return this.settle(message);
      case 'evt': {
        const schema = eventSchemas[message.name as EventName];
        if (!schema) return;
        const payload = schema.safeParse(message.payload);
        if (!payload.success) return;
        for (const listener of this.listeners.get(message.name) ?? []) (listener as (p: unknown) => void)(payload.data);
        return;
      }
      case 'out':
      case 'reset': {
        const state = this.streams.get(message.agentId);
        if (!state) return;
        if (state.early) state.early.push(message);
        else
          this.deliver(state, message, (offset) =>
            this.wire.send(
              JSON.stringify({ t: 'ack', agentId: message.agentId, terminalId: state.terminalId, offset }),
            ),
          );
      }
    }
  }

  private deliver(state: StreamState, frame: ServerMessage, ack: (offset: number) => void): void {
    if (frame.t === 'out') {
      if (frame.terminalId !== state.terminalId) return;
      const data = decodeBase64(frame.data);
      state.handlers.onData(data, frame.offset);
      if (state.autoAck) ack(frame.offset + data.length);
    } else if (frame.t === 'reset') {
      if (frame.terminalId !== state.terminalId) return;
      state.handlers.onReset(frame.screen, frame.offset, frame.cols, frame.rows);
      if (state.autoAck) ack(frame.offset);
    }
  }

  private settle(message: Extract<ServerMessage, { t: 'res' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (!message.ok) return pending.reject(new BatonError(message.error));
    const result = requests[pending.method].result.safeParse(message.result);
    if (!result.success)
      return pending.reject(
        new BatonError({ code: 'internal', message: `the core sent a malformed reply to ${pending.method}` }),
      );
    pending.resolve(result.data);
  }

  private closed(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    for (const p of this.pending.values())
      p.reject(new BatonError({ code: 'failed', message: `connection lost: ${reason}` }));
    this.pending.clear();
    this.streams.clear();
    for (const l of this.closeListeners) l(reason);
  }
}

export function decodeBase64(b64: string): Uint8Array {
  const NodeBuffer = (globalThis as { Buffer?: { from(s: string, enc: string): Uint8Array } }).Buffer;
  if (NodeBuffer) return NodeBuffer.from(b64, 'base64');
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (fromBase64) return fromBase64(b64);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const OUTPUT_KEYS = new Set(['t', 'agentId', 'terminalId', 'offset', 'data']);

/** The `out` frame of the contract, checked without zod on the hot path. */
function isOutputFrame(raw: unknown): raw is Extract<ServerMessage, { t: 'out' }> {
  if (typeof raw !== 'object' || raw === null) return false;
  const m = raw as Record<string, unknown>;
  return (
    m.t === 'out' &&
    typeof m.agentId === 'string' &&
    AGENT_ID.test(m.agentId) &&
    typeof m.terminalId === 'string' &&
    /^trm_[0-9a-z]{16}$/.test(m.terminalId) &&
    typeof m.offset === 'number' &&
    Number.isSafeInteger(m.offset) &&
    m.offset >= 0 &&
    typeof m.data === 'string' &&
    Object.keys(m).every((k) => OUTPUT_KEYS.has(k))
  );
}
