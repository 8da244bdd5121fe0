// A handle read from standard input, where it never shows in a process list. Whatever is piped in (nothing,
// a binary file, a huge file) ends in one clear message, never a crash or a runaway read.
import { LIMITS } from '../../shared/words.js';

/** Room for the blank lines and spaces a paste brings around a handle of the largest size. */
const MAX_INPUT_BYTES = LIMITS.handleMaxBytes + 4096;

// Tab, newline and carriage return are how pastes and pretty-printed JSON handles come; other controls are not text.
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The handle on standard input, trimmed; `command` (resume, inspect) shapes the example in the messages. */
export async function readHandle(
  command: string,
  input: NodeJS.ReadStream = process.stdin,
  prompt: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  const example = `baton ${command} < demo.handle`;
  if (input.isTTY) prompt.write('Paste the handle, then press Ctrl-D:\n');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) {
      input.destroy(); // stop reading: whatever follows cannot make it a handle
      throw new Error(
        `standard input is larger than a handle can be (${LIMITS.handleMaxBytes / 1024} KiB): give the handle alone, e.g. ${example}`,
      );
    }
    chunks.push(bytes);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new Error('standard input is not text (not UTF-8): a handle is a line of text starting with baton1.');
  }
  if (CONTROL_CHARS.test(text))
    throw new Error(
      'standard input is not text (it holds control characters): a handle is a line of text starting with baton1.',
    );
  const handle = text.trim();
  if (!handle) throw new Error(`no handle on standard input: give one, e.g. ${example}`);
  return handle;
}
