// `baton serve`: the core host behind the web transport, until SIGINT/SIGTERM (or `core.shutdown`) stops every agent.
// `baton serve --socket` is the background core instead: serve-socket.ts.
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '../shared/contract.js';
import { openCoreHost } from './core/host.js';
import { packageRoot, packageVersion } from './core/paths.js';
import { writeServerInfo } from './core/store/server-info.js';
import { isLoopbackHost } from './core/transport/address.js';
import { newToken, weakTokenReason } from './core/transport/auth.js';
import { startWebServer } from './core/transport/http-server.js';
import { stopOnSignalsAndShutdown } from './serve-lifecycle.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  token?: string;
  /** Serve on an address other than loopback (`--allow-remote`): plain HTTP, so only with a warning. */
  allowRemote?: boolean;
}

const FALLBACK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baton</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 4em auto">
<h1>Baton is running</h1>
<p>The core host is serving its API on this address. The dashboard has not been built in this checkout:
run <code>npm run build</code>, then reload. Meanwhile the <code>baton</code> command line works against this server.</p>
</body></html>`;

export async function serve(options: ServeOptions): Promise<void> {
  if (!isLoopbackHost(options.host) && !options.allowRemote) throw new Error(remoteRefusal(options.host, options.port));
  const token = options.token ?? newToken();
  const weak = weakTokenReason(token);
  if (weak) throw new Error(weak);
  const version = packageVersion();
  const core = await openCoreHost({ dataDir: options.dataDir, env: process.env, version });
  const web = await startWebServer({
    core,
    host: options.host,
    port: options.port,
    token,
    staticDir: join(packageRoot(), 'dist', 'renderer'),
    fallbackPage: FALLBACK_PAGE,
  });
  await writeServerInfo(options.dataDir, {
    url: web.url,
    token,
    pid: process.pid,
    version,
    protocolVersion: PROTOCOL_VERSION,
  });
  if (!isLoopbackHost(options.host)) process.stderr.write(remoteWarning(options.host, web.port));
  // Before the address is printed: whoever reads it may stop the core at once (the build's code cache run does).
  stopOnSignalsAndShutdown(core, () => web.close());
  // The fragment never leaves the browser: the page reads the token from it and no request carries it in its URL.
  process.stdout.write(`Baton is serving ${options.dataDir}\nOpen ${web.url}/#token=${encodeURIComponent(token)}\n`);
}

// One line each: the command line prints the first line of an error.
function remoteRefusal(host: string, port: number): string {
  const p = port || 8080;
  return (
    `refusing to serve on ${host}: it is not a loopback address, and Baton speaks plain HTTP (the token, every keystroke ` +
    `and screen would cross the network readable). Keep Baton on 127.0.0.1 and tunnel to it instead: run ` +
    `\`baton serve --port ${p}\` on that machine and \`ssh -L ${p}:127.0.0.1:${p} <that machine>\` here, then open the ` +
    `printed address here (the local port must equal the remote one: Baton checks the Host header). To serve on ${host} ` +
    'anyway, pass --allow-remote'
  );
}

function remoteWarning(host: string, port: number): string {
  return (
    `baton: WARNING: serving on ${host} (--allow-remote): the traffic is plain HTTP, so anyone on the network path can ` +
    `read the token and every keystroke and screen, and can change them. Prefer Baton on 127.0.0.1 with an SSH tunnel: ` +
    `ssh -L ${port}:127.0.0.1:${port} <this machine>\n`
  );
}
