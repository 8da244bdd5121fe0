// The text a user reads in an xterm buffer, for the pane (renderer/panes/pane-screens.ts) and the core's mirrors
// (electron/core/pty/mirror-worker.mjs) alike. Plain JavaScript, its types in buffer-text.d.mts: the mirrors' worker
// thread loads it as it is, from the sources and from dist/, with no TypeScript loader.

/**
 * The buffer's lines as text: a wrapped line joined to the one it continues, trailing blank lines dropped; only the
 * last `maxLines` when given.
 */
export function bufferText(buffer, maxLines) {
  const lines = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return (maxLines === undefined ? lines : lines.slice(-maxLines)).join('\n');
}
