// The relay as an Electron utilityProcess (electron/core-relay-entry.ts): forked by main at launch, told where the
// background core listens, handed one MessagePort per client, and forked again if it dies. It holds no agent: when it
// (or the app) goes, the core and every agent keep running; pages just get new ports.
import type { ForkOptions, MessageChannelMain, MessagePortMain, UtilityProcess } from 'electron';
import type { CoreAddress } from '../core/public.js';
import type { ToRelay } from './relay-protocol.js';

export interface RelayDeps {
  utilityProcess: { fork(modulePath: string, args?: string[], options?: ForkOptions): UtilityProcess };
  MessageChannelMain: new () => MessageChannelMain;
}

export interface RelayOptions {
  /** The compiled core-relay-entry.js. */
  entry: string;
  /** A new relay runs after the last one died: every page needs a new port. */
  onRestarted(): void;
  /** Waits before each restart; after the last one the relay is given up on. */
  restartDelaysMs?: readonly number[];
}

const RESTART_DELAYS_MS = [100, 1000, 3000, 10_000];

export class RelayProcess {
  private child: UtilityProcess | null = null;
  private address: CoreAddress | null = null;
  private stopping = false;
  private restarts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly deps: RelayDeps,
    private readonly options: RelayOptions,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    if (this.child || this.stopping) return;
    const child = this.deps.utilityProcess.fork(this.options.entry, [], {
      serviceName: 'Baton relay',
      stdio: 'inherit',
    });
    this.child = child;
    if (this.address) this.send({ type: 'core', address: this.address });
    child.once('exit', (code: number) => {
      if (this.child === child) this.child = null;
      if (!this.stopping) this.died(code);
    });
  }

  /** Where new ports lead from now on (the token goes to the relay only, never on a command line). */
  setCore(address: CoreAddress): void {
    this.address = address;
    this.send({ type: 'core', address });
  }

  /** A new channel: one end to the relay (which connects it to the core), the other returned for a page. */
  openPort(): MessagePortMain | null {
    if (!this.child || !this.address) return null;
    const { port1, port2 } = new this.deps.MessageChannelMain();
    this.send({ type: 'connect' }, [port1]);
    return port2;
  }

  /** At quit: the relay goes, the core stays (its clients simply disconnect). */
  close(): void {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.child?.kill();
    this.child = null;
  }

  private send(message: ToRelay, ports: MessagePortMain[] = []): void {
    this.child?.postMessage(message, ports);
  }

  private died(code: number): void {
    const delay = (this.options.restartDelaysMs ?? RESTART_DELAYS_MS)[this.restarts];
    process.stderr.write(
      `baton: the relay to the core exited (code ${code})${delay === undefined ? '; not restarting it again' : '; restarting it'}\n`,
    );
    if (delay === undefined) return;
    this.restarts++;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
      this.options.onRestarted();
    }, delay);
  }
}
