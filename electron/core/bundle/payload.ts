// What a bundle holds once opened (docs/bundles.md §4): the run's handle (checked by the handle codec like any pasted
// one), per agent its transcript and its branch as a git bundle, and nothing else. File names are fixed patterns, never
// paths: where a file goes is decided on import by the vendor's adapter and the user's directory map, so nothing in a
// bundle can name a place to write. Compressed (gzip) inside the encryption; inflation is capped.
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { LIMITS } from '../../../shared/words.js';
import { BundleOpenError } from './crypto.js';

/** The most a bundle's content may inflate to (the transcripts and branches together). */
export const PAYLOAD_MAX_BYTES = 512 << 20;
const FILE_NAME = /^agents\/(\d{1,2})\/(transcript\.jsonl|branch\.bundle)$/;
const COMMIT = /^[0-9a-f]{40}$/;

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'a file is not base64' });

const agentExtraSchema = z.strictObject({
  /** The agent's index in the handle. */
  index: z
    .number()
    .int()
    .min(0)
    .max(LIMITS.agentsPerRun - 1),
  /** The user's own extra arguments (they never travel in a handle, but a bundle carries the run whole). */
  args: z.array(z.string().max(LIMITS.extraArgMaxChars)).max(LIMITS.extraArgs),
  transcript: z.string().regex(FILE_NAME).nullable(),
  /** Why the conversation is not in the bundle (a vendor whose store Baton cannot copy, say). */
  note: z.string().max(500).nullable(),
  branch: z
    .strictObject({
      name: z.string().min(1).max(255),
      commit: z.string().regex(COMMIT),
      file: z.string().regex(FILE_NAME),
    })
    .nullable(),
});
export type BundleAgentExtra = z.infer<typeof agentExtraSchema>;

export const payloadSchema = z.strictObject({
  v: z.literal(1),
  createdAt: z.iso.datetime(),
  /** The handle text (`baton1.…`): decoded and checked by the handle codec on import. */
  handle: z.string().min(1).max(LIMITS.handleMaxBytes),
  snapshotId: z.string().max(64).nullable(),
  agents: z.array(agentExtraSchema).min(1).max(LIMITS.agentsPerRun),
  files: z.record(z.string().regex(FILE_NAME), base64),
});
export type BundlePayload = z.infer<typeof payloadSchema>;

export function packPayload(payload: BundlePayload): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(payloadSchema.parse(payload)), 'utf8'));
}

/** The opened bundle's content, inflated (capped) and checked strictly; every reference between its parts holds. */
export function unpackPayload(compressed: Uint8Array): BundlePayload {
  let json: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      gunzipSync(compressed, { maxOutputLength: PAYLOAD_MAX_BYTES }),
    );
    json = JSON.parse(text);
  } catch {
    throw new BundleOpenError('format', 'the bundle is damaged or too large: its content cannot be read');
  }
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) throw new BundleOpenError('format', 'the bundle is not valid: its content has the wrong shape');
  const p = parsed.data;
  const indexes = new Set(p.agents.map((a) => a.index));
  if (indexes.size !== p.agents.length) throw new BundleOpenError('format', 'the bundle lists an agent twice');
  const named = new Set<string>();
  for (const a of p.agents) {
    for (const file of [a.transcript, a.branch?.file]) {
      if (file === null || file === undefined) continue;
      // Each file belongs to its own agent, is listed once, and is in the bundle.
      if (FILE_NAME.exec(file)?.[1] !== String(a.index) || named.has(file) || !(file in p.files))
        throw new BundleOpenError('format', 'the bundle is not valid: an agent names a file it does not hold');
      named.add(file);
    }
  }
  if (Object.keys(p.files).some((f) => !named.has(f)))
    throw new BundleOpenError('format', 'the bundle is not valid: it holds a file no agent names');
  return p;
}

/** A file of the payload as bytes. */
export function fileOf(p: BundlePayload, name: string): Buffer {
  return Buffer.from(p.files[name] ?? '', 'base64');
}
