// `baton serve`: the core host and the web dashboard, until a signal stops it; with --socket, the background core.
import { resolve } from 'node:path';
import { DATA_DIR_OPTION, type CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';

export const serveCommand: CommandSpec = {
  name: 'serve',
  args: [],
  summary: 'run the core host and the web dashboard (or, with --socket, the background core)',
  details:
    'Runs the core host and the web dashboard until Ctrl-C (or SIGTERM), which snapshots and stops every agent. ' +
    'It prints the address to open, token included, and writes it to server.json (mode 0600) in the data ' +
    'directory, where the other commands find it. BATON_TOKEN, when set, is the token to use; a weak one is refused (at least 22 printable ASCII characters, 10 different, about 128 bits). ' +
    'With --socket it serves no page and opens no port: the same core listens on a socket (mode 0600) in the data ' +
    'directory, as the desktop app runs it in the background, and the other commands find it the same way.',
  options: [
    { name: 'port', value: 'N', help: 'the port to listen on (default: $BATON_PORT, else any free port)' },
    {
      name: 'host',
      value: 'ADDRESS',
      help: 'the address to listen on (default: 127.0.0.1; another than loopback needs --allow-remote)',
    },
    {
      name: 'allow-remote',
      help: 'serve on a --host other than loopback, in plain HTTP (prefer an SSH tunnel to 127.0.0.1)',
    },
    {
      name: 'socket',
      value: 'PATH',
      optionalValue: true,
      directory: true,
      help: 'be the background core: listen on a socket (default: core.sock in the data directory; a named pipe on Windows) instead of a port',
    },
    {
      ...DATA_DIR_OPTION,
      help: 'where runs, snapshots and server.json are kept (default: $BATON_HOME, else ~/.baton)',
    },
  ],
  example: 'serve --port 4100',
  async run({ args, dataDir, env }) {
    const token = env.BATON_TOKEN;
    if (args.has('socket')) {
      for (const web of ['port', 'host', 'allow-remote'])
        if (args.has(web)) throw new UsageError(`--${web} is for web mode; --socket serves no port`);
      const socket = args.value('socket') || undefined;
      // Loaded only here: the core host is heavy and no other command needs it.
      const { serveSocket } = await import('../../serve-socket.js');
      await serveSocket({ dataDir, ...(socket ? { socket: resolvePath(socket) } : {}), ...(token ? { token } : {}) });
      return 'keeps-running';
    }
    const portText = args.value('port') ?? env.BATON_PORT ?? '0';
    const port = Number(portText);
    const from = args.has('port') ? '--port' : 'BATON_PORT';
    if (!/^\d+$/.test(portText) || port > 65535)
      throw new UsageError(`${from} must be a port number (0 to 65535), not '${portText.slice(0, 20)}'`);
    const { serve } = await import('../../serve.js');
    await serve({
      host: args.value('host') ?? '127.0.0.1',
      port,
      dataDir,
      allowRemote: args.has('allow-remote'),
      ...(token ? { token } : {}),
    });
    return 'keeps-running';
  },
};

/** A pipe name stays as given; a socket path is made absolute, as server.json must name it for every client. */
function resolvePath(path: string): string {
  return path.startsWith('\\\\') ? path : resolve(path);
}
