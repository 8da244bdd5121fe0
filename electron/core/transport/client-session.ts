// One connected client, whatever carries it (WebSocket, MessagePort): requests in, replies, events and output out.
// Nothing a client sends makes `receive` throw or reject: a request is answered (an error reply when it fails), and
// a message with no request id to answer is reported to the transport as a protocol error. Terminal bytes go out as
// binary output frames and keystrokes come in as binary input frames (shared/contract/frames.ts), by stream id.
import {
  BatonError,
  clientMessageSchema,
  describeIssue,
  events,
  outputFrame,
  readFrame,
  requests,
  type ClientMessage,
  type EventName,
  type Method,
  type Params,
  type Result,
  type ServerMessage,
  type WireError,
} from '../../../shared/contract.js';
import type { CoreHost, CoreMethod } from '../host.js';
import { FLOW } from '../pty/flow.js';
import type { Subscription } from '../pty/terminal.js';
import { reportFailure } from '../log.js';
import { InputAcks, inputSequencesOf } from './input-sequences.js';
import { attachTraceStart, traceAttach } from './attach-trace.js';

export interface Outbox {
  send(message: ServerMessage): void;
  /** A binary frame (frames.ts); the buffer is the transport's from here on (it may transfer it). */
  sendFrame(frame: Uint8Array): void;
  /** The client sent something no reply can answer; a transport that can say so (a close code) does. */
  protocolError?(reason: string): void;
}

/** One agent's output streaming to this client; `subscription` is null until its attach completes. */
interface Stream {
  agentId: string;
  /** The id the client gave in its attach; its output frames carry it and its input frames name it. */
  id: number;
  terminalId: string;
  subscription: Subscription | null;
  /** Its input frames are numbered on this channel (input-sequences.ts); null: plain input frames. */
  inputChannel: string | null;
}

export class ClientSession {
  private readonly streams = new Map<string, Stream>();
  /** The same streams by the client's stream id, for binary frames. */
  private readonly byId = new Map<number, Stream>();
  /** Other panes are paced while the user types into one (FLOW.pacedBudget); this timer ends it after the last key. */
  private pacing: NodeJS.Timeout | null = null;
  private readonly unlisten: (() => void)[] = [];
  private closed = false;
  private readonly inputAcks: InputAcks;

  constructor(
    private readonly core: CoreHost,
    private readonly out: Outbox,
  ) {
    this.inputAcks = new InputAcks((message) => this.push(message));
    for (const name of Object.keys(events) as EventName[]) {
      this.unlisten.push(core.service.on(name, (payload) => this.push({ t: 'evt', name, payload })));
    }
  }

  /** Takes one raw message; never throws, never rejects. */
  async receive(raw: string): Promise<void> {
    try {
      await this.handle(raw);
    } catch (err) {
      // Requests catch their own failures; this is a bug in the session itself, reported and survived.
      reportFailure('a client message', err);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const { subscription } of this.streams.values()) subscription?.close();
    this.streams.clear();
    this.byId.clear();
    if (this.pacing) clearTimeout(this.pacing);
    this.inputAcks.close();
    for (const off of this.unlisten) off();
  }

  /**
   * Takes one binary frame: an input frame types into its stream's terminal (fire and forget: no reply, no request
   * id). A malformed frame is a protocol error; an input frame for a stream this client no longer has (it just
   * detached) is dropped, as keys typed into a closed pane. Never throws.
   */
  receiveFrame(bytes: Uint8Array): void {
    if (this.closed) return;
    const read = readFrame(bytes);
    if (!read.ok) return this.protocolError(read.reason);
    if (read.frame.kind !== 'input') return this.protocolError('an output frame sent to the core');
    const stream = this.byId.get(read.frame.stream);
    if (!stream?.subscription) return;
    const { seq } = read.frame;
    if ((seq === null) !== (stream.inputChannel === null))
      return this.protocolError('numbered input on a stream without an input channel, or plain input on one with');
    if (seq !== null && stream.inputChannel !== null) {
      const sequences = inputSequencesOf(this.core);
      const fresh = sequences.take(stream.terminalId, stream.inputChannel, seq);
      this.inputAcks.written(stream.id, sequences.writtenOf(stream.terminalId, stream.inputChannel));
      // Already written (a re-send after a reconnect): typing it again would type it twice.
      if (!fresh) return;
    }
    const data = new TextDecoder('utf-8', { fatal: false }).decode(read.frame.data);
    if (data.length === 0) return;
    this.core.requests['agent.write']({ agentId: stream.agentId, data }).catch(() => undefined);
    this.paceOthers(stream);
  }

  /** The user types into `typing`: its echo should not queue in the page behind another pane's flood. */
  private paceOthers(typing: Stream): void {
    for (const s of this.streams.values()) s.subscription?.setPaced(s !== typing);
    if (this.pacing) clearTimeout(this.pacing);
    this.pacing = setTimeout(() => {
      this.pacing = null;
      for (const s of this.streams.values()) s.subscription?.setPaced(false);
    }, FLOW.pacedMs);
  }

  private async handle(raw: string): Promise<void> {
    if (this.closed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return this.protocolError('the message is not JSON');
    }
    const message = clientMessageSchema.safeParse(parsed);
    if (!message.success) {
      const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
      if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)
        return this.reply(id, { code: 'invalid', message: 'malformed message' });
      return this.protocolError('the message is neither a request with an id nor an ack');
    }
    if (message.data.t === 'ack') return this.ack(message.data);
    if (message.data.t === 'visibility') return this.visibility(message.data);
    if (message.data.t === 'flow') {
      for (const view of message.data.views) this.visibility(view);
      for (const ack of message.data.acks) this.ack(ack);
      return;
    }
    await this.request(message.data.id, message.data.method, message.data.params);
  }

  private ack(message: Omit<Extract<ClientMessage, { t: 'ack' }>, 't'>): void {
    const stream = this.streams.get(message.agentId);
    if (stream?.subscription && stream.terminalId === message.terminalId) stream.subscription.ack(message.offset);
  }

  /** The pane came into view (it gets the bandwidth and catches up) or left it (it gets nothing until shown). */
  private visibility(message: Omit<Extract<ClientMessage, { t: 'visibility' }>, 't'>): void {
    const stream = this.streams.get(message.agentId);
    if (stream?.subscription && stream.terminalId === message.terminalId)
      stream.subscription.setVisible(message.visible);
  }

  private async request(id: number, method: string, params: unknown): Promise<void> {
    if (!Object.hasOwn(requests, method))
      return this.reply(id, { code: 'invalid', message: `unknown method '${method.slice(0, 64)}'` });
    const m = method as Method;
    const checked = requests[m].params.safeParse(params ?? {});
    if (!checked.success) return this.reply(id, describeIssue(checked.error));
    const recv = attachTraceStart();
    try {
      // The params were just checked against the method's own schema: they are that method's.
      const result =
        m === 'agent.attach'
          ? await this.attach(checked.data as Params<'agent.attach'>)
          : m === 'agent.detach'
            ? this.detach((checked.data as Params<'agent.detach'>).agentId)
            : await this.answer(m, checked.data as Params<CoreMethod>);
      this.push({ t: 'res', id, ok: true, result });
      if (recv > 0 && m === 'agent.attach') traceAttach((checked.data as Params<'agent.attach'>).agentId, recv);
    } catch (err) {
      this.reply(id, toWireError(err, method));
    }
  }

  /** Any other request is the core's, answered under its own name (CoreHost.requests). */
  private answer<M extends CoreMethod>(method: M, params: Params<M>): Promise<Result<M>> {
    return this.core.requests[method](params);
  }

  private async attach(params: Params<'agent.attach'>) {
    const { agentId, stream: id } = params;
    this.detach(agentId);
    const taken = this.byId.get(id);
    if (taken)
      throw new BatonError({ code: 'conflict', message: `stream ${id} is in use by another attach`, field: 'stream' });
    const stream: Stream = {
      agentId,
      id,
      terminalId: '',
      subscription: null,
      inputChannel: params.inputChannel ?? null,
    };
    this.streams.set(agentId, stream);
    this.byId.set(id, stream);
    const current = () => !this.closed && this.streams.get(agentId) === stream;
    try {
      const attached = await this.core.service.attach(agentId, params, (frame) => {
        // After a detach (or a newer attach) nothing more of this stream goes out, even if a frame is in flight.
        if (!current()) return;
        if (frame.kind === 'bytes') this.pushFrame(outputFrame(id, frame.offset, frame.data));
        else
          this.push({
            t: 'reset',
            agentId,
            terminalId: stream.terminalId,
            offset: frame.offset,
            cols: frame.cols,
            rows: frame.rows,
            screen: frame.screen,
          });
      });
      if (!current()) {
        attached.subscription.close();
        throw new BatonError({ code: 'conflict', message: 'detached before the attach completed' });
      }
      stream.terminalId = attached.terminalId;
      stream.subscription = attached.subscription;
      const { start, terminalId } = attached;
      const input =
        stream.inputChannel === null
          ? {}
          : { inputWritten: inputSequencesOf(this.core).writtenOf(terminalId, stream.inputChannel) };
      if (start.mode === 'bytes') {
        // The catch-up goes as output frames ahead of the reply; the client holds them until the reply is read.
        if (start.data.length > 0) this.pushFrame(outputFrame(id, start.offset, start.data));
        return { mode: 'bytes' as const, terminalId, offset: start.offset, ...input };
      }
      return {
        mode: 'reset' as const,
        terminalId,
        offset: start.offset,
        cols: start.cols,
        rows: start.rows,
        screen: start.screen,
        ...input,
      };
    } catch (err) {
      if (this.streams.get(agentId) === stream) this.streams.delete(agentId);
      if (this.byId.get(id) === stream) this.byId.delete(id);
      throw err;
    }
  }

  /** Stops this client's stream of the agent's output (the terminal and other clients carry on). */
  private detach(agentId: string): Record<string, never> {
    const stream = this.streams.get(agentId);
    if (!stream) return {};
    stream.subscription?.close();
    this.streams.delete(agentId);
    if (this.byId.get(stream.id) === stream) this.byId.delete(stream.id);
    return {};
  }

  private reply(id: number, error: WireError): void {
    this.push({ t: 'res', id, ok: false, error });
  }

  private protocolError(reason: string): void {
    this.out.protocolError?.(reason);
  }

  private pushFrame(frame: Uint8Array): void {
    if (this.closed) return;
    try {
      this.out.sendFrame(frame);
    } catch (err) {
      reportFailure('sending to a client', err);
    }
  }

  /** A failing transport must not throw into the core's event emitters or a request's error path. */
  private push(message: ServerMessage): void {
    if (this.closed) return;
    try {
      this.out.send(message);
    } catch (err) {
      reportFailure('sending to a client', err);
    }
  }
}

function toWireError(err: unknown, method: string): WireError {
  if (err instanceof BatonError) return err.toWire();
  // Internal failures are reported by kind only: their messages may carry paths or values from a request.
  reportFailure(`request ${method}`, err);
  return { code: 'internal', message: 'internal error in the Baton core (see its log)' };
}
