// A bundle's passphrase for the CLI (docs/bundles.md §6): from BATON_PASSPHRASE, from a file (--passphrase-file, first
// line), or typed at the controlling terminal with echo off (read from /dev/tty like tty-confirm.ts, raw mode, so
// not a character is shown). Never printed, logged, or put in an error.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { isatty, ReadStream } from 'node:tty';
import { UsageError } from './errors.js';

const MIN_CHARS = 8;

/** Reads one line on the terminal without echo; null when there is no terminal. Ctrl-C or Ctrl-D gives up. */
async function readHidden(prompt: string): Promise<string | null> {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    return null;
  }
  if (!isatty(fd)) {
    closeSync(fd);
    return null;
  }
  writeSync(fd, prompt);
  const input = new ReadStream(fd);
  input.setRawMode(true);
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      input.on('data', (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') return resolve(typed);
          if (ch === '\u0003' || ch === '\u0004') return reject(new UsageError('no passphrase given'));
          if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
          else if (ch >= ' ') typed += ch;
        }
      });
    });
  } finally {
    input.setRawMode(false);
    writeSync(fd, '\n');
    input.destroy(); // closes fd
  }
}

/**
 * The passphrase, from the first of: --passphrase-file, BATON_PASSPHRASE, the terminal (asked twice when `confirm`,
 * for a new bundle). Without any of them (a script with no terminal), a usage error that says how to give one.
 */
export async function readPassphrase(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  confirm: boolean,
): Promise<string> {
  let pass: string | null | undefined;
  if (file !== undefined) {
    try {
      pass = readFileSync(file, 'utf8').split(/\r?\n/)[0];
    } catch {
      throw new UsageError('the passphrase file cannot be read');
    }
  } else if (env.BATON_PASSPHRASE) pass = env.BATON_PASSPHRASE;
  else {
    pass = await readHidden('Passphrase: ');
    if (pass === null)
      throw new UsageError(
        'a passphrase is needed: set BATON_PASSPHRASE, give --passphrase-file, or run at a terminal',
      );
    if (confirm && pass.length >= MIN_CHARS && (await readHidden('Passphrase again: ')) !== pass)
      throw new UsageError('the two passphrases differ');
  }
  if (pass === undefined || pass.length < MIN_CHARS)
    throw new UsageError(`the passphrase must be at least ${MIN_CHARS} characters`);
  return pass;
}
