// Page reloads while an agent floods its pane: after every reload the pane is back, and once the flood pauses its
// tail equals the core's mirror line for line. The flood is a shell loop printing as fast as bash can, paused and
// resumed by a flag file so each comparison reads a settled screen.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../e2e/browser.js';
import { startServer, tempDir, testEnv, waitFor } from '../helpers/server.js';
import type { SoakRow } from './table.js';

const FLOOD = 'i=0; while :; do if [ -e pause ]; then sleep 0.05; continue; fi; i=$((i+1)); echo "line $i"; done';

const lines = (text: string): string[] =>
  text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');

export async function reloadsWhileFlooding(reloads: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  if (!existsSync('/usr/bin/chromium')) return { count: 0, ok: false, figures: 'no Chromium at /usr/bin/chromium' };
  const root = tempDir('baton-soak-reload-');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
  const browser = await launchBrowser();
  let lostPanes = 0;
  let mismatches = 0;
  try {
    const client = await server.connect();
    const run = await client.call('run.start', {
      name: 'flood',
      agents: [{ vendor: 'shell', label: 'flood', cwd, command: ['bash', '--noprofile', '--norc', '-c', FLOOD] }],
    });
    const agentId = run.agents[0]!.id;
    const { page } = browser;
    await page.goto(`${server.url}/#token=${server.token}`);
    const rows = page.getByRole('region', { name: 'flood', exact: true }).locator('.xterm-rows');
    const paneText = async () => ((await rows.count()) === 0 ? '' : await rows.innerText());
    for (let i = 0; i < reloads; i++) {
      if (i > 0) await page.reload();
      await page
        .getByRole('navigation', { name: 'Run history' })
        .getByRole('button', { name: 'flood', exact: true })
        .click();
      const back = await waitFor(
        async () => /line \d+/.test(await paneText()),
        `the pane after reload ${i}`,
        20_000,
      ).catch(() => false);
      if (!back) {
        lostPanes++;
        continue;
      }
      writeFileSync(join(cwd, 'pause'), '');
      const settled = await waitFor(
        async () => {
          const mirror = lines((await client.call('agent.screen', { agentId })).text).slice(-10);
          const shown = lines(await paneText()).slice(-10);
          return mirror.length > 0 && mirror.join('\n') === shown.join('\n');
        },
        `the pane to equal the mirror after reload ${i}`,
        20_000,
      ).catch(() => false);
      if (!settled) mismatches++;
      rmSync(join(cwd, 'pause'), { force: true });
    }
    client.close();
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await server.exited;
  }
  return {
    count: reloads,
    ok: lostPanes === 0 && mismatches === 0,
    figures: `${lostPanes} lost panes, ${mismatches} tails unlike the core's mirror`,
  };
}
