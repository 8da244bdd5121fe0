// opencode's state from its own event stream (docs/attention.md, opencode): the TUI's server (`--port`, server.ts)
// publishes `session.status` (busy/idle) and `session.idle` (newer versions: `session.execution.*`), and
// `permission.*` when a tool waits for approval (1.18.33: `permission.asked`). Baton opens its own subscription to
// that stream, reconnecting while the agent lives (a stream asked for while the TUI starts is never answered:
// server.ts drops it and asks again).
import { z } from 'zod';
import { shortText, type AttentionFacts, type StateSignal } from '../../attention/signals.js';
import { validPort } from './follow.js';
import { openEvents } from './server.js';

const RECONNECT_MS = 500;
/** The process's own stream, and the wrapped one some versions serve instead ({directory, payload}). */
const EVENT_PATHS = ['/event', '/global/event'] as const;

const eventSchema = z.object({
  type: z.string().max(100),
  properties: z
    .object({
      status: z.object({ type: z.string().max(50) }).optional(),
      title: z.string().max(4000).optional(),
      permission: z.string().max(200).optional(),
      // 1.18.33's permission.asked: {permission: "bash", patterns, metadata: {command}, …}.
      metadata: z
        .object({ command: z.string().max(4000).optional() })
        .optional()
        .catch(undefined),
    })
    .optional(),
});

/** One event of the stream → a state, or null (most events say nothing about the state). */
export function opencodeSignal(data: string): StateSignal | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  if (raw && typeof raw === 'object' && 'payload' in raw && !('type' in raw))
    raw = (raw as { payload: unknown }).payload;
  const ev = eventSchema.safeParse(raw);
  if (!ev.success) return null;
  const { type, properties } = ev.data;
  switch (type) {
    case 'session.execution.started':
      return { state: 'working' };
    case 'session.execution.succeeded':
    case 'session.execution.interrupted':
    case 'session.execution.failed':
      return { state: 'waiting', turnEnd: true };
    case 'session.status':
      return properties?.status?.type === 'busy' || properties?.status?.type === 'retry'
        ? { state: 'working' }
        : properties?.status?.type === 'idle'
          ? { state: 'waiting' }
          : null;
    // 1.18.33 sends it right after `session.status` idle, for the same turn: no turn end of its own (a second one
    // would be a second notice); the change from working says the turn ended.
    case 'session.idle':
      return { state: 'waiting' };
    case 'permission.updated':
    case 'permission.asked': {
      const command = properties?.metadata?.command;
      const what = command && properties?.permission ? `${properties.permission}: ${command}` : command;
      return { state: 'asking', asks: shortText(properties?.title ?? what ?? properties?.permission) };
    }
    case 'permission.replied':
      return { state: 'working' };
    default:
      return null;
  }
}

export const OPENCODE_ATTENTION: AttentionFacts = {
  source: 'events',
  nativeStates: ['working', 'waiting', 'asking'],
  watch(hints, env, onSignal) {
    const port = validPort(hints.port);
    if (port === null) return () => undefined;
    let stopped = false;
    let close: (() => void) | null = null;
    let timer: NodeJS.Timeout | null = null;
    let attempt = 0;
    /** The path that answered: kept for reconnects. Until one has, they are tried in turn. */
    let answered: string | null = null;
    const connect = () => {
      if (stopped) return;
      const path = answered ?? EVENT_PATHS[attempt++ % EVENT_PATHS.length]!;
      const on = {
        open: () => (answered = path),
        data: (data: string) => {
          const s = opencodeSignal(data);
          if (s) onSignal(s);
        },
        close: () => {
          close = null;
          if (stopped) return;
          timer = setTimeout(connect, RECONNECT_MS);
          timer.unref();
        },
      };
      close = openEvents(port, env, on, path);
    };
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      close?.();
    };
  },
};
