// Small pure helpers the components share: relative times, short ids, error text and fields.
import { BatonError } from '../../shared/contract.js';

/** "just now", "5 min ago", "3 h ago", "2 d ago", else the date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} d ago`;
  return new Date(then).toLocaleDateString();
}

/** A vendor session id shortened for display: its first 8 characters and an ellipsis. */
export function shortId(id: string | null): string {
  if (!id) return '—';
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}

/** The message without its leading `<field>: `, for showing right beside that field. */
export function messageForField(message: string, field: string | undefined): string {
  return field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}

/** What to do about a handle the core refused, by the field it names: the message says what failed, this says what next. */
export function handleAdvice(field: string | undefined): string {
  const agent = agentField(field);
  if (agent?.key === 'cwd')
    return `Agent ${agent.row + 1}'s working directory must exist on this machine, be yours and be writable by you alone: fix it, or resume that agent's own handle elsewhere.`;
  if (agent?.key === 'sessionId')
    return `Agent ${agent.row + 1}'s session id is damaged: copy the handle again from where you kept it.`;
  if (agent?.key === 'vendor') return `This Baton cannot run agent ${agent.row + 1}'s vendor.`;
  if (field === 'v') return 'The handle comes from a newer Baton: update this one.';
  return 'Copy the whole handle again (it starts with baton1.) and paste it here.';
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The field a failed request names (`name`, `cwd`, `agents[1].cwd` or `agents.1.cwd`), if any. */
export function errorField(err: unknown): string | undefined {
  return err instanceof BatonError ? err.field : undefined;
}

/** Splits an agent field (`agents[1].cwd`, `agents.1.cwd`) into its row index and sub-field. */
export function agentField(field: string | undefined): { row: number; key: string | undefined } | null {
  const m = field ? /^agents(?:\[(\d+)\]|\.(\d+))(?:\.(\w+))?/.exec(field) : null;
  if (!m) return null;
  return { row: Number(m[1] ?? m[2]), key: m[3] };
}
