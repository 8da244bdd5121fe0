// Copies of a session's transcript under a new id, placed where the vendor's CLI looks for them (docs/bundles.md §2):
// a fork by copy (optionally cut where a snapshot was taken) and the transcripts a bundle brings to this machine.
// The source is only read; the copy is a new file, written whole (temp file, fsync, rename) or not at all.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { TranscriptFiles, VendorEnv } from '../vendors/adapter.js';
import { pathExists } from '../vendors/kit/store-fs.js';
import { rewriteTranscript, wholeLinesUpTo } from '../vendors/kit/transcript-rewrite.js';

/** A transcript larger than this is not copied (a fork then starts from the vendor's own fork, or fresh). */
export const TRANSCRIPT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * A CLI writes one turn as several records over some milliseconds, and may show the answer before its own record is
 * written: Qwen writes the answer's text in a telemetry record first, then the conversation's record, 10 ms to a few
 * hundred later, after the answer is on screen. A copy taken in between holds the question without its answer, so a
 * transcript written to within `STILL_MS` is read once it has been still that long, waiting `SETTLE_MAX_MS` at most
 * (a CLI that never stops writing is copied as it is then). One written to earlier is read at once.
 */
const STILL_MS = 300;
const SETTLE_MAX_MS = 2000;

async function settled(path: string): Promise<void> {
  const deadline = Date.now() + SETTLE_MAX_MS;
  let s = await stat(path);
  for (;;) {
    const quietFor = Date.now() - s.mtimeMs;
    if (quietFor >= STILL_MS || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(STILL_MS - quietFor, deadline - Date.now()) + 5));
    s = await stat(path);
  }
}

/**
 * The whole lines of a session's transcript, up to `cutBytes` when given (a snapshot's length: written long ago), or
 * as it is once still; null when the store holds none.
 */
export async function readTranscript(
  files: TranscriptFiles,
  sessionId: string,
  cwd: string,
  env: VendorEnv,
  cutBytes?: number,
): Promise<Uint8Array | null> {
  const path = await files.locate(sessionId, cwd, env);
  if (path === null) return null;
  if (cutBytes === undefined) await settled(path);
  if ((await stat(path)).size > TRANSCRIPT_MAX_BYTES) throw new Error('the transcript is too large to copy');
  return wholeLinesUpTo(await readFile(path), cutBytes);
}

/**
 * `content` (a transcript of `fromId` in `fromCwd`) rewritten for `toId` in `toCwd` and written where this machine's
 * CLI finds it. Refuses to overwrite: the id is new, so a file already there is not ours.
 */
export async function placeTranscript(
  files: TranscriptFiles,
  env: VendorEnv,
  content: Uint8Array,
  remap: { fromId: string; toId: string; fromCwd: string; toCwd: string },
): Promise<string> {
  const text = rewriteTranscript(Buffer.from(content).toString('utf8'), remap, files.rewrite);
  const target = await files.placeFor(remap.toId, remap.toCwd, env);
  if (await pathExists(target)) throw new Error('a transcript with that session id is already there');
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await writeFileAtomic(target, text);
  await files.register?.(remap.toId, remap.toCwd, env);
  return target;
}

/** A copy of `sessionId`'s transcript (cut at `cutBytes`) under a new id for `toCwd`; the new id, or null if none. */
export async function copyTranscript(
  files: TranscriptFiles,
  env: VendorEnv,
  from: { sessionId: string; cwd: string; cutBytes?: number },
  toCwd: string,
): Promise<string | null> {
  const content = await readTranscript(files, from.sessionId, from.cwd, env, from.cutBytes);
  if (content === null) return null;
  const toId = files.newId();
  await placeTranscript(files, env, content, { fromId: from.sessionId, toId, fromCwd: from.cwd, toCwd });
  return toId;
}
