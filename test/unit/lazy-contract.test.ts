// The contract's tables build each schema the first time it is read (shared/contract/lazy-table.ts): a process pays
// only for the requests it makes. A schema that fails to build would then surface at its first use, not at start, so
// every request and event is built and used here.
import { describe, expect, it } from 'vitest';
import { events, requests, type EventName, type Method } from '../../shared/contract.js';
import { lazyTable } from '../../shared/contract/lazy-table.js';

describe('the contract built as used', () => {
  it('builds an entry when it is first read, once, and lists every entry without building any', () => {
    const built: string[] = [];
    const table = lazyTable({
      a: () => (built.push('a'), { n: 1 }),
      b: () => (built.push('b'), { n: 2 }),
    });
    expect(Object.keys(table)).toEqual(['a', 'b']);
    expect(built).toEqual([]);
    const first = table.a;
    expect(table.a).toBe(first);
    expect(first.n).toBe(1);
    expect(built).toEqual(['a']);
  });

  it('builds every request and event schema, and each refuses a value that is not a message', () => {
    const methods = Object.keys(requests) as Method[];
    expect(methods).toContain('run.list');
    for (const method of methods) {
      const { params, result } = requests[method];
      expect(params.safeParse(Symbol('not a message')).success, method).toBe(false);
      expect(result.safeParse(Symbol('not a message')).success, method).toBe(false);
    }
    for (const name of Object.keys(events) as EventName[])
      expect(events[name].safeParse(Symbol('not a message')).success, name).toBe(false);
  });

  it('keeps what each schema accepts', () => {
    expect(requests['run.list'].params.safeParse({ limit: 10 }).success).toBe(true);
    expect(requests['run.list'].params.safeParse({ limit: 0 }).success).toBe(false);
    expect(requests['settings.set'].params.safeParse({ quitAction: 'keep' }).success).toBe(true);
    expect(requests['settings.set'].params.safeParse({ quitAction: 'later' }).success).toBe(false);
    expect(events['run.changed'].safeParse({ runId: 'run_0000000000000001' }).success).toBe(true);
  });
});
