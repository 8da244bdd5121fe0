// The line a pane shows at its top while its earlier output loads from the core (pane-history.ts).

const NOTICE_CLASS = 'bt-history-notice';

/** Shows or removes the pane's "loading earlier output…" line, over the top of its xterm. */
export function showHistoryNotice(host: HTMLElement, loading: boolean): void {
  const existing = host.querySelector(`:scope > .${NOTICE_CLASS}`);
  if (!loading) {
    existing?.remove();
    return;
  }
  if (existing) return;
  const notice = document.createElement('div');
  notice.className = NOTICE_CLASS;
  notice.setAttribute('role', 'status');
  notice.textContent = 'loading earlier output…';
  host.appendChild(notice);
}
