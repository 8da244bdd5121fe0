// The types of buffer-text.mjs.

/** What `bufferText` reads of an xterm buffer (`term.buffer.active`), in the page or headless alike. */
export interface TextBuffer {
  readonly length: number;
  getLine(y: number): { readonly isWrapped: boolean; translateToString(trimRight?: boolean): string } | undefined;
}

/**
 * The buffer's lines as text: a wrapped line joined to the one it continues, trailing blank lines dropped; only the
 * last `maxLines` when given.
 */
export function bufferText(buffer: TextBuffer, maxLines?: number): string;
