// A screen from the core's mirror, made safe to write into a pane of another size. The mirror serializes its screen
// (xterm's serialize addon) for its own size: rows, then the cursor put back with relative moves. When the cursor sits
// below the last row with text (a shell after a newline, say), the serializer leaves those empty rows out and moves
// the cursor down with CUD (`ESC [ n B`) instead. In a pane with fewer rows than the lines written (a pane just opened
// at 80×24, the mirror at the size of a larger pane), the last line of text lands on the pane's bottom row, and CUD
// stops at the bottom: the cursor stays on that line and the next output overwrote it (a line lost after a reload).
// Line feeds move down the same way and scroll at the bottom, as the mirror did.

/** The serializer's final cursor move down, followed only by control sequences (column, style, modes) to the end. */
const FINAL_CURSOR_DOWN = /\x1b\[(\d+)B((?:\x1b\[[?0-9;:]*[A-Za-z])*)$/;

/** The serialized screen with its final cursor move down made of line feeds (which scroll at the bottom). */
export function scrollSafeScreen(serialized: string): string {
  return serialized.replace(FINAL_CURSOR_DOWN, (_all, rows: string, rest: string) => '\n'.repeat(Number(rows)) + rest);
}
