// The repository's setup command (`.baton/setup.json`: `{"command": ["npm", "ci"]}`), run in a new worktree only
// after the user approved that exact command for that repository once. The approval is remembered by the SHA-256
// of (repository, argv) in worktree-approvals.json in the data directory, so a changed command (or the same file in
// another repository) asks again. The command is an argv array, started without a shell.
import { createHash } from 'node:crypto';
import { lstat, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic-file.js';
import { readJsonFile } from '../store/safe-read.js';
import { WorktreeError } from './errors.js';

export const SETUP_FILE = join('.baton', 'setup.json');
export const APPROVALS_FILE = 'worktree-approvals.json';
const MAX_SETUP_BYTES = 64 * 1024;
const MAX_APPROVALS_BYTES = 1024 * 1024;
const MAX_APPROVALS = 2000;
export const SHA256 = /^[0-9a-f]{64}$/;
const DEFAULT_TIMEOUT_S = 15 * 60;
const OUTPUT_TAIL = 64 * 1024;

const setupFileSchema = z.strictObject({
  command: z
    .array(
      z
        .string()
        .min(1)
        .max(4096)
        .refine((s) => !s.includes('\0'), { error: 'must not contain NUL' }),
    )
    .min(1)
    .max(256),
  /** Stop the command after this long (default 900 s). */
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(4 * 3600)
    .optional(),
});

export interface SetupCommand {
  argv: string[];
  timeoutSeconds: number;
  /** What the user approves: SHA-256 of the repository (its common git directory) and the exact argv. */
  hash: string;
  /** Where it was read. */
  file: string;
}

export type SetupLookup = { ok: true; command: SetupCommand } | { ok: false; missing: boolean; reason: string };

export function setupHash(commonDir: string, argv: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify(['baton-setup-v1', commonDir, argv]))
    .digest('hex');
}

/** The checkout's setup command, none (`missing`), or why its file cannot be used. */
export async function readSetupCommand(checkout: string, commonDir: string): Promise<SetupLookup> {
  const dir = join(checkout, '.baton');
  try {
    if ((await lstat(dir)).isSymbolicLink()) return { ok: false, missing: false, reason: `${dir} is a symbolic link` };
  } catch {
    return { ok: false, missing: true, reason: 'missing' };
  }
  const file = join(checkout, SETUP_FILE);
  const read = await readJsonFile(file, MAX_SETUP_BYTES, setupFileSchema);
  if (!read.ok) return { ok: false, missing: read.missing, reason: `${file} ${read.reason}` };
  const argv = read.value.command;
  return {
    ok: true,
    command: {
      argv,
      timeoutSeconds: read.value.timeoutSeconds ?? DEFAULT_TIMEOUT_S,
      hash: setupHash(commonDir, argv),
      file,
    },
  };
}

const approvalsSchema = z.strictObject({
  v: z.literal(1),
  approved: z.array(z.strictObject({ sha256: z.string().regex(SHA256), at: z.string().max(64) })).max(MAX_APPROVALS),
});

export class Approvals {
  private readonly path: string;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataDir: string) {
    this.path = join(dataDir, APPROVALS_FILE);
  }

  async has(hash: string): Promise<boolean> {
    if (!SHA256.test(hash)) return false;
    await this.chain.catch(() => undefined);
    return (await this.read()).some((a) => a.sha256 === hash);
  }

  add(hash: string): Promise<void> {
    if (!SHA256.test(hash))
      return Promise.reject(new WorktreeError('invalid', 'an approval must be a SHA-256 in hex (64 characters)'));
    const next = this.chain
      .catch(() => undefined)
      .then(async () => {
        const approved = (await this.read()).filter((a) => a.sha256 !== hash);
        approved.push({ sha256: hash, at: new Date().toISOString() });
        await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
        const kept = approved.slice(-MAX_APPROVALS);
        await writeFileAtomic(this.path, `${JSON.stringify({ v: 1, approved: kept }, null, 2)}\n`, 0o600);
      });
    this.chain = next;
    return next;
  }

  private async read(): Promise<z.infer<typeof approvalsSchema>['approved']> {
    const read = await readJsonFile(this.path, MAX_APPROVALS_BYTES, approvalsSchema);
    if (read.ok) return read.value.approved;
    // An unreadable file approves nothing: the user is asked again, which is the safe side.
    if (!read.missing)
      process.stderr.write(`baton: ignoring ${this.path}: it ${read.reason}; setup commands will be asked for again\n`);
    return [];
  }
}

export interface SetupRun {
  argv: string[];
  exitCode: number | null;
  ok: boolean;
  timedOut: boolean;
  /** The last 64 KiB of stdout and stderr, interleaved as they arrived. */
  output: string;
}

/** Runs an approved argv in `cwd`, no shell, no stdin; each chunk of output goes to `onOutput` as it comes. */
export async function runArgv(
  command: SetupCommand,
  cwd: string,
  env: NodeJS.ProcessEnv,
  onOutput?: (text: string) => void,
): Promise<SetupRun> {
  const [file, ...args] = command.argv;
  if (file === undefined) throw new WorktreeError('invalid', 'the setup command is empty');
  const childEnv: NodeJS.ProcessEnv = {};
  // Like an agent, the setup command never sees Baton's token.
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('BATON_TOKEN')) childEnv[k] = v;
  let tail = '';
  const take = (chunk: Buffer | string): void => {
    const text = chunk.toString();
    tail = (tail + text).slice(-OUTPUT_TAIL);
    onOutput?.(text);
  };
  const child = execa(file, args, {
    cwd,
    env: childEnv,
    extendEnv: false,
    shell: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
    timeout: command.timeoutSeconds * 1000,
  });
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const result = await child;
  if (result.exitCode === undefined && !result.timedOut) {
    tail += `\n${result.originalMessage ?? result.shortMessage ?? 'the command could not be started'}`;
  }
  return {
    argv: command.argv,
    exitCode: result.exitCode ?? null,
    ok: result.exitCode === 0,
    timedOut: result.timedOut,
    output: tail,
  };
}
