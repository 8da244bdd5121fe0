// `baton serve`: the core host behind the web transport, until SIGINT/SIGTERM stops every agent.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCoreHost } from './core/host.js';
import { packageRoot, packageVersion, serverFile } from './core/paths.js';
import { writeFileAtomic } from './core/store/atomic-file.js';
import { newToken } from './core/transport/auth.js';
import { startWebServer } from './core/transport/http-server.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  token?: string;
}

const FALLBACK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baton</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 4em auto">
<h1>Baton is running</h1>
<p>The core host is serving its API on this address. The dashboard has not been built in this checkout:
run <code>npm run build</code>, then reload. Meanwhile the <code>baton</code> command line works against this server.</p>
</body></html>`;

export async function serve(options: ServeOptions): Promise<void> {
  const token = options.token ?? newToken();
  if (token.length < 22) throw new Error('BATON_TOKEN must be at least 22 characters (128 bits)');
  const core = await openCoreHost({ dataDir: options.dataDir, env: process.env, version: packageVersion() });
  const web = await startWebServer({
    core,
    host: options.host,
    port: options.port,
    token,
    staticDir: join(packageRoot(), 'dist', 'renderer'),
    fallbackPage: FALLBACK_PAGE,
  });
  await writeFileAtomic(serverFile(options.dataDir), JSON.stringify({ url: web.url, token, pid: process.pid }), 0o600);
  process.stdout.write(`Baton is serving ${options.dataDir}\nOpen ${web.url}/?token=${token}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`baton: ${signal}: snapshotting and stopping every agent…\n`);
    await web.close();
    await core.close();
    rmSync(serverFile(options.dataDir), { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
}
