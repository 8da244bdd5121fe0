// A yes/no question asked on the user's terminal itself. `baton resume` reads the handle from standard input, so
// the answer cannot come from there: like sudo and ssh, it is read from /dev/tty, the controlling terminal.
import { closeSync, openSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { isatty, ReadStream } from 'node:tty';

/**
 * Asks `question` on the controlling terminal and says whether the answer was y or yes. Null when there is no
 * terminal to ask on (a script, a service, CI): the caller then needs an explicit option instead.
 */
export async function askOnTerminal(question: string): Promise<boolean | null> {
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    return null; // ENXIO: no controlling terminal
  }
  if (!isatty(fd)) {
    closeSync(fd);
    return null;
  }
  writeSync(fd, question);
  const input = new ReadStream(fd);
  const lines = createInterface({ input, terminal: false });
  try {
    const answer = await new Promise<string>((resolve) => {
      lines.once('line', resolve);
      lines.once('close', () => resolve('')); // Ctrl-D: no
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    lines.close();
    input.destroy(); // closes fd
  }
}
