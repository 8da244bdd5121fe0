// Part of the stand-in for the `electron` module (electron-fake.ts, which assembles it): the message ports and
// utility processes, behaving like Electron's MessagePortMain (queued until `start()`, a 'close' event on the other
// end), MessageChannelMain and UtilityProcess.
import { EventEmitter } from 'node:events';

interface PortEvent {
  data: unknown;
  ports: FakePort[];
}

/** Like Electron's MessagePortMain: messages wait until start(); closing one end emits 'close' on the other. */
export class FakePort extends EventEmitter {
  other: FakePort | null = null;
  started = false;
  closed = false;
  private readonly queue: PortEvent[] = [];

  postMessage(data: unknown, ports: FakePort[] = []): void {
    const peer = this.other;
    if (this.closed || !peer || peer.closed) return;
    peer.deliver({ data, ports });
  }

  start(): void {
    this.started = true;
    for (const event of this.queue.splice(0)) setImmediate(() => this.emit('message', event));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const peer = this.other;
    if (peer && !peer.closed) {
      peer.closed = true;
      setImmediate(() => peer.emit('close'));
    }
  }

  private deliver(event: PortEvent): void {
    if (this.started) setImmediate(() => !this.closed && this.emit('message', event));
    else this.queue.push(event);
  }
}

export class FakeMessageChannelMain {
  static created: FakeMessageChannelMain[] = [];
  readonly port1 = new FakePort();
  readonly port2 = new FakePort();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
    FakeMessageChannelMain.created.push(this);
  }
}

/** The main side of a utility process: what it was sent, and 'exit' / 'message' events for the test to drive. */
export class FakeUtilityProcess extends EventEmitter {
  readonly received: { message: unknown; ports: FakePort[] }[] = [];
  killed = false;
  exitCode: number | null = null;
  pid = 4242;
  /** Where posted messages go next (the real core's parent port, when there is one). */
  inbox: ((message: unknown, ports: FakePort[]) => void) | null = null;

  constructor(
    readonly modulePath: string,
    readonly args: string[],
    readonly options: unknown,
  ) {
    super();
  }

  postMessage(message: unknown, ports: FakePort[] = []): void {
    this.received.push({ message, ports });
    this.inbox?.(message, ports);
  }

  kill(): boolean {
    this.killed = true;
    setImmediate(() => this.exit(-1));
    return true;
  }

  exit(code: number): void {
    if (this.exitCode !== null) return;
    this.exitCode = code;
    this.emit('exit', code);
  }

  /** Message types the relay was sent, in order ('core', 'connect'). */
  types(): string[] {
    return this.received.map((r) => (r.message as { type: string }).type);
  }
}
