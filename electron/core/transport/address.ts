// Where the server may be reached: the bound address (loopback unless the user allows otherwise), the Host values
// that name it (anything else may be DNS rebinding) and our own Origin. Checked on every request, files included.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Refusal } from './auth.js';

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const version = isIP(host);
  if (version === 4) return host.startsWith('127.');
  if (version === 6) return /^(::1|(0{1,4}:){7}0{0,3}1|::ffff:127\.[\d.]+)$/i.test(host);
  return false;
}

const bracketed = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** The Host values that name the bound address; on a wildcard address, every address of this machine's interfaces. */
export function allowedHosts(host: string, port: number): Set<string> {
  const names = new Set([host]);
  if (host === '127.0.0.1' || host === '::1' || host === 'localhost') names.add('localhost');
  if (host === '0.0.0.0' || host === '::') {
    names.add('localhost');
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) if (host === '::' || a.family === 'IPv4') names.add(a.address);
    }
  }
  return new Set([...names].map((name) => `${bracketed(name).toLowerCase()}:${port}`));
}

export function checkAddress(req: IncomingMessage, hosts: Set<string>): Refusal | null {
  const host = req.headers.host;
  if (!host || !hosts.has(host.toLowerCase()))
    return { status: 403, reason: 'Host is not the address Baton is bound to' };
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.has(originHost(origin))) return { status: 403, reason: 'foreign Origin' };
  return null;
}

function originHost(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' ? url.host.toLowerCase() : '';
  } catch {
    return '';
  }
}
