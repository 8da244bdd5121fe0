// Opening a run's new xterms one per task (docs/performance.md, "First visits"). Opening an xterm costs tens of
// milliseconds (its DOM, its first layouts and measures), and a run of ten new panes opened in the task that shows the
// run held the page for hundreds: every other pane's output and every keystroke waited. Queued here, each opens in a
// task of its own, panes in view before panes loaded ahead, in the order they were asked for; between two the page
// paints, parses output and takes input. A pane asked for synchronously (getPane) opens at once and leaves the queue.

/** Opens the agent's pane (a no-op if it is open already). */
export type OpenPane = (agentId: string) => void;

export class PaneOpener {
  /** Panes to show, then panes loaded ahead; each in the order asked. */
  private readonly shown: string[] = [];
  private readonly ahead: string[] = [];
  private scheduled = false;

  constructor(
    private readonly open: OpenPane,
    private readonly yieldTask: (next: () => void) => void = nextTask,
  ) {}

  /** Queues the agent's pane; `show`: it is wanted in view, so it opens before any pane loaded ahead. */
  request(agentId: string, show: boolean): void {
    if (show) {
      if (this.shown.includes(agentId)) return;
      this.shown.push(agentId);
      const ahead = this.ahead.indexOf(agentId);
      if (ahead >= 0) this.ahead.splice(ahead, 1);
    } else if (!this.shown.includes(agentId) && !this.ahead.includes(agentId)) {
      this.ahead.push(agentId);
    }
    this.schedule();
  }

  /** The pane opened by other means (asked for synchronously): nothing left to do for it here. */
  opened(agentId: string): void {
    for (const list of [this.shown, this.ahead]) {
      const at = list.indexOf(agentId);
      if (at >= 0) list.splice(at, 1);
    }
  }

  /** Whether the agent's pane waits in the queue. */
  pending(agentId: string): boolean {
    return this.shown.includes(agentId) || this.ahead.includes(agentId);
  }

  private schedule(): void {
    if (this.scheduled || (this.shown.length === 0 && this.ahead.length === 0)) return;
    this.scheduled = true;
    this.yieldTask(() => {
      this.scheduled = false;
      const next = this.shown.shift() ?? this.ahead.shift();
      if (next !== undefined) this.open(next);
      this.schedule();
    });
  }
}

/** A new task as soon as the page has none more urgent (a message to ourselves: not clamped as nested timers are). */
let channel: MessageChannel | null = null;
const waiting: (() => void)[] = [];
function nextTask(run: () => void): void {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  waiting.push(run);
  channel.port2.postMessage(null);
}
