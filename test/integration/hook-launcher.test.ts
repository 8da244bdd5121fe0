// The hook as a vendor's CLI runs it (electron/core/attention/hook-launcher.ts, the built dist/electron/cli/hook.cjs):
// in the agent's environment, which is the user's. Node options and extra CA certificates set there must neither slow
// the hook down, print on its standard error (a vendor may show that to the user) nor stop the report.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AttentionService } from '../../electron/core/attention/attention-service.js';
import { defaultHookLauncher } from '../../electron/core/attention/hook-launcher.js';
import type { RunRepository } from '../../electron/core/runs/run-repository.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import type { EventName, EventPayload } from '../../shared/contract.js';
import { ROOT, waitFor } from '../helpers/server.js';

const AGENT = 'agt_aaaaaaaaaaaaaaaa';
const RUN = 'run_aaaaaaaaaaaaaaaa';
const BUILT_HOOK = join(ROOT, 'dist', 'electron', 'cli', 'hook.cjs');
/** What a user's shell may export: a preload that does not exist here, and a certificate file. */
const USER_NODE_ENV = {
  NODE_OPTIONS: '--require /nonexistent/preload.js',
  NODE_EXTRA_CA_CERTS: '/nonexistent/corporate-ca.pem',
};

let dir = '';
let service: AttentionService | null = null;

afterEach(async () => {
  await service?.close();
  service = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runHook(
  argv: string[],
  env: NodeJS.ProcessEnv,
  input: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe("the hook in the user's environment", () => {
  it('reports with NODE_OPTIONS and NODE_EXTRA_CA_CERTS set, silently; a plain node start would not', async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-hook-launcher-'));
    const states: EventPayload<'agent.state'>[] = [];
    const announce = <E extends EventName>(name: E, payload: EventPayload<E>) => {
      if (name === 'agent.state') states.push(payload as EventPayload<'agent.state'>);
    };
    // The sources' launcher names the sources' folder; the hook that runs is the one `npm run build` made.
    const launcher = defaultHookLauncher();
    expect(launcher.at(-1)).toMatch(/[\\/]cli[\\/]hook\.cjs$/);
    const argv = [...launcher.slice(0, -1), BUILT_HOOK, 'claude'];
    service = new AttentionService({} as RunRepository, announce, {}, argv.slice(0, -1));
    await service.open(dir);
    const { env: hookEnv } = service.prepare(RUN, AGENT, createVendors().get('claude')!);
    const env = { PATH: process.env.PATH, ...USER_NODE_ENV, ...hookEnv };
    const ask = JSON.stringify({
      hook_event_name: 'Notification',
      message: 'May I?',
      notification_type: 'permission_prompt',
    });

    // Without the launcher's clean start, Node fails before the hook's first line: the report never arrives.
    const plain = await runHook([process.execPath, BUILT_HOOK, 'claude'], env, ask);
    expect(plain.stderr).toContain('/nonexistent/preload.js');
    expect(states.filter((s) => s.agentId === AGENT && s.attention.state === 'asking')).toEqual([]);

    const hooked = await runHook(argv, env, ask);
    expect(hooked).toEqual({ code: 0, stderr: '' });
    await waitFor(() => states.some((s) => s.agentId === AGENT && s.attention.state === 'asking'), 'the report', 5000);
  });
});
