// Shows a notice that an agent needs the user through the browser's Notification API (web mode; in the desktop
// window it becomes an OS notification), only once the user allowed it. Clicking it focuses the agent's pane.
import type { NeedNotice } from '../../shared/attention-policy.js';
import { goToAgent } from './go-to-agent.js';

export type NotifyPermission = 'default' | 'granted' | 'denied' | 'unsupported';

export function notifyPermission(): NotifyPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser (after the user pressed the opt-in control: browsers allow asking only then). */
export async function askNotifyPermission(): Promise<NotifyPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

export function showNotice(notice: NeedNotice): void {
  if (notifyPermission() !== 'granted') return;
  // One per agent on screen at a time: a newer turn's notice replaces the older one (same tag).
  const note = new Notification(notice.title, { body: notice.body, tag: `baton-${notice.agentId}` });
  note.onclick = () => {
    window.focus();
    note.close();
    void goToAgent(notice.runId, notice.agentId);
  };
}
