// What commands print on standard output: one result per line, or JSON for scripts.

export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function json(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** A note about the result (not the result itself), on standard error so pipes get only the result. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** An argv for reading (never run through a shell): words with spaces or quotes are single-quoted. */
export function displayArgv(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(' ');
}
