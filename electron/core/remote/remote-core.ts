// One remote host's core, reached over the host's shared ssh connection (docs/hosts.md): the contract's RpcClient over
// a local socket that OpenSSH forwards to the remote core's socket, or, where the server refuses stream forwarding,
// over the stdio of an ssh child that runs `baton connect --stdio` there. When the connection drops (ssh killed,
// network gone, laptop asleep) the remote agents keep running; this side reconnects with backoff and tells its
// listeners, who reattach their streams from the offsets they hold.
import { EventEmitter } from 'node:events';
import { execa, type ResultPromise } from 'execa';
import {
  events as eventSchemas,
  type EventName,
  type EventPayload,
  type HostState,
  type Method,
  type Params,
  type Result,
} from '../../../shared/contract.js';
import {
  RpcClient,
  type AttachOptions,
  type TerminalStream,
  type TerminalStreamHandlers,
} from '../../../shared/client.js';
import { reportFailure, scrub } from '../log.js';
import { ForwardUnavailable, openForwardedCore } from './forward.js';
import { ensureInstalled, HostSetupError, serverDir } from './install.js';
import { stdioWire } from './stdio-wire.js';
import { explainSshFailure, sshArgs, type SshOptions } from './ssh.js';

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const HANDSHAKE_MS = 30_000;

export interface RemoteCoreOptions {
  alias: string;
  ssh: SshOptions;
  version: string;
  packageRoot: string;
  /** State changes and install progress, for `host.changed`. */
  onState(state: HostState, message: string | null): void;
}

export class RemoteCore {
  private client: RpcClient | null = null;
  private child: ResultPromise | null = null;
  /** Ends the forwarded link (when the current connection is one). */
  private closeForward: (() => void) | null = null;
  /** The server refused stream forwarding (or it cannot be used here): the stdio bridge from then on. */
  private forwardUnavailable = false;
  private connecting: Promise<RpcClient> | null = null;
  private readonly emitter = new EventEmitter();
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private installed = false;
  /** The login directory there, once probed. */
  home: string | null = null;
  state: HostState = 'idle';
  message: string | null = null;

  constructor(private readonly options: RemoteCoreOptions) {
    this.emitter.setMaxListeners(0);
  }

  get alias(): string {
    return this.options.alias;
  }

  /** Connected, installing the core first if this host does not have it: the step that failed is in the error. */
  connect(): Promise<RpcClient> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  async call<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    return (await this.connect()).call(method, params);
  }

  async attach(agentId: string, options: AttachOptions, handlers: TerminalStreamHandlers): Promise<TerminalStream> {
    return (await this.connect()).attach(agentId, options, handlers);
  }

  /** The remote core's events, from whichever connection is current. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /** The connection dropped: streams on it are gone (keys go as requests, which wait for the next connection). */
  onDrop(listener: () => void): () => void {
    this.emitter.on('dropped', listener);
    return () => this.emitter.off('dropped', listener);
  }

  /** After a dropped connection came back: streams reattach from their offsets. */
  onReconnect(listener: () => void): () => void {
    this.emitter.on('reconnected', listener);
    return () => this.emitter.off('reconnected', listener);
  }

  /** Ends this side's connection (the remote core and its agents keep running). */
  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.client?.close();
    this.closeForward?.();
    this.child?.kill('SIGTERM');
  }

  private setState(state: HostState, message: string | null): void {
    this.state = state;
    this.message = message;
    this.options.onState(state, message);
  }

  private async open(): Promise<RpcClient> {
    if (this.closed) throw new HostSetupError('connect', 'the connection to this host was closed');
    this.setState('connecting', null);
    try {
      if (!this.installed) {
        const probe = await ensureInstalled(
          this.alias,
          this.options.ssh,
          this.options.version,
          this.options.packageRoot,
          (m) => this.setState('connecting', m),
        );
        this.home = probe.home;
        this.installed = true;
      }
      const client = await this.connectLink();
      this.client = client;
      this.attempt = 0;
      this.setState('connected', null);
      return client;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const unreachable = !(err instanceof HostSetupError) || err.unreachable;
      this.setState(unreachable ? 'unreachable' : 'needs-setup', message);
      throw err;
    }
  }

  /** The forwarded socket when the server allows it, else the stdio bridge; listened to either way. */
  private async connectLink(): Promise<RpcClient> {
    if (!this.forwardUnavailable) {
      try {
        const forwarded = await openForwardedCore(this.alias, this.options.ssh, this.options.version);
        this.closeForward = forwarded.close;
        return this.adopt(forwarded.client, () => '');
      } catch (err) {
        if (!(err instanceof ForwardUnavailable)) throw err;
        this.forwardUnavailable = true;
        process.stderr.write(`baton: ${this.alias}: ${scrub(err.message)}; using the stdio bridge\n`);
      }
    }
    const { client, stderr } = await this.bridge();
    return this.adopt(client, stderr);
  }

  /** The remote core's events go to this core's listeners; its end is a dropped connection. */
  private adopt(client: RpcClient, stderr: () => string): RpcClient {
    for (const name of Object.keys(eventSchemas) as EventName[])
      client.on(name, (payload) => this.emitter.emit(name, payload));
    client.onClose((reason) => {
      const said = stderr().trim();
      this.dropped(client, `${reason}${said ? `: ${said.slice(-300)}` : ''}`);
    });
    return client;
  }

  /** The ssh child running the remote `baton connect`, and the contract over its stdio once `core.info` answers. */
  private async bridge(): Promise<{ client: RpcClient; stderr: () => string }> {
    const remote = `node ${serverDir(this.options.version)}/bin/baton.js connect --stdio`;
    const child = execa('ssh', [...sshArgs(this.alias, this.options.ssh), remote], {
      reject: false,
      buffer: false,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    this.child = child;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const wire = stdioWire(child.stdout, child.stdin, () => child.kill('SIGTERM'));
    const client = new RpcClient(wire);
    const ended = child.then((r) => r.exitCode ?? 255);
    try {
      await Promise.race([
        client.call('core.info', {}),
        ended.then((code) => {
          throw new HostSetupError(
            'start the remote core',
            code === 255 ? explainSshFailure(this.alias, stderr) : stderr.trim().slice(-600) || `exit ${code}`,
            code === 255,
          );
        }),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new HostSetupError('start the remote core', 'no answer in 30 s')),
            HANDSHAKE_MS,
          ).unref(),
        ),
      ]);
    } catch (err) {
      client.close();
      child.kill('SIGKILL');
      throw err;
    }
    return { client, stderr: () => stderr };
  }

  /** The connection ended under us: agents there keep running; reconnect with backoff and tell the streams. */
  private dropped(client: RpcClient, reason: string): void {
    if (this.client !== client) return;
    this.client = null;
    this.closeForward?.();
    this.closeForward = null;
    this.child?.kill('SIGKILL');
    this.child = null;
    this.emitter.emit('dropped');
    if (this.closed) return;
    this.setState('connecting', `reconnecting (${reason})`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!;
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().then(
        () => this.emitter.emit('reconnected'),
        (err: unknown) => {
          if (this.closed) return;
          if (!(err instanceof HostSetupError)) reportFailure(`reconnecting to ${this.alias}`, err);
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.retry.unref();
  }
}
