// The text a user reads in an xterm buffer, for the pane (renderer/panes/pane-screens.ts) and the core's mirrors
// (electron/core/pty/mirror-worker.mjs) alike. Plain JavaScript, its types in buffer-text.d.mts: the mirrors' worker
// thread loads it as it is, from the sources and from dist/, with no TypeScript loader.

/**
 * The buffer's lines as text: a wrapped line joined to the one it continues, trailing blank lines dropped; only the
 * last `maxLines` when given.
 */
export function bufferText(buffer, maxLines) {
  if (Number.isInteger(maxLines) && maxLines > 0) return lastLines(buffer, maxLines);
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

/**
 * The last `maxLines` lines of `bufferText`, read from the end: the core's mirrors read a few lines of a screen with
 * 5,000 lines of history above it, and reading every line took more than the rest of a first visit's catch-up.
 */
function lastLines(buffer, maxLines) {
  const lines = [];
  let pending = '';
  let started = false;
  for (let y = buffer.length - 1; y >= 0 && lines.length < maxLines; y--) {
    const line = buffer.getLine(y);
    if (!line) continue;
    pending = line.translateToString(true) + pending;
    started = true;
    // A wrapped row continues the row above it: the line is complete only at a row that is not wrapped.
    if (line.isWrapped) continue;
    if (lines.length > 0 || pending !== '') lines.push(pending);
    pending = '';
    started = false;
  }
  if (started && lines.length < maxLines && (lines.length > 0 || pending !== '')) lines.push(pending);
  return lines.reverse().join('\n');
}
