// Main's link to the background core: find or start it (background-core.ts), point the relay at it (relay-process.ts),
// and keep main's own events-only client on it. When the core goes away while the app runs (it was killed, or a
// restart from the window stopped it), the link starts or finds the next one and every page gets a new port; a core
// that cannot be started is retried a few times, then given up on with the reason.
import type { CoreInfo } from '../../shared/contract.js';
import type { RpcClient } from '../../shared/client.js';
import { reportFailure } from '../core/public.js';
import { ensureCore, type LaunchOptions } from './background-core.js';
import type { RelayProcess } from './relay-process.js';

export interface CoreLinkOptions {
  launch: LaunchOptions;
  relay: RelayProcess;
  /** A core is connected (first, or again): hand every page a port; `client` is main's own. */
  onConnected(client: RpcClient, info: CoreInfo | null): void;
  /** The core is gone or cannot be started: the reason, in the user's words, for the window. */
  onLost(reason: string): void;
  /** The core's state changed (an agent started or ended): for the menu's status item. */
  onInfo(info: CoreInfo | null): void;
  /** Waits before each new attempt after a failed start; after the last one the link gives up. */
  retryDelaysMs?: readonly number[];
}

const RETRY_DELAYS_MS = [300, 1000, 3000, 10_000];

export class CoreLink {
  private current: RpcClient | null = null;
  private latest: CoreInfo | null = null;
  private failures = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private gaveUp: string | null = null;
  /** Settles once the first connection attempt has (the tests wait on it). */
  readonly firstAttempt: Promise<void>;

  constructor(private readonly options: CoreLinkOptions) {
    this.firstAttempt = this.connect().catch((err: unknown) => reportFailure('connecting to the core', err));
  }

  get client(): RpcClient | null {
    return this.current;
  }

  get info(): CoreInfo | null {
    return this.latest;
  }

  /** Why there is no core, once the link has given up; null while it still tries (or is connected). */
  get givenUp(): string | null {
    return this.gaveUp;
  }

  /** The core's `core.info` now; null when there is no core to ask. */
  async refresh(): Promise<CoreInfo | null> {
    const client = this.current;
    if (!client) return null;
    try {
      this.latest = await client.call('core.info', {});
    } catch {
      // A core too old to answer, or going away: the last known state stays.
    }
    this.options.onInfo(this.latest);
    return this.latest;
  }

  /** At quit, first: a core that goes away from now on (it is being stopped) is not started again. */
  stopReconnecting(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** At quit, last: drop main's connection. The core itself is left as it is. */
  close(): void {
    this.stopReconnecting();
    this.current?.close();
    this.current = null;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    let connection;
    try {
      connection = await ensureCore(this.options.launch);
    } catch (err) {
      return this.failed(err instanceof Error ? err.message : String(err));
    }
    if (this.closed) return connection.client.close();
    this.failures = 0;
    this.gaveUp = null;
    this.current = connection.client;
    this.latest = connection.info;
    this.options.relay.setCore(connection.address);
    const client = connection.client;
    client.on('agent.status', () => {
      this.refresh().catch((err: unknown) => reportFailure('reading the core state', err));
    });
    client.onClose(() => {
      if (this.current !== client || this.closed) return;
      this.current = null;
      this.options.onLost(
        'The Baton core stopped. Baton is starting it again; agents it was running come back as the next core finds them.',
      );
      this.schedule(0);
    });
    this.options.onConnected(client, connection.info);
    this.options.onInfo(connection.info);
  }

  private failed(reason: string): void {
    process.stderr.write(`baton: ${reason}\n`);
    const delay = (this.options.retryDelaysMs ?? RETRY_DELAYS_MS)[this.failures];
    if (delay === undefined) {
      this.gaveUp = `The Baton core could not be started (${reason}). Quit and start Baton again.`;
      this.options.onLost(this.gaveUp);
      return;
    }
    this.failures++;
    this.options.onLost(`The Baton core could not be started (${reason}). Trying again.`);
    this.schedule(delay);
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect().catch((err: unknown) => reportFailure('connecting to the core', err));
    }, delay);
  }
}
