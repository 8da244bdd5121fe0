// A unified diff (git's patch text) as lines to draw: each with its kind, so the Changes view colours additions,
// deletions, hunk and file headers. Pure, so it is tested without a page.

export type PatchLineKind = 'file' | 'meta' | 'hunk' | 'add' | 'del' | 'context' | 'note';

export interface PatchLine {
  kind: PatchLineKind;
  text: string;
}

const META =
  /^(index |--- |\+\+\+ |new file mode|deleted file mode|old mode|new mode|similarity index|dissimilarity index|rename from|rename to|copy from|copy to|Binary files )/;

/** Classifies every line; inside a hunk a line starting `+++` or `---` is content, not a header. */
export function patchLines(patch: string): PatchLine[] {
  if (patch === '') return [];
  const raw = patch.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  const out: PatchLine[] = [];
  let inHunk = false;
  for (const text of raw) {
    let kind: PatchLineKind;
    if (text.startsWith('diff ')) {
      kind = 'file';
      inHunk = false;
    } else if (text.startsWith('@@')) {
      kind = 'hunk';
      inHunk = true;
    } else if (!inHunk) kind = META.test(text) ? 'meta' : 'context';
    else if (text.startsWith('+')) kind = 'add';
    else if (text.startsWith('-')) kind = 'del';
    else if (text.startsWith('\\')) kind = 'note';
    else kind = 'context';
    out.push({ kind, text });
  }
  return out;
}

/** The longest line's length, capped: the width (in ch) a virtualised view gives its rows so it scrolls sideways. */
export function widestLine(lines: readonly PatchLine[], cap = 2000): number {
  let widest = 0;
  for (const l of lines) if (l.text.length > widest) widest = Math.min(cap, l.text.length);
  return widest;
}

/** The rows to draw for a scroll position: those in view plus `overscan` on each side. */
export function visibleRange(
  total: number,
  scrollTop: number,
  viewHeight: number,
  lineHeight: number,
  overscan = 30,
): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / lineHeight) - overscan);
  const last = Math.min(total, Math.ceil((scrollTop + viewHeight) / lineHeight) + overscan);
  return { first, last: Math.max(first, last) };
}
