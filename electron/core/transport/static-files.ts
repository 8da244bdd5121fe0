// The built dashboard, read from one directory. It holds no secret, so it needs no token (the page gets the token from
// its address fragment); anything outside the directory or unreadable is a 404.
import type { ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { SECURITY_HEADERS, replyText } from './replies.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface StaticFiles {
  dir: string;
  /** Served for `/` while the dashboard has not been built. */
  fallbackPage: string;
}

/** `path` is the decoded request path; `head` answers without a body. */
export async function serveFile(res: ServerResponse, path: string, head: boolean, files: StaticFiles): Promise<void> {
  const rel = path === '/' ? 'index.html' : path.slice(1);
  const file = normalize(join(files.dir, rel));
  if (!file.startsWith(files.dir + sep)) return replyText(res, 404, 'no such file');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    if (rel !== 'index.html') return replyText(res, 404, 'no such file');
    body = Buffer.from(files.fallbackPage);
  }
  if (res.destroyed) return;
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(body.length),
  });
  res.end(head ? undefined : body);
}
