// One line (plus stack) on stderr per failed request, with every secret the transport knows scrubbed out.
// Errors come from deep in the core, which cannot know what is secret: a handle or the token may sit in a message,
// a path or a value, so the text is scrubbed here, at the one place failures are written.

const HANDLE = /baton1\.[A-Za-z0-9_-]+/g;
const secrets = new Set<string>();

/** The token of a running server: scrubbed from every failure logged until `forgetSecret`. */
export function keepSecret(secret: string): void {
  secrets.add(secret);
}

export function forgetSecret(secret: string): void {
  secrets.delete(secret);
}

export function scrub(text: string): string {
  let out = text.replace(HANDLE, 'baton1.[handle]');
  for (const secret of secrets) out = out.split(secret).join('[token]');
  return out;
}

/** Logs one failure of one request; the request itself is answered by the caller. */
export function reportFailure(where: string, err: unknown): void {
  let detail: string;
  try {
    detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  } catch {
    detail = 'a value that cannot be printed';
  }
  process.stderr.write(`baton: internal error in ${scrub(where)}: ${scrub(detail)}\n`);
}
