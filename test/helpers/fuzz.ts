// Malformed input for the web transport, from a seeded generator (a failure names its seed and index), and the
// drivers that throw it at a server: raw HTTP over node:net, messages over an authorized WebSocket. Counts are the
// caller's: `npm test` keeps them small, a soak run can raise them.
import { connect as netConnect } from 'node:net';
import WebSocket from 'ws';

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, items: readonly T[]): T => items[int(r, items.length)]!;
const bytes = (r: Rng, n: number) => Buffer.from(Array.from({ length: n }, () => int(r, 256)));
const printable = (r: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + int(r, 95))).join('');
const unicode = (r: Rng, n: number) =>
  Array.from({ length: n }, () =>
    String.fromCodePoint(
      pick(r, [int(r, 0x80), 0x80 + int(r, 0x780), 0x800 + int(r, 0xd000), 0x10000 + int(r, 0x1000)]),
    ),
  ).join('');

const BAD_TARGETS = [
  '%',
  '/%',
  '/%%',
  '/%zz',
  '/%E0%A4%A',
  '/assets/%',
  'http://[',
  'http://',
  'http://[::1',
  '*',
  '',
  '//evil/x',
  '/../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/..%2f..%2fetc%2fpasswd',
  '/%00',
  '/index.html%00.js',
  '/ws%',
  '/ws?token=%',
  '/?token=%',
  '/\u00ff',
  `/${'a'.repeat(20_000)}`,
];
const BAD_VALUES = [
  '%',
  '%%',
  '%zz',
  'baton_token=%',
  'baton_token=%E0%A4%A; a=b',
  '=;=;=',
  '\u00ff\u00fe',
  'http://[',
  'null',
  'javascript:x',
  'Bearer',
  'Bearer %',
  '',
];
const HEADER_NAMES = [
  'Host',
  'Cookie',
  'Origin',
  'Authorization',
  'Content-Length',
  'Transfer-Encoding',
  'Connection',
  'Upgrade',
  'Sec-WebSocket-Key',
  'Sec-WebSocket-Version',
  'Sec-WebSocket-Protocol',
  'Expect',
  'Range',
  'If-None-Match',
];

/** One malformed (or oddly formed) HTTP request as it goes on the wire; `host` is the server's own `host:port`. */
export function malformedHttp(r: Rng, host: string): Buffer {
  const method = pick(r, [
    'GET',
    'GET',
    'HEAD',
    'POST',
    'OPTIONS',
    'get',
    'G\u00e9T',
    'CONNECT',
    printable(r, 1 + int(r, 8)),
  ]);
  const target =
    r() < 0.6
      ? pick(r, BAD_TARGETS)
      : `/${encodeURI(unicode(r, int(r, 12)))}${r() < 0.3 ? `?${printable(r, int(r, 20))}` : ''}`;
  const version = pick(r, [
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.1',
    'HTTP/1.0',
    'HTTP/2.0',
    'HTTP/1.1 extra',
    '',
  ]);
  const headers: string[] = r() < 0.1 ? [] : [`Host: ${r() < 0.85 ? host : pick(r, BAD_VALUES)}`];
  for (let i = int(r, 5); i > 0; i--) {
    const name = r() < 0.85 ? pick(r, HEADER_NAMES) : pick(r, ['Bad Header', 'X\u0000Y', ':', '', printable(r, 6)]);
    const value = r() < 0.5 ? pick(r, BAD_VALUES) : r() < 0.5 ? printable(r, int(r, 40)) : unicode(r, int(r, 10));
    headers.push(r() < 0.9 ? `${name}: ${value}` : `${name}${value}`);
  }
  if (r() < 0.8) headers.push('Connection: close');
  if (r() < 0.05) for (let i = 0; i < 120; i++) headers.push(`X-Many-${i}: ${'v'.repeat(200)}`);
  const kind = int(r, 10);
  if (kind === 0) return bytes(r, 1 + int(r, 600));
  const head = `${method} ${target} ${version}\r\n${headers.join('\r\n')}\r\n\r\n`;
  if (kind === 1) return Buffer.from(head.slice(0, int(r, head.length)), 'latin1');
  if (kind === 2) return Buffer.concat([Buffer.from(head, 'latin1'), bytes(r, int(r, 200))]);
  const sep = pick(r, ['\r\n', '\n', '\r', '\r\n\r\n']);
  return Buffer.from(head.replaceAll('\r\n', kind === 3 ? sep : '\r\n'), kind === 4 ? 'latin1' : 'utf8');
}

export type SocketInput = { binary: false; data: string } | { binary: true; data: Buffer };

// Methods whose every argument is checked and whose effect is a lookup: malformed calls are answered, none starts,
// stops or deletes anything the test relies on.
const LOOKUPS = [
  'run.get',
  'run.list',
  'run.screens',
  'run.events',
  'run.handle',
  'agent.screen',
  'agent.attach',
  'agent.detach',
  'agent.write',
  'agent.resize',
  'handle.inspect',
  'sessions.list',
  'nope',
  '__proto__',
  'constructor',
  'toString',
];

function junkValue(r: Rng, depth = 0): unknown {
  switch (int(r, depth > 3 ? 7 : 10)) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return pick(r, [-1, 0, 1.5, 1e308, -0, 2 ** 53, 4294967296]);
    case 3:
      return printable(r, int(r, 30));
    case 4:
      return unicode(r, int(r, 10));
    case 5:
      return pick(r, ['baton1.', 'baton1.AAAA', '{"v":1}', 'agt_0000000000000000', 'trm_0000000000000000', '', '../']);
    case 6:
      return 'x'.repeat(int(r, 100_000));
    case 7:
      return Array.from({ length: int(r, 4) }, () => junkValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = int(r, 4); i > 0; i--)
        o[
          pick(r, [
            'run',
            'agentId',
            'terminalId',
            'text',
            'data',
            'cols',
            'rows',
            'query',
            'fromOffset',
            '__proto__',
            printable(r, 5),
          ])
        ] = junkValue(r, depth + 1);
      return o;
    }
  }
}

/** One malformed (or wrong-typed) message for an authorized WebSocket. */
export function malformedMessage(r: Rng): SocketInput {
  const text = (data: string): SocketInput => ({ binary: false, data });
  const request = { t: 'req', id: int(r, 1_000_000), method: pick(r, LOOKUPS), params: junkValue(r) };
  switch (int(r, 12)) {
    case 0:
      return { binary: true, data: bytes(r, int(r, 300)) };
    case 1:
      return text(unicode(r, int(r, 60)));
    case 2: {
      const valid = JSON.stringify(request);
      return text(valid.slice(0, int(r, valid.length)));
    }
    case 3:
      return text(JSON.stringify(junkValue(r)) ?? 'undefined');
    case 4:
      return text(JSON.stringify({ ...request, id: pick(r, ['1', -1, 1.5, null, 1e300, [], {}]) }));
    case 5:
      return text(JSON.stringify({ ...request, method: junkValue(r) }));
    case 6:
      return r() < 0.5
        ? text(JSON.stringify({ t: 'ack', agentId: junkValue(r), terminalId: junkValue(r), offset: junkValue(r) }))
        : text(JSON.stringify({ t: 'flow', views: junkValue(r), acks: pick(r, [[], [junkValue(r)], junkValue(r)]) }));
    case 7:
      return text(JSON.stringify({ ...request, extra: junkValue(r) }));
    case 8: {
      const n = 1000 + int(r, 20_000);
      return text(`${'['.repeat(n)}${']'.repeat(r() < 0.5 ? n : int(r, n))}`);
    }
    case 9:
      return text(JSON.stringify({ ...request, t: pick(r, ['res', 'evt', 'out', 'REQ', '', null]) }));
    case 10:
      return r() < 0.02 ? text(`"${'y'.repeat(5 << 20)}"`) : text(JSON.stringify(request));
    default:
      return text(JSON.stringify(request));
  }
}

/**
 * Writes `data` on a fresh connection and returns whatever came back before the server closed it. With `idleMs`,
 * a connection quiet that long is half-closed, so that the server answers (or drops) a request cut short; without
 * it the request must end the connection itself (`Connection: close`). A half-close aborts a response still being
 * prepared, so requests whose answer matters use no `idleMs`.
 */
export function rawExchange(
  port: number,
  data: Buffer | string,
  options: { idleMs?: number; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    const quiet = () => {
      if (options.idleMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(() => socket.end(), options.idleMs);
    };
    const done = () => {
      clearTimeout(timer);
      clearTimeout(idle);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, options.timeoutMs ?? 15_000);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      quiet();
    });
    socket.on('close', done);
    socket.on('error', done);
    socket.write(data, quiet);
  });
}

/** The status of the first response in a raw reply, or null when the server closed without one. */
export function statusOf(reply: string): number | null {
  const m = /^HTTP\/1\.1 (\d{3}) /.exec(reply);
  return m ? Number(m[1]) : null;
}

/** `count` malformed requests, `parallel` at a time; returns the status of each (null: closed without a reply). */
export async function fuzzHttp(port: number, count: number, seed: number, parallel = 8): Promise<(number | null)[]> {
  const r = rng(seed);
  const inputs = Array.from({ length: count }, () => malformedHttp(r, `127.0.0.1:${port}`));
  const statuses: (number | null)[] = new Array<number | null>(count).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++)
      statuses[i] = statusOf(await rawExchange(port, inputs[i]!, { idleMs: 50, timeoutMs: 5000 }));
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

export interface SocketFuzzReport {
  /** Close codes the server chose, by code. */
  closes: Map<number, number>;
  /** Error codes of the replies, by code. */
  errors: Map<string, number>;
  /** What went wrong (a closing code outside the protocol's, an internal error, no answer): empty when all is well. */
  problems: string[];
}

/**
 * Sends `count` malformed messages on authorized sockets (`open` makes one). After each, a `run.list` on the same
 * socket must be answered, unless the server closed the socket with a code, in which case the next message gets
 * a new socket.
 */
export async function fuzzSocket(
  open: () => Promise<WebSocket>,
  count: number,
  seed: number,
): Promise<SocketFuzzReport> {
  const r = rng(seed);
  const report: SocketFuzzReport = { closes: new Map(), errors: new Map(), problems: [] };
  const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
  let ws: WebSocket | null = null;
  let pending: { id: number; settle: (outcome: 'answered' | number) => void } | null = null;
  for (let i = 0; i < count; i++) {
    const input = malformedMessage(r);
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      ws = await open();
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { t?: string; id?: number; ok?: boolean; error?: { code: string } };
        if (m.t !== 'res') return;
        if (m.ok === false && m.error) bump(report.errors, m.error.code);
        if (m.ok === false && m.error?.code === 'internal')
          report.problems.push(`message ${i} (seed ${seed}): internal error`);
        if (pending && m.id === pending.id) pending.settle('answered');
      });
      ws.on('close', (code) => pending?.settle(code));
      ws.on('error', () => undefined);
    }
    const sentinel = 2_000_000 + i;
    const outcome = await new Promise<'answered' | number | 'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), 15_000);
      pending = { id: sentinel, settle: (o) => (clearTimeout(timer), resolve(o)) };
      ws!.send(input.data, { binary: input.binary });
      if (ws!.readyState === WebSocket.OPEN)
        ws!.send(JSON.stringify({ t: 'req', id: sentinel, method: 'run.list', params: {} }));
    });
    pending = null;
    if (outcome === 'timeout') report.problems.push(`message ${i} (seed ${seed}): neither answered nor closed`);
    else if (outcome !== 'answered') {
      bump(report.closes, outcome);
      if (![1003, 1007, 1009].includes(outcome))
        report.problems.push(`message ${i} (seed ${seed}): closed with ${outcome}`);
      ws = null;
    }
  }
  ws?.close();
  return report;
}
