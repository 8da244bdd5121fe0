// Quoting for "copy as shell commands": text a person pastes into a POSIX shell. Baton itself never runs it.

/** A single POSIX shell word: left bare when plainly safe, else single-quoted with ' escaped as '\''. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
