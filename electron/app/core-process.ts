// The core host as an Electron utilityProcess: started by main, handed one MessagePort per client, restarted if it
// dies on its own, and asked to stop every agent at quit (killed if it does not finish in time).
import type { ForkOptions, MessageChannelMain, MessagePortMain, UtilityProcess } from 'electron';
import { DATA_DIR_ARG, fromCoreSchema, type ToCore } from './core-protocol.js';

export interface CoreProcessDeps {
  utilityProcess: { fork(modulePath: string, args?: string[], options?: ForkOptions): UtilityProcess };
  MessageChannelMain: new () => MessageChannelMain;
}

export interface CoreProcessOptions {
  /** The compiled core-host-entry.js. */
  entry: string;
  dataDir: string;
  /** The core stopped on its own: windows should say so (they keep their panes and reattach later). */
  onLost(reason: string): void;
  /** A core was (re)started: every window, and main's own client, needs a new port. */
  onStarted(): void;
  /** Waits before each restart; after the last one the core is given up on. */
  restartDelaysMs?: readonly number[];
  /** A core that ran this long is healthy again: its restart count starts over. */
  healthyAfterMs?: number;
}

export type CloseResult = 'closed' | 'killed' | 'not-running';

const RESTART_DELAYS_MS = [300, 1000, 3000, 10_000];

export class CoreProcess {
  private child: UtilityProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stopping = false;
  private restarts = 0;
  private startedAt = 0;
  private lastFailure: string | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly deps: CoreProcessDeps,
    private readonly options: CoreProcessOptions,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  start(): void {
    if (this.child || this.stopping) return;
    const child = this.deps.utilityProcess.fork(this.options.entry, [`${DATA_DIR_ARG}${this.options.dataDir}`], {
      serviceName: 'Baton core',
      stdio: 'inherit',
    });
    this.child = child;
    this.startedAt = Date.now();
    this.lastFailure = null;
    child.on('message', (raw: unknown) => {
      const message = fromCoreSchema.safeParse(raw);
      if (message.success && message.data.type === 'failed') this.lastFailure = message.data.message;
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code: number) => {
        if (this.child === child) this.child = null;
        resolve();
        if (!this.stopping) this.died(code);
      });
    });
    this.options.onStarted();
  }

  /** A new channel to the core: one end goes to the core, the other is returned for a window (or main's own client). */
  openPort(): MessagePortMain | null {
    if (!this.child) return null;
    const { port1, port2 } = new this.deps.MessageChannelMain();
    this.send({ type: 'connect' }, [port1]);
    return port2;
  }

  /** Asks the core to snapshot and stop every agent, waits for it to exit, and kills it after `timeoutMs`. */
  async close(timeoutMs: number): Promise<CloseResult> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return 'not-running';
    this.send({ type: 'close' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([this.exited.then(() => 'exited' as const), timeout]);
    clearTimeout(timer);
    if (result === 'exited') return 'closed';
    process.stderr.write(`baton: the core did not stop its agents within ${Math.round(timeoutMs / 1000)} s; killing it (the next start stops what it left)\n`);
    child.kill();
    return 'killed';
  }

  private send(message: ToCore, ports: MessagePortMain[] = []): void {
    this.child?.postMessage(message, ports);
  }

  private died(code: number): void {
    const healthy = Date.now() - this.startedAt >= (this.options.healthyAfterMs ?? 60_000);
    if (healthy) this.restarts = 0;
    const delays = this.options.restartDelaysMs ?? RESTART_DELAYS_MS;
    const why = this.lastFailure ? `it could not start: ${this.lastFailure}` : `it exited with code ${code}`;
    const delay = delays[this.restarts];
    if (delay === undefined) {
      this.options.onLost(`The Baton core stopped again (${why}) and is not restarted any more. Quit and start Baton again; its log is on the terminal that started it.`);
      return;
    }
    this.restarts++;
    this.options.onLost(`The Baton core stopped (${why}). Restarting it; agents that were running are shown as exited and can be resumed.`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start();
    }, delay);
  }
}
