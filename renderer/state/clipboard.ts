// Copying a handle (a secret) with the optional auto-clear: the clipboard is emptied again later, but only if it
// still holds what Baton put there, so something the user copied since is never lost (docs/architecture.md §10).

/** What the web page can do with the clipboard (navigator.clipboard), as an interface so tests can stand in. */
export interface WebClipboard {
  writeText(text: string): Promise<void>;
  readText(): Promise<string>;
}

/** The desktop bridge's clipboard: main writes, and clears later only if the clipboard still holds the text. */
export interface DesktopClipboard {
  writeClipboard(text: string, options?: { clearAfterSeconds?: number }): Promise<void>;
}

/** What a page needs to wait for its focus: Chromium reads the clipboard only for a focused document. */
export interface FocusSource {
  hasFocus(): boolean;
  onNextFocus(listener: () => void): () => void;
}

/** The bridge's limit on clearAfterSeconds (shared/bridge-contract.ts BRIDGE_LIMITS). */
const DESKTOP_MAX_SECONDS = 3600;

let cancelPending: (() => void) | null = null;
/** Counts copies: a check still under way for an older copy must not act once a newer one was made. */
let copies = 0;

/**
 * Copies `text`. With `clearAfterSeconds`, the clipboard is emptied after that time if it still holds `text`.
 * In a browser that check reads the clipboard, which needs the page focused (and the permission): when it cannot
 * be read then, it is tried once more at the next focus, and `unverified` is called if that fails too; the
 * clipboard is then left as it is, because clearing what may be the user's own copy would be worse.
 */
export async function copyText(
  text: string,
  clearAfterSeconds: number | null,
  where: { desktop: DesktopClipboard | undefined; web: WebClipboard; focus: FocusSource },
  unverified: () => void,
): Promise<void> {
  cancelPending?.();
  cancelPending = null;
  const generation = ++copies;
  const current = () => generation === copies;
  if (where.desktop) {
    // Main owns the desktop clipboard; it compares before it clears and needs no focus to read.
    const seconds = clearAfterSeconds
      ? Math.min(DESKTOP_MAX_SECONDS, Math.max(1, Math.round(clearAfterSeconds)))
      : undefined;
    await where.desktop.writeClipboard(text, seconds ? { clearAfterSeconds: seconds } : undefined);
    return;
  }
  await where.web.writeText(text);
  if (!clearAfterSeconds) return;
  let stopFocusWait: (() => void) | null = null;
  const timer = setTimeout(() => {
    void clearIfUnchanged(text, where.web, current).then((done) => {
      if (done || !current()) return;
      if (where.focus.hasFocus()) {
        unverified();
        return;
      }
      stopFocusWait = where.focus.onNextFocus(() => {
        void clearIfUnchanged(text, where.web, current).then((again) => {
          if (!again && current()) unverified();
        });
      });
    });
  }, clearAfterSeconds * 1000);
  cancelPending = () => {
    clearTimeout(timer);
    stopFocusWait?.();
  };
}

/** True when the check could be made (and the clipboard was cleared if it still held `text`). */
async function clearIfUnchanged(text: string, clipboard: WebClipboard, stillCurrent: () => boolean): Promise<boolean> {
  let held: string;
  try {
    held = await clipboard.readText();
  } catch {
    return false;
  }
  if (held !== text || !stillCurrent()) return true;
  try {
    await clipboard.writeText('');
    return true;
  } catch {
    return false;
  }
}

/** The page's own focus, for copyText. */
export const pageFocus: FocusSource = {
  hasFocus: () => document.hasFocus(),
  onNextFocus(listener) {
    window.addEventListener('focus', listener, { once: true });
    return () => window.removeEventListener('focus', listener);
  },
};
