// The one API every client uses (renderer, CLI, tests), and its implementation over any message wire.
import {
  BatonError,
  events as eventSchemas,
  inputFrame,
  numberedInputFrame,
  quickResultChecks,
  readFrame,
  requests,
  serverMessageSchema,
  type EventName,
  type EventPayload,
  type Method,
  type Params,
  type Result,
  type ServerMessage,
} from './contract.js';
import { inputPieces, type InputLedger, type InputSender } from './input-ledger.js';
import { FlowBatch } from './flow-batch.js';

/** Live output of one agent's terminal, from an attach. */
export interface TerminalStreamHandlers {
  /** Bytes at [offset, offset + data.length). Call `ack` once they are in the view. */
  onData(data: Uint8Array, offset: number): void;
  /** Replace the view with this serialized screen; output continues from `offset`. */
  onReset(screen: string, offset: number, cols: number, rows: number): void;
}

export interface TerminalStream {
  readonly terminalId: string;
  /** Everything below `offset` has been written into the view (flow control); acks are batched per task. */
  ack(offset: number): void;
  /** An ack nothing waits for (a hidden pane's): it may wait a little, to go in one message with others. */
  ackLater(offset: number): void;
  /** Types into the terminal: a fire-and-forget input frame, no request and no reply. */
  input(data: string): void;
  /** The pane came into view (it gets the bandwidth and catches up) or left it (the core sends it nothing meanwhile). */
  setVisible(visible: boolean): void;
  detach(): void;
}

export interface AttachOptions {
  terminalId?: string;
  fromOffset?: number;
  visible?: boolean;
  /** 'core' when the receiver is another core that acks on receipt: it gets a larger flow window (FLOW.coreBudget). */
  consumer?: 'pane' | 'core';
  /** Ack each chunk as soon as it arrives (scripts and tests); a pane acks after its terminal has drawn. */
  autoAck?: boolean;
  /** Lines of history a reset carries at most (the screen first; the rest when the user scrolls into it). */
  scrollback?: number;
  /**
   * Input typed on this stream goes through this ledger (input-ledger.ts): numbered, kept until the core confirms it,
   * and re-sent from what the core has written when a later attach binds the same ledger.
   */
  input?: InputLedger;
}

export interface BatonClient {
  call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
  attach(agentId: string, options: AttachOptions, handlers: TerminalStreamHandlers): Promise<TerminalStream>;
  /** Called once when the connection is gone. */
  onClose(listener: (reason: string) => void): () => void;
  close(): void;
}

// The socket's subprotocols live apart from the client (the page opens its socket before the client's code runs).
export { tokenProtocols, WS_PROTOCOL, WS_TOKEN_PREFIX } from './ws-protocol.js';

/**
 * A bidirectional message channel: a WebSocket, a MessagePort, … Text is a JSON control message; bytes are a binary
 * frame (shared/contract/frames.ts), whose buffer the wire may transfer (the sender never touches it again).
 */
export interface Wire {
  send(data: string | Uint8Array): void;
  onMessage(listener: (data: string | Uint8Array) => void): void;
  onClose(listener: (reason: string) => void): void;
  close(): void;
}

interface Pending {
  method: Method;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

type StreamFrame = { kind: 'bytes'; offset: number; data: Uint8Array } | Extract<ServerMessage, { t: 'reset' }>;

interface StreamState {
  agentId: string;
  /** The id its output frames carry. */
  id: number;
  terminalId: string;
  handlers: TerminalStreamHandlers;
  autoAck: boolean;
  /** Frames that arrive before the attach reply is processed. */
  early: StreamFrame[] | null;
  ledger: InputLedger | null;
  /** This stream's sender, bound to the ledger once the attach reply said what the core has written. */
  sendInput: InputSender | null;
}

export class RpcClient implements BatonClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: never) => void>>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly streams = new Map<string, StreamState>();
  private readonly byId = new Map<number, StreamState>();
  private nextStream = 1;
  /** Acks and visibility changes, sent at the end of the task (one message to a core speaking protocol 9). */
  private readonly flow = new FlowBatch<StreamState>(
    (s) => (this.live(s) ? s : null),
    (text) => this.wire.send(text),
  );
  private readonly encoder = new TextEncoder();
  private closedReason: string | null = null;

  constructor(private readonly wire: Wire) {
    wire.onMessage((data) => (typeof data === 'string' ? this.receive(data) : this.receiveFrame(data)));
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

  /**
   * The reply to a request written on this wire before this client took it over (a page's first list, asked while its
   * script was loading): `id` must be below the ids this client gives. Read and checked as any reply is.
   */
  expectReply<M extends Method>(id: number, method: M): Promise<Result<M>> {
    if (id >= this.nextId || this.pending.has(id))
      return Promise.reject(new BatonError({ code: 'internal', message: `request id ${id} is this client's` }));
    return new Promise<Result<M>>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject });
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
    const id = this.nextStream++;
    const state: StreamState = {
      agentId,
      id,
      terminalId: '',
      handlers,
      autoAck: options.autoAck ?? false,
      early: [],
      ledger: options.input ?? null,
      sendInput: null,
    };
    this.forget(this.streams.get(agentId));
    this.streams.set(agentId, state);
    this.byId.set(id, state);
    let result: Result<'agent.attach'>;
    try {
      result = await this.call('agent.attach', {
        agentId,
        stream: id,
        ...(options.terminalId ? { terminalId: options.terminalId } : {}),
        ...(options.fromOffset !== undefined ? { fromOffset: options.fromOffset } : {}),
        ...(options.visible !== undefined ? { visible: options.visible } : {}),
        ...(options.consumer ? { consumer: options.consumer } : {}),
        ...(options.scrollback !== undefined ? { scrollback: options.scrollback } : {}),
        ...(options.input ? { inputChannel: options.input.channel } : {}),
      });
    } catch (err) {
      this.forget(state);
      throw err;
    }
    state.terminalId = result.terminalId;
    if (result.mode === 'reset') handlers.onReset(result.screen, result.offset, result.cols, result.rows);
    // In bytes mode the catch-up came as output frames ahead of the reply: they are among the early ones.
    const early = state.early ?? [];
    state.early = null;
    for (const frame of early) this.deliver(state, frame);
    if (state.ledger && this.streams.get(agentId) === state) {
      state.sendInput = (input) => {
        if (this.live(state)) this.wire.send(numberedInputFrame(id, input.seq, input.data));
      };
      state.ledger.bind(result.inputWritten ?? 0, state.sendInput);
    }
    return {
      terminalId: result.terminalId,
      ack: (offset) => this.flow.ack(state, offset),
      ackLater: (offset) => this.flow.ackLater(state, offset),
      input: (data) => {
        if (state.ledger) return state.ledger.type(data);
        if (!this.live(state)) return;
        for (const piece of inputPieces(data)) this.wire.send(inputFrame(id, this.encoder.encode(piece)));
      },
      setVisible: (visible) => {
        this.flow.view(state, visible); // dropped at the task's end if the stream is gone by then
      },
      detach: () => {
        if (this.streams.get(agentId) !== state) return;
        this.forget(state);
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
      message = serverMessageSchema.parse(JSON.parse(text));
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
      case 'inputAck':
        return this.byId.get(message.stream)?.ledger?.acknowledge(message.seq);
      case 'reset': {
        const state = this.streams.get(message.agentId);
        if (!state) return;
        if (state.early) state.early.push(message);
        else this.deliver(state, message);
      }
    }
  }

  /** An output frame, by its stream id; a malformed frame or one of a stream this client no longer has is dropped. */
  private receiveFrame(bytes: Uint8Array): void {
    const read = readFrame(bytes);
    if (!read.ok || read.frame.kind !== 'output') return;
    const state = this.byId.get(read.frame.stream);
    if (!state) return;
    const frame = { kind: 'bytes' as const, offset: read.frame.offset, data: read.frame.data };
    if (state.early) state.early.push(frame);
    else this.deliver(state, frame);
  }

  private deliver(state: StreamState, frame: StreamFrame): void {
    if ('kind' in frame) {
      state.handlers.onData(frame.data, frame.offset);
      if (state.autoAck) this.flow.ack(state, frame.offset + frame.data.length);
    } else {
      if (frame.terminalId !== state.terminalId) return;
      state.handlers.onReset(frame.screen, frame.offset, frame.cols, frame.rows);
      if (state.autoAck) this.flow.ack(state, frame.offset);
    }
  }

  /** The stream is this client's current one for its agent, on an open connection. */
  private live(state: StreamState): boolean {
    return this.streams.get(state.agentId) === state && this.closedReason === null;
  }

  private forget(state: StreamState | undefined): void {
    if (!state) return;
    if (this.streams.get(state.agentId) === state) this.streams.delete(state.agentId);
    if (this.byId.get(state.id) === state) this.byId.delete(state.id);
    if (state.sendInput) state.ledger?.unbind(state.sendInput);
  }

  private settle(message: Extract<ServerMessage, { t: 'res' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (!message.ok) return pending.reject(new BatonError(message.error));
    // Whoever asks the core's version (the page does after every connect) tells this client which messages it reads.
    if (pending.method === 'core.info') {
      const info = requests['core.info'].result.safeParse(message.result);
      if (info.success) this.flow.peerSpeaks(info.data.protocolVersion);
    }
    // A long history's answer is checked by its quick check first (contract/quick-checks.ts); zod decides otherwise.
    if (quickResultChecks[pending.method]?.(message.result)) return pending.resolve(message.result);
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
    for (const state of this.streams.values()) if (state.sendInput) state.ledger?.unbind(state.sendInput);
    this.streams.clear();
    this.byId.clear();
    for (const l of this.closeListeners) l(reason);
  }
}
