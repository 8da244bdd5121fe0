// Typing outside the panes stays fast while agents print: a key in a text field of the page (the history's search
// box, a dialog's fields), or such a field taking focus (the user is about to type), paces the panes' output as a
// key into a pane does (write-pacer.ts). A pane's own keys go through its xterm (terminal-registry.ts) instead.
import { typedElsewhere } from './pane-output.js';

const TEXT_FIELD = 'input, textarea, [contenteditable]:not([contenteditable="false"])';

/** Whether `target` is a text field of the page, not of a pane's xterm (whose helper textarea takes its keys). */
export function isPageTextField(target: EventTarget | null): boolean {
  return target instanceof Element && target.matches(TEXT_FIELD) && target.closest('.xterm') === null;
}

/** Watches `doc` for keys and focus in its text fields; returns the way to stop. */
export function watchPageTyping(doc: Document = document): () => void {
  const onEvent = (event: Event) => {
    if (isPageTextField(event.target)) typedElsewhere();
  };
  doc.addEventListener('keydown', onEvent, { capture: true });
  doc.addEventListener('focusin', onEvent, { capture: true });
  return () => {
    doc.removeEventListener('keydown', onEvent, { capture: true });
    doc.removeEventListener('focusin', onEvent, { capture: true });
  };
}
