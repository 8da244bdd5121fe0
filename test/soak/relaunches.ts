// Relaunches of a client against the background core (`baton serve --socket`, the core the desktop app leaves
// running) while an agent floods its terminal. Each relaunch is a new connection with an empty view, as a new app
// window has: it attaches, rebuilds the screen in a headless xterm from the bytes (or the reset) it is sent, and once
// the flood pauses its tail must equal the core's mirror. The Electron window itself cannot run here (no binary).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import xtermHeadless from '@xterm/headless';
import { startCore, stopCore } from '../helpers/core.js';
import { tempDir, testEnv, waitFor } from '../helpers/server.js';
import type { SoakRow } from './table.js';

const FLOOD = 'i=0; while :; do if [ -e pause ]; then sleep 0.05; continue; fi; i=$((i+1)); echo "line $i"; done';

const tailLines = (text: string, n = 10): string[] =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-n);

function screenOf(term: InstanceType<typeof xtermHeadless.Terminal>): string {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
  return lines.join('\n');
}

export async function clientRelaunches(relaunches: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  const root = tempDir('baton-soak-relaunch-');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const core = await startCore(join(root, 'data'), testEnv(join(root, 'home')));
  let lost = 0;
  let mismatches = 0;
  try {
    const setup = await core.connect();
    const run = await setup.call('run.start', {
      name: 'flood',
      agents: [{ vendor: 'shell', label: 'flood', cwd, command: ['bash', '--noprofile', '--norc', '-c', FLOOD] }],
    });
    const agentId = run.agents[0]!.id;
    for (let i = 0; i < relaunches; i++) {
      rmSync(join(cwd, 'pause'), { force: true });
      const client = await core.connect();
      const { cols, rows } = await client.call('agent.screen', { agentId });
      const term = new xtermHeadless.Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
      let writes = Promise.resolve();
      const write = (data: string | Uint8Array) => {
        writes = writes.then(() => new Promise<void>((r) => term.write(data, r)));
      };
      try {
        await client.attach(
          agentId,
          { fromOffset: 0, visible: true, autoAck: true },
          { onData: (data) => write(data), onReset: (screen) => write(screen) },
        );
      } catch {
        lost++;
        client.close();
        continue;
      }
      writeFileSync(join(cwd, 'pause'), '');
      const same = await waitFor(
        async () => {
          await writes;
          const mirror = tailLines((await client.call('agent.screen', { agentId })).text);
          return mirror.length > 0 && mirror.join('\n') === tailLines(screenOf(term)).join('\n');
        },
        `relaunch ${i}: the rebuilt screen to equal the mirror`,
        20_000,
      ).catch(() => false);
      if (!same) mismatches++;
      term.dispose();
      client.close();
    }
    setup.close();
  } finally {
    await stopCore(core);
  }
  return {
    count: relaunches,
    ok: lost === 0 && mismatches === 0,
    figures: `${lost} lost panes, ${mismatches} tails unlike the core's mirror (new connection per relaunch; no Electron binary here)`,
  };
}
