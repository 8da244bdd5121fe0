// The adapters of the vendors whose id Baton mints (Copilot, Gemini, Qwen: one definition helper builds them), run
// through the same cases over a table (minted-id-vendors.ts): facts, exists, listing, spawn, resume planning and
// follow. What only one of them does stays in its own <vendor>-adapter.test.ts.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentContext, SessionObservation, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { COPILOT_FACTS } from '../../electron/core/vendors/copilot/index.js';
import { GEMINI_FACTS } from '../../electron/core/vendors/gemini/index.js';
import { QWEN_FACTS } from '../../electron/core/vendors/qwen/index.js';
import { createVendors, resolveBin, type Vendors } from '../../electron/core/vendors/registry.js';
import { MINTED_ID_ROWS, type MintedIdRow } from './minted-id-vendors.js';

const FACTS = { copilot: COPILOT_FACTS, gemini: GEMINI_FACTS, qwen: QWEN_FACTS };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function ctx(over: Partial<AgentContext> = {}): AgentContext {
  return { runName: 'task-42', label: 'remember', cwd: '/home/u/proj', args: [], command: null, ...over };
}

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(MINTED_ID_ROWS.map((row) => [row.vendor, row] as const))(
  '%s adapter (minted id)',
  (vendor, row: MintedIdRow) => {
    const SAMPLE_ID = row.sampleId;
    const BIN_ENV = `BATON_${vendor.toUpperCase()}_BIN`;
    let tmp: string;
    let home: string;
    let env: Record<string, string>;
    let vendors: Vendors;
    let adapter: VendorAdapter;
    /** The argv that starts a session under `id`, named as the vendor names sessions. */
    const startArgv = (id: string, args: string[] = []) => [
      vendor,
      '--session-id',
      id,
      ...(row.named ? ['-n', 'task-42/remember'] : []),
      ...args,
    ];

    beforeEach(async () => {
      tmp = await realpath(await mkdtemp(join(tmpdir(), `baton-${vendor}-`)));
      ({ env, home } = await row.setup(tmp));
      vendors = createVendors();
      adapter = vendors.get(vendor)!;
    });

    afterEach(async () => {
      await rm(tmp, { recursive: true, force: true });
    });

    describe('facts', () => {
      it('has the vendor facts as data', () => {
        expect(adapter.vendor).toBe(vendor);
        expect(vendors.get(vendor)).toBe(adapter);
        const p = adapter.sessionIdPattern!;
        for (const id of row.accepts) expect(p.test(id), id).toBe(true);
        for (const id of row.refuses) expect(p.test(id), id).toBe(false);
        expect(adapter.submitDelayMs).toBe(row.submitDelayMs);
        expect(adapter.binEnvVar).toBe(BIN_ENV);
        expect(adapter.defaultBin({})).toBe(vendor);
        expect(adapter.versionArgs).toEqual(['--version']);
        expect(adapter.resumeCommand(SAMPLE_ID)).toEqual([vendor, ...row.resumeArgs(SAMPLE_ID)]);
        expect(FACTS[vendor].sessionErrorExitCode).toBe(row.sessionErrorExitCode);
      });

      it('recognises the real error texts', () => {
        for (const t of row.errorTexts)
          expect(
            adapter.resumeErrorTexts.some((r) => r.test(t)),
            t,
          ).toBe(true);
        for (const t of row.notErrors)
          expect(
            adapter.resumeErrorTexts.some((r) => r.test(t)),
            t,
          ).toBe(false);
      });
    });

    describe('exists', () => {
      it('is false for unknown ids, bad ids and a missing store', async () => {
        for (const id of row.notFound(SAMPLE_ID)) expect(await adapter.exists(id, '/home/u/proj', env), id).toBe(false);
        expect(await adapter.exists(SAMPLE_ID, '/home/u/proj', { HOME: join(tmp, 'nohome') })).toBe(false);
      });

      // Copilot's sessions are global: its own test finds one from any directory.
      if (row.perProject) {
        it('is per project: the same id from another directory is not found', async () => {
          expect(await adapter.exists(SAMPLE_ID, '/home/u/other', env)).toBe(false);
        });

        it('finds a session under the realpath of a cwd given through a symlink', async () => {
          const real = join(tmp, 'real proj');
          await mkdir(real);
          await symlink(real, join(tmp, 'link'));
          const id = '11111111-2222-4333-8444-555555555555';
          await row.writeConversation(home, id, real);
          expect(await adapter.exists(id, join(tmp, 'link'), env)).toBe(true);
        });
      }
    });

    describe('listSessions', () => {
      it('re-reads only files whose mtime or size changed', async () => {
        const file = row.sampleFile(home);
        const when = new Date('2026-11-25T21:48:11.000Z');
        await utimes(file, when, when);
        expect((await adapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
        expect(row.cacheSize(vendors)).toBeGreaterThan(0);
        // Same size, same mtime: the cached parse is used, the file is not read again.
        const text = await readFile(file, 'utf8');
        await writeFile(file, text.replace('remember the number 777', 'remember the number 778'));
        await utimes(file, when, when);
        expect((await adapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 777');
        await row.reread(file, when);
        expect((await adapter.listSessions!(env))[0]?.firstPrompt).toBe('remember the number 778');
      });
    });

    describe('spawnFresh', () => {
      it('mints a UUIDv4 and passes it as its own argv element, user args last, no shell strings', async () => {
        const plan = await adapter.spawnFresh(ctx({ args: row.freshArgs }), env);
        expect(plan.sessionId).toMatch(UUID);
        expect(plan.argv).toEqual(startArgv(plan.sessionId!, row.freshArgs));
        expect(plan).toMatchObject({
          env: {},
          chosenBy: 'baton',
          outcome: 'fresh',
          warning: null,
          hints: { sessionId: plan.sessionId },
        });
        expect((await adapter.spawnFresh(ctx(), env)).sessionId).not.toBe(plan.sessionId);
      });

      it(`runs BATON_<VENDOR>_BIN when set, the same as resolveBin`, async () => {
        const e = { ...env, [BIN_ENV]: `/opt/fake ${vendor}` };
        expect((await adapter.spawnFresh(ctx(), e)).argv[0]).toBe(`/opt/fake ${vendor}`);
        expect(resolveBin(adapter, e)).toBe(`/opt/fake ${vendor}`);
        expect(resolveBin(adapter, env)).toBe(vendor);
      });
    });

    describe('planResume', () => {
      it('resumes a conversation that exists, with its resume flag', async () => {
        const plan = await adapter.planResume(
          ctx({ args: row.resumeUserArgs }),
          { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true },
          env,
        );
        expect(plan).toEqual({
          argv: [vendor, ...row.resumeArgs(SAMPLE_ID), ...row.resumeUserArgs],
          env: {},
          sessionId: SAMPLE_ID,
          chosenBy: 'baton',
          outcome: 'resumed',
          warning: null,
          hints: { sessionId: SAMPLE_ID },
        });
      });

      it('respawns under the same id when Baton chose it and nothing was ever said', async () => {
        const id = '44444444-5555-4666-8777-888888888888';
        await row.beforeSameId?.(home, id);
        const plan = await adapter.planResume(ctx(), { sessionId: id, chosenBy: 'baton', confirmed: false }, env);
        expect(plan).toMatchObject({ argv: startArgv(id), sessionId: id, outcome: 'resumed', warning: null });
      });

      it('starts fresh (new id) with a warning when a confirmed session is gone', async () => {
        await row.removeSample(home);
        const plan = await adapter.planResume(
          ctx(),
          { sessionId: SAMPLE_ID, chosenBy: 'baton', confirmed: true },
          row.goneEnv(env),
        );
        expect(plan.outcome).toBe('fresh');
        expect(plan.sessionId).toMatch(UUID);
        expect(plan.sessionId).not.toBe(SAMPLE_ID);
        expect(plan.argv).toEqual(startArgv(plan.sessionId!));
        expect(plan.warning).toBe(row.goneWarning(home));
        expect(plan.warning).not.toContain(SAMPLE_ID);
      });

      it('starts fresh when the vendor chose a now-missing id', async () => {
        const id = '55555555-6666-4777-8888-999999999999';
        const plan = await adapter.planResume(ctx(), { sessionId: id, chosenBy: 'vendor', confirmed: false }, env);
        expect(plan.outcome).toBe('fresh');
        expect(plan.warning).toContain(row.lookedIn(home));
      });

      it('planResumeChecked gives the same plan and says what exists() says of the prior id (the store is read once)', async () => {
        const quiet = '44444444-5555-4666-8777-888888888888';
        await row.beforeSameId?.(home, quiet);
        const gone = '66666666-7777-4888-9999-aaaaaaaaaaaa';
        for (const [id, chosenBy, confirmed] of [
          [SAMPLE_ID, 'baton', true],
          [quiet, 'baton', false],
          [gone, 'vendor', true],
          ['', 'baton', true],
        ] as const) {
          const prior = { sessionId: id, chosenBy, confirmed };
          const { plan, found } = await adapter.planResumeChecked(ctx(), prior, env);
          const alone = await adapter.planResume(ctx(), prior, env);
          expect(found, id).toBe(id !== '' && (await adapter.exists(id, ctx().cwd, env)));
          expect({ outcome: plan.outcome, warning: plan.warning }, id).toEqual({
            outcome: alone.outcome,
            warning: alone.warning,
          });
          if (plan.outcome === 'resumed') expect(plan, id).toEqual(alone);
        }
      });

      it('never puts an invalid id into argv', async () => {
        for (const bad of row.invalidIds(SAMPLE_ID)) {
          const plan = await adapter.planResume(ctx(), { sessionId: bad, chosenBy: 'baton', confirmed: true }, env);
          expect(plan.outcome).toBe('fresh');
          expect(plan.warning).toMatch(/starting a fresh conversation in \/home\/u\/proj$/);
          expect(plan.argv.some((a) => a.startsWith('--resume'))).toBe(false);
          if (bad !== '') expect(plan.argv.join('\n')).not.toContain(bad);
          expect(plan.sessionId).toMatch(UUID);
        }
      });
    });

    describe('follow', () => {
      it('reports the chosen id, then its confirmation once the store holds it, then stops', async () => {
        const cwd = join(tmp, 'proj');
        await mkdir(cwd);
        const id = '66666666-7777-4888-8999-aaaaaaaaaaaa';
        const seen: SessionObservation[] = [];
        const stop = adapter.follow({ pid: 1, cwd, hints: { sessionId: id }, spawnedAt: Date.now() }, env, (s) =>
          seen.push(s),
        );
        try {
          await until(() => seen.length >= 1);
          expect(seen).toEqual([{ sessionId: id, confirmed: false }]);
          if (row.notConfirming) {
            await row.notConfirming(home, id, cwd);
            await new Promise((r) => setTimeout(r, 700));
            expect(seen).toHaveLength(1);
          }
          await row.writeConversation(home, id, cwd);
          await until(() => seen.length >= 2);
          expect(seen[1]).toEqual({ sessionId: id, confirmed: true });
          await new Promise((r) => setTimeout(r, 700));
          expect(seen).toHaveLength(2);
        } finally {
          stop();
        }
        // No id in the hints: nothing to follow.
        const none = adapter.follow({ pid: 1, cwd, hints: {}, spawnedAt: Date.now() }, env, () => {
          throw new Error('no id to follow');
        });
        none();
      });
    });
  },
);
