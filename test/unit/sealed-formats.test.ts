// The caches Baton reads back without validating each entry (store/sealed-text.ts) are tied to the shape of what they
// hold by their format's number: a schema that changes while its format stays would let a file written by another
// version through unchecked. When this test fails, bump that file's format constant and record the new fingerprint.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { savedCostSchema } from '../../electron/core/cost/cost-file.js';
import { savedHealthSchema } from '../../electron/core/runs/health-file.js';
import { INDEX_FORMAT } from '../../electron/core/store/manifest-index.js';
import { runManifestSchema } from '../../electron/core/store/manifest.js';
import { SAVED_RUNS_FORMAT } from '../../electron/core/store/saved-runs-file.js';

const fingerprint = (schema: z.ZodType) =>
  createHash('sha256')
    .update(JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' })))
    .digest('hex')
    .slice(0, 16);

describe('sealed cache formats', () => {
  it('each format still holds the shape it was numbered for', () => {
    expect({
      index: [INDEX_FORMAT, fingerprint(runManifestSchema)],
      health: [SAVED_RUNS_FORMAT, fingerprint(savedHealthSchema)],
      costs: [SAVED_RUNS_FORMAT, fingerprint(savedCostSchema)],
    }).toEqual({
      index: [1, '7c2ca9aa68de7b1f'],
      health: [2, 'be7374f24dd4ed89'],
      costs: [2, 'b2ed31c636e8d1f4'],
    });
  });
});
