// The remote core reached through OpenSSH's own stream forwarding (docs/hosts.md, "The link"): a Unix socket in this
// core's ssh directory (0700), forwarded by the host's shared connection to the remote core's user-only socket, and
// the core's ordinary socket transport spoken over it. No process of ours relays the bytes, as `baton connect --stdio`
// does. The remote socket path and token come from the remote core itself (`baton connect --address`), are validated,
// and go to ssh as argv; the token stays in this process's memory.
import { createHash } from 'node:crypto';
import { lstatSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { RpcClient } from '../../../shared/client.js';
import { keepSecret } from '../log.js';
import { openCoreSocket, whenOpen, wsWire } from '../transport/core-socket.js';
import { HostSetupError, serverDir } from './install.js';
import { explainSshFailure, runSsh, sshArgs, sshError, type SshOptions } from './ssh.js';

/** sun_path is 104 bytes on macOS and the BSDs (108 on Linux), its terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;
const STEP_MS = 15_000;

/**
 * What `connect --address` prints. The path goes into ssh's `-L local:remote` (argv, never a shell), which splits on
 * colons and brackets: only plain absolute paths are forwarded; another falls back to the stdio bridge.
 */
const remoteAddressSchema = z.strictObject({
  socket: z
    .string()
    .max(MAX_SOCKET_PATH_BYTES)
    .regex(/^\/[A-Za-z0-9._@+/-]+$/)
    .refine((p) => !p.split('/').includes('..')),
  token: z
    .string()
    .min(16)
    .max(1024)
    .regex(/^[A-Za-z0-9_=+/-]+$/),
  version: z.string().max(64),
});

/** Forwarding is not possible here (refused by the server, an unusual path…): the stdio bridge is used instead. */
export class ForwardUnavailable extends Error {
  override readonly name = 'ForwardUnavailable';
}

export interface ForwardedCore {
  client: RpcClient;
  /** Closes the connection and cancels the forwarding (the remote core keeps running). */
  close(): void;
}

/** The remote core's contract over a forwarded socket, answering `core.info`; ForwardUnavailable when it cannot be. */
export async function openForwardedCore(alias: string, ssh: SshOptions, version: string): Promise<ForwardedCore> {
  const remote = await remoteAddress(alias, ssh, version);
  // Held in memory only: scrubbed from anything this core logs.
  keepSecret(remote.token);
  const local = join(ssh.controlDir, `core-${createHash('sha256').update(alias).digest('hex').slice(0, 12)}.sock`);
  if (Buffer.byteLength(local) > MAX_SOCKET_PATH_BYTES)
    throw new ForwardUnavailable(`the socket path ${local} is too long for a Unix socket`);
  const spec = `${local}:${remote.socket}`;
  // A forwarding left by an earlier connection of this core (or a socket file left by a master that died).
  await controlCommand(alias, ssh, 'cancel', spec);
  removeStaleSocket(local);
  const forwarded = await controlCommand(alias, ssh, 'forward', spec);
  if (forwarded.exitCode !== 0)
    throw new ForwardUnavailable(`ssh did not forward the core's socket: ${sshError(forwarded.stderr)}`);
  const cancel = () => {
    controlCommand(alias, ssh, 'cancel', spec).then(
      () => {
        try {
          removeStaleSocket(local);
        } catch {
          // Not ours to remove: the next connection refuses it and says so.
        }
      },
      () => undefined,
    );
  };
  let client: RpcClient | null = null;
  try {
    // A server with `AllowStreamLocalForwarding no` accepts the forwarding here, then refuses each connection.
    const ws = await withTimeout(whenOpen(openCoreSocket({ socket: local, token: remote.token }), remote.token));
    client = new RpcClient(wsWire(ws));
    await withTimeout(client.call('core.info', {}));
  } catch (err) {
    client?.close();
    cancel();
    throw new ForwardUnavailable(`the forwarded socket did not answer: ${err instanceof Error ? err.message : 'no'}`);
  }
  const connected = client;
  return {
    client: connected,
    close: () => {
      connected.close();
      cancel();
    },
  };
}

/** The remote core's socket and token (the core started, or an older one replaced, first). */
async function remoteAddress(
  alias: string,
  ssh: SshOptions,
  version: string,
): Promise<z.infer<typeof remoteAddressSchema>> {
  const result = await runSsh(alias, ssh, `node ${serverDir(version)}/bin/baton.js connect --address`, 60_000);
  if (result.exitCode === 255)
    throw new HostSetupError('start the remote core', explainSshFailure(alias, result.stderr), true);
  if (result.exitCode !== 0)
    throw new ForwardUnavailable(`connect --address failed: ${result.stderr.trim().slice(-300) || result.exitCode}`);
  const lastLine = result.stdout.trim().split('\n').pop() ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(lastLine);
  } catch {
    throw new ForwardUnavailable('connect --address printed no address');
  }
  const address = remoteAddressSchema.safeParse(parsed);
  if (!address.success || address.data.version !== version)
    throw new ForwardUnavailable(
      'connect --address printed an address that is not forwarded (its socket path or version)',
    );
  return address.data;
}

/** `ssh -O forward|cancel -L local:remote host`: asks the shared connection's master (never starts one). */
async function controlCommand(
  alias: string,
  ssh: SshOptions,
  command: 'forward' | 'cancel',
  spec: string,
): Promise<{ exitCode: number; stderr: string }> {
  const result = await execa('ssh', sshArgs(alias, ssh, ['-O', command, '-L', spec]), {
    reject: false,
    timeout: STEP_MS,
    stdin: 'ignore',
    encoding: 'utf8',
  });
  return { exitCode: result.exitCode ?? 255, stderr: result.stderr };
}

/** Removes the local end's file when it is a socket of this user (only ever in the 0700 ssh directory). */
function removeStaleSocket(path: string): void {
  let info;
  try {
    info = lstatSync(path);
  } catch {
    return;
  }
  if (!info.isSocket() || (typeof process.getuid === 'function' && info.uid !== process.getuid()))
    throw new ForwardUnavailable(`${path} is not a socket of this user`);
  unlinkSync(path);
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${STEP_MS / 1000} s`)), STEP_MS);
    timer.unref();
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
