// What the vendor adapters share (electron/core/vendors/kit/) and how a core owns them (docs/architecture.md §9): every
// core has its own vendor context, so claims and caches never cross between cores; options, not globals, change
// timings; the registry lists exactly the vendors VENDOR_NAMES names; no vendor module keeps state of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENT_ID, RUN_ID, VENDOR_NAMES } from '../../shared/words.js';
import { newAgentId, newRunId } from '../../electron/core/runs/ids.js';
import { CLAUDE_STORE } from '../../electron/core/vendors/claude/store.js';
import { CODEX_TIMINGS } from '../../electron/core/vendors/codex/follow.js';
import { inheritedEnv } from '../../electron/core/vendors/kit/env.js';
import { LOWER_UUID, newSessionId, randomToken, shortId } from '../../electron/core/vendors/kit/ids.js';
import { jsonLines, textOf } from '../../electron/core/vendors/kit/jsonl.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const VENDORS_DIR = fileURLToPath(new URL('../../electron/core/vendors', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('vendor context: one per core', () => {
  it('gives each core its own claims and store caches', () => {
    const a = createVendors();
    const b = createVendors();
    expect(a.get('codex')).not.toBe(b.get('codex'));
    expect(a.context.claims('codex')).not.toBe(b.context.claims('codex'));
    expect(a.context.claims('codex')).toBe(a.context.claims('codex'));
    expect(a.context.state(CLAUDE_STORE)).not.toBe(b.context.state(CLAUDE_STORE));
    expect(a.context.state(CLAUDE_STORE)).toBe(a.context.state(CLAUDE_STORE));
    const me = a.context.claims('codex').newClaimant('test');
    a.context.claims('codex').claim('x', me);
    expect(a.context.claims('codex').isFree('x', Symbol('other'))).toBe(false);
    expect(b.context.claims('codex').isFree('x', Symbol('other'))).toBe(true);
  });

  it('lays timing options over the defaults: numbers only, known keys only; the defaults cannot be changed', () => {
    const vendors = createVendors({ timings: { codex: { fallbackAfterMs: 200, nonsense: 1, intervalMs: -5 } } });
    const t = vendors.context.timings('codex', CODEX_TIMINGS);
    expect(t).toEqual({ ...CODEX_TIMINGS, fallbackAfterMs: 200 });
    expect(createVendors().context.timings('codex', CODEX_TIMINGS)).toEqual(CODEX_TIMINGS);
    expect(Object.isFrozen(CODEX_TIMINGS)).toBe(true);
    expect(Object.isFrozen(t)).toBe(true);
  });

  it('lists exactly the vendors VENDOR_NAMES names, each under its own name', () => {
    const vendors = createVendors();
    expect([...vendors.adapters.keys()].sort()).toEqual([...VENDOR_NAMES].sort());
    for (const [name, adapter] of vendors.adapters) {
      expect(adapter.vendor).toBe(name);
      expect(adapter.binEnvVar).toBe(`BATON_${name.toUpperCase()}_BIN`);
    }
  });

  it('keeps no state at module level in electron/core/vendors (claims, caches and timings live in the context)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(VENDORS_DIR)) {
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        if (
          /^(export )?(let|var) /.test(line) ||
          /^(export )?const \w+(: [^=]+)? = new (Map|Set|WeakMap|WeakSet)\b/.test(line)
        ) {
          offenders.push(`${relative(VENDORS_DIR, file)}:${i + 1}: ${line}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('vendor kit: ids, environment, JSON lines', () => {
  it('mints UUIDv4 session ids, unbiased base-36 tokens for Baton ids, and shortens ids for messages', () => {
    expect(newSessionId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(LOWER_UUID.test(newSessionId())).toBe(true);
    expect(LOWER_UUID.test('--resume')).toBe(false);
    expect(randomToken(16)).toMatch(/^[0-9a-z]{16}$/);
    expect(newRunId()).toMatch(RUN_ID);
    expect(newAgentId()).toMatch(AGENT_ID);
    // Every character equally likely: over 360,000 draws each appears 10,000 ± 500 times (5 standard deviations).
    // A plain `byte % 36` would give 0–3 about 11,250 times each.
    const counts = new Map<string, number>();
    for (const c of randomToken(360_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    for (const [c, n] of counts) expect(Math.abs(n - 10_000), c).toBeLessThan(500);
    expect(shortId('3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b')).toBe('3b9e7c10…');
  });

  it("passes Baton's environment on without its token or unset entries", () => {
    expect(
      inheritedEnv({ HOME: '/h', BATON_TOKEN: 's', BATON_TOKEN_FILE: 'f', BATON_HOME: '/b', EMPTY: undefined }),
    ).toEqual({ HOME: '/h', BATON_HOME: '/b' });
  });

  it('reads JSON lines (a torn line is undefined) and the text of message content', () => {
    expect([...jsonLines('{"a":1}\n\n{"b":\n[2]\n')]).toEqual([{ a: 1 }, undefined, [2]]);
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'input_text', text: 'b' },
      { text: 'c' },
      { type: 'image' },
      'd',
    ];
    expect(textOf('plain')).toBe('plain');
    expect(textOf(blocks)).toBe('a\nb\nc');
    expect(textOf(blocks, (t) => t === 'text')).toBe('a');
    expect(textOf(blocks, (t) => t === undefined || t === 'text')).toBe('a\nc');
    expect(textOf([{ type: 'image' }])).toBeNull();
    expect(textOf({ text: 'no' })).toBeNull();
  });
});
