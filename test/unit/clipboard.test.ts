// The clipboard auto-clear after copying a handle (renderer/state/clipboard.ts): it empties the clipboard only
// while it still holds what Baton copied, so a user's own later copy is never lost.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  copyText,
  type DesktopClipboard,
  type FocusSource,
  type WebClipboard,
} from '../../renderer/state/clipboard.js';

/** A clipboard as a browser gives it: readable only while `readable` (focus and permission). */
class FakeClipboard implements WebClipboard {
  content = '';
  readable = true;
  async writeText(text: string): Promise<void> {
    this.content = text;
  }
  async readText(): Promise<string> {
    if (!this.readable) throw new DOMException('Document is not focused.', 'NotAllowedError');
    return this.content;
  }
}

class FakeFocus implements FocusSource {
  focused = true;
  private listeners: (() => void)[] = [];
  hasFocus(): boolean {
    return this.focused;
  }
  onNextFocus(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
  focus(): void {
    this.focused = true;
    const now = this.listeners.splice(0);
    for (const l of now) l();
  }
}

const HANDLE = 'baton1.eyJ2IjoxfQ';
let web: FakeClipboard;
let focus: FakeFocus;
let unverified: ReturnType<typeof vi.fn<() => void>>;
const copy = (text: string, seconds: number | null, desktop?: DesktopClipboard) =>
  copyText(text, seconds, { desktop, web, focus }, unverified);
/** Lets the timer fire and the clipboard promises settle. */
const afterSeconds = async (s: number) => {
  await vi.advanceTimersByTimeAsync(s * 1000);
};

beforeEach(() => {
  vi.useFakeTimers();
  web = new FakeClipboard();
  focus = new FakeFocus();
  unverified = vi.fn<() => void>();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('clipboard auto-clear in a browser', () => {
  it('empties the clipboard when it still holds the copied handle', async () => {
    await copy(HANDLE, 15);
    expect(web.content).toBe(HANDLE);
    await afterSeconds(15);
    expect(web.content).toBe('');
    expect(unverified).not.toHaveBeenCalled();
  });

  it('leaves what the user copied since', async () => {
    await copy(HANDLE, 15);
    web.content = 'my own text';
    await afterSeconds(15);
    expect(web.content).toBe('my own text');
  });

  it('without the setting, keeps the handle', async () => {
    await copy(HANDLE, null);
    await afterSeconds(3600);
    expect(web.content).toBe(HANDLE);
  });

  it('a newer copy replaces the pending clear: the older one never empties the clipboard early', async () => {
    await copy(HANDLE, 15);
    await afterSeconds(10);
    await copy(HANDLE, 15);
    await afterSeconds(10);
    expect(web.content).toBe(HANDLE);
    await afterSeconds(5);
    expect(web.content).toBe('');
  });

  it('unreadable while the page is in the background: checks again when it gets focus', async () => {
    await copy(HANDLE, 15);
    focus.focused = false;
    web.readable = false;
    await afterSeconds(15);
    expect(web.content).toBe(HANDLE);
    web.readable = true;
    focus.focus();
    await afterSeconds(0);
    expect(web.content).toBe('');
    expect(unverified).not.toHaveBeenCalled();
  });

  it('still unreadable at focus (no permission): leaves the clipboard and tells the user', async () => {
    await copy(HANDLE, 15);
    focus.focused = false;
    web.readable = false;
    await afterSeconds(15);
    focus.focus();
    await afterSeconds(0);
    expect(web.content).toBe(HANDLE);
    expect(unverified).toHaveBeenCalledTimes(1);
  });

  it('focused but unreadable: leaves the clipboard and tells the user at once', async () => {
    await copy(HANDLE, 15);
    web.readable = false;
    await afterSeconds(15);
    expect(web.content).toBe(HANDLE);
    expect(unverified).toHaveBeenCalledTimes(1);
  });
});

describe('clipboard auto-clear in the desktop app', () => {
  it('hands the text and the delay to main, which compares before it clears', async () => {
    const writes: [string, { clearAfterSeconds?: number } | undefined][] = [];
    const desktop: DesktopClipboard = {
      writeClipboard: async (text, options) => {
        writes.push([text, options]);
      },
    };
    await copy(HANDLE, 30, desktop);
    await copy('commands', null, desktop);
    expect(writes).toEqual([
      [HANDLE, { clearAfterSeconds: 30 }],
      ['commands', undefined],
    ]);
    expect(web.content).toBe('');
  });
});
