// The opencode TUI's own server (docs/vendors.md §6): `--port <n>` makes the TUI serve its API on 127.0.0.1.
//   GET /session  — the sessions of the project, as {id, directory, parentID?, time:{created, updated}, …}
//   GET /event    — server-sent events of THIS process (session.created, message.updated, …)
// Basic auth with OPENCODE_SERVER_PASSWORD (user OPENCODE_SERVER_USERNAME or `opencode`) when it is set.
import { request, type IncomingMessage } from 'node:http';
import type { VendorEnv } from '../adapter.js';
import { OPENCODE_SESSION_ID } from './store.js';

/** What Baton needs from a session object of the server (list items and event payloads). */
export interface ServerSession {
  id: string;
  directory: string | null;
  parentId: string | null;
  created: number | null;
}

export function parseServerSession(v: unknown): ServerSession | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as { id?: unknown; directory?: unknown; parentID?: unknown; time?: { created?: unknown } };
  if (typeof s.id !== 'string' || !OPENCODE_SESSION_ID.test(s.id)) return null;
  return {
    id: s.id,
    directory: typeof s.directory === 'string' ? s.directory : null,
    parentId: typeof s.parentID === 'string' && s.parentID !== '' ? s.parentID : null,
    created: s.time && typeof s.time.created === 'number' ? s.time.created : null,
  };
}

/** What one server-sent event says about this process's sessions. */
export type OwnEvent =
  { kind: 'session'; session: ServerSession; created: boolean } | { kind: 'prompt'; sessionId: string } | null;

/** Reads one event of `GET /event` (the instance's bus; the `/global/event` wrapping `{payload}` is accepted too). */
export function parseEvent(data: string): OwnEvent {
  let ev: unknown;
  try {
    ev = JSON.parse(data);
  } catch {
    return null;
  }
  if (ev && typeof ev === 'object' && 'payload' in ev && !('type' in ev)) ev = (ev as { payload: unknown }).payload;
  if (!ev || typeof ev !== 'object') return null;
  const { type, properties } = ev as { type?: unknown; properties?: { info?: unknown } };
  if (typeof type !== 'string' || !properties || typeof properties !== 'object') return null;
  if (type === 'session.created' || type === 'session.updated') {
    const session = parseServerSession(properties.info);
    return session ? { kind: 'session', session, created: type === 'session.created' } : null;
  }
  if (type === 'message.updated') {
    const info = properties.info as { sessionID?: unknown; role?: unknown } | undefined;
    if (
      info &&
      info.role === 'user' &&
      typeof info.sessionID === 'string' &&
      OPENCODE_SESSION_ID.test(info.sessionID)
    ) {
      return { kind: 'prompt', sessionId: info.sessionID };
    }
  }
  return null;
}

function authHeaders(env: VendorEnv): Record<string, string> {
  const password = env.OPENCODE_SERVER_PASSWORD;
  if (!password) return {};
  const user = env.OPENCODE_SERVER_USERNAME || 'opencode';
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/** `GET <path>` of the server on `port` as JSON; rejects on a non-200 answer, a body over 32 MiB or `timeoutMs`. */
export function getJson(port: number, path: string, env: VendorEnv, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        headers: { accept: 'application/json', ...authHeaders(env) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 32 * 1024 * 1024) req.destroy(new Error('response too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * How long the server may take to answer `GET /event` with its headers. opencode 1.18.33 takes connections on its port
 * before it has started (8–25 s), and a stream asked for then is never answered, not even when the server is up: such
 * a request is dropped and the caller opens another (seen with the real CLI, test/compat/attention.test.ts).
 */
export const EVENTS_OPEN_TIMEOUT_MS = 3000;

/**
 * Opens `GET /event`; calls `onOpen` once the server accepted it and `onData` per event, and `close` once when it ends
 * (or was never answered within `openTimeoutMs`). Returns a closer.
 */
export function openEvents(
  port: number,
  env: VendorEnv,
  on: { open(): void; data(data: string): void; close(): void },
  path = '/event',
  openTimeoutMs = EVENTS_OPEN_TIMEOUT_MS,
): () => void {
  let closed = false;
  let res: IncomingMessage | null = null;
  let unanswered: NodeJS.Timeout | null = null;
  const finish = () => {
    if (unanswered) clearTimeout(unanswered);
    if (closed) return;
    closed = true;
    on.close();
  };
  const req = request(
    {
      host: '127.0.0.1',
      port,
      path,
      method: 'GET',
      headers: { accept: 'text/event-stream', ...authHeaders(env) },
    },
    (r) => {
      res = r;
      if (unanswered) clearTimeout(unanswered);
      if (r.statusCode !== 200) {
        r.resume();
        req.destroy();
        return;
      }
      on.open();
      r.setEncoding('utf8');
      let buf = '';
      r.on('data', (chunk: string) => {
        buf += chunk.replace(/\r\n?/g, '\n');
        for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('\n');
          if (data !== '') on.data(data);
        }
        if (buf.length > 8 * 1024 * 1024) req.destroy();
      });
      r.on('end', finish);
      r.on('close', finish);
      r.on('error', finish);
    },
  );
  req.on('error', finish);
  req.on('close', () => {
    if (!res) finish();
  });
  unanswered = setTimeout(() => req.destroy(), openTimeoutMs);
  unanswered.unref();
  req.end();
  return () => {
    req.destroy();
    finish();
  };
}
