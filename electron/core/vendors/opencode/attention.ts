// opencode's state from its own event stream (docs/attention.md, opencode): the TUI's server (`--port`, server.ts)
// publishes `session.status` (busy/idle), `session.idle`, and `permission.*` when a tool waits for approval. Baton
// opens its own subscription to that stream, reconnecting while the agent lives.
import { z } from 'zod';
import { shortText, type AttentionFacts, type StateSignal } from '../../attention/signals.js';
import { validPort } from './follow.js';
import { openEvents } from './server.js';

const RECONNECT_MS = 500;

const eventSchema = z.object({
  type: z.string().max(100),
  properties: z
    .object({
      status: z.object({ type: z.string().max(50) }).optional(),
      title: z.string().max(4000).optional(),
      permission: z.string().max(200).optional(),
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
    case 'session.status':
      return properties?.status?.type === 'busy'
        ? { state: 'working' }
        : properties?.status?.type === 'idle'
          ? { state: 'waiting' }
          : null;
    case 'session.idle':
      return { state: 'waiting', turnEnd: true };
    case 'permission.updated':
    case 'permission.asked':
      return { state: 'asking', asks: shortText(properties?.title ?? properties?.permission) };
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
    const connect = () => {
      if (stopped) return;
      close = openEvents(port, env, {
        open: () => undefined,
        data: (data) => {
          const s = opencodeSignal(data);
          if (s) onSignal(s);
        },
        close: () => {
          close = null;
          if (!stopped) {
            timer = setTimeout(connect, RECONNECT_MS);
            timer.unref();
          }
        },
      });
    };
    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      close?.();
    };
  },
};
