// A client's flow-control messages of one task, sent together: acks (what each pane has written) and visibility (a
// pane came into view or left it). A switch of runs hides ten panes and shows ten: twenty messages, twenty sends on
// the page's socket and twenty messages for the core to parse (docs/performance.md, "One message for a switch's
// panes"). A core speaking protocol 9 reads them as one `flow` message; an older core gets each on its own.

/** Where a stream's flow goes: its agent and terminal, or null once the stream is gone (nothing is sent for it). */
export type FlowTarget = { readonly agentId: string; readonly terminalId: string } | null;

/** At most this many entries of each kind in one `flow` message (the core's schema caps it: contract/wire.ts). */
export const FLOW_BATCH_MAX = 512;

/**
 * How long an ack that nothing waits for (a hidden pane's: the core sends it a little at most every 500 ms) may wait
 * for others: the ninety hidden panes of a hundred printing agents acked each of their frames in a message of its own,
 * about ninety messages a second (docs/performance.md, flow13).
 */
export const LATER_ACK_MS = 100;

/** The first protocol whose core reads `flow` messages (contract/core.ts). */
export const FLOW_PROTOCOL = 9;

export class FlowBatch<S> {
  private readonly acks = new Map<S, number>();
  private readonly views = new Map<S, boolean>();
  private queued = false;
  private later: ReturnType<typeof setTimeout> | null = null;
  private batched = false;

  /** `target` says where a stream's entries go when they are sent; `send` writes one text message. */
  constructor(
    private readonly target: (stream: S) => FlowTarget,
    private readonly send: (text: string) => void,
  ) {}

  /** The core's protocol version (its `core.info`): from 9 on, one message carries a task's entries. */
  peerSpeaks(protocolVersion: number): void {
    this.batched = protocolVersion >= FLOW_PROTOCOL;
  }

  /** `stream` has written everything below `offset`; only the highest offset of a task is sent. */
  ack(stream: S, offset: number): void {
    if (this.acked(stream, offset)) this.queue();
  }

  /**
   * As `ack`, but it may wait up to LATER_ACK_MS and go with the acks and visibility changes of other tasks (sent
   * with the next message of any kind, or at that time).
   */
  ackLater(stream: S, offset: number): void {
    if (this.acked(stream, offset)) this.later ??= setTimeout(() => this.flush(), LATER_ACK_MS);
  }

  /** Records `offset` as `stream`'s ack to send; false if one as high is already waiting. */
  private acked(stream: S, offset: number): boolean {
    if (offset <= (this.acks.get(stream) ?? -1)) return false;
    this.acks.set(stream, offset);
    return true;
  }

  /** `stream`'s pane came into view or left it; only its last change in a task is sent. */
  view(stream: S, visible: boolean): void {
    this.views.delete(stream); // re-inserted: the entries keep the order of their last change
    this.views.set(stream, visible);
    this.queue();
  }

  private queue(): void {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => this.flush());
  }

  /** Visibility first: a pane shown gets its bandwidth before the acks of the same task are counted. */
  private flush(): void {
    this.queued = false;
    if (this.later !== null) clearTimeout(this.later);
    this.later = null;
    const views = entries(this.views, this.target, (t, visible) => ({ ...t, visible }));
    const acks = entries(this.acks, this.target, (t, offset) => ({ ...t, offset }));
    this.views.clear();
    this.acks.clear();
    if (!this.batched) {
      for (const v of views) this.send(JSON.stringify({ t: 'visibility', ...v }));
      for (const a of acks) this.send(JSON.stringify({ t: 'ack', ...a }));
      return;
    }
    for (let at = 0; at < Math.max(views.length, acks.length); at += FLOW_BATCH_MAX)
      this.send(
        JSON.stringify({
          t: 'flow',
          views: views.slice(at, at + FLOW_BATCH_MAX),
          acks: acks.slice(at, at + FLOW_BATCH_MAX),
        }),
      );
  }
}

function entries<S, V, E>(
  from: Map<S, V>,
  target: (stream: S) => FlowTarget,
  entry: (t: { agentId: string; terminalId: string }, value: V) => E,
): E[] {
  const out: E[] = [];
  for (const [stream, value] of from) {
    const t = target(stream);
    if (t) out.push(entry({ agentId: t.agentId, terminalId: t.terminalId }, value));
  }
  return out;
}
