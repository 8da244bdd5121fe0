// The glossary of docs/architecture.md §1 as types and validation rules both sides share.
import { z } from 'zod';

/** Every vendor Baton knows by name. Which of them can run here is decided by the core's adapters. */
export const VENDOR_NAMES = ['claude', 'codex', 'gemini', 'copilot', 'cursor', 'opencode', 'qwen', 'shell'] as const;
export type VendorName = (typeof VENDOR_NAMES)[number];

export const LIMITS = {
  nameMaxChars: 100,
  labelMaxChars: 100,
  agentsPerRun: 32,
  handleMaxBytes: 64 * 1024,
  cwdMaxChars: 4096,
  extraArgs: 32,
  extraArgMaxChars: 1000,
} as const;

export const RUN_ID = /^run_[0-9a-z]{16}$/;
export const AGENT_ID = /^agt_[0-9a-z]{16}$/;
export const SNAPSHOT_ID = /^snp_[0-9a-z]{16}$/;

// C0, DEL, C1 controls and the Unicode line/paragraph separators: never in a name or label.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/**
 * Unicode format characters (category Cf): bidi embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), zero-width spaces and joiners, marks (U+200B–U+200F), the BOM (U+FEFF), tags and the rest.
 * They are invisible or reorder what is shown, so a name, label or path holding one can read as another (a
 * directory that looks like the user's own project). Refused wherever such a value enters (docs/architecture.md §10).
 */
const FORMAT_CHARS = /\p{Cf}/u;
const FORMAT_RULE = 'must not contain invisible formatting characters (bidi controls, zero-width characters)';

/** `kept`: only for what the store already holds (see storedRunNameSchema); every input refuses them. */
type FormatCharacters = 'refused' | 'kept';

export function printableText(what: string, max: number, formatCharacters: FormatCharacters = 'refused') {
  return z
    .string({ error: `${what} must be text` })
    .min(1, { error: `${what} must not be empty` })
    .max(max, { error: `${what} must be at most ${max} characters` })
    .refine((s) => !CONTROL_CHARS.test(s), { error: `${what} must not contain control characters` })
    .refine((s) => formatCharacters === 'kept' || !FORMAT_CHARS.test(s), { error: `${what} ${FORMAT_RULE}` })
    .refine((s) => s.trim() === s, { error: `${what} must not start or end with spaces` });
}

export const runNameSchema = printableText('run name', LIMITS.nameMaxChars);
export const labelSchema = printableText('label', LIMITS.labelMaxChars);

function pathSchema(formatCharacters: FormatCharacters) {
  return z
    .string({ error: 'cwd must be text' })
    .min(1, { error: 'cwd must not be empty' })
    .max(LIMITS.cwdMaxChars, { error: `cwd must be at most ${LIMITS.cwdMaxChars} characters` })
    .refine((s) => !CONTROL_CHARS.test(s), { error: 'cwd must not contain control characters' })
    .refine((s) => formatCharacters === 'kept' || !FORMAT_CHARS.test(s), { error: `cwd ${FORMAT_RULE}` })
    .refine((s) => s.startsWith('/'), { error: 'cwd must be an absolute path' })
    .refine((s) => isNormalisedAbsolute(s), { error: 'cwd must be normalised (no ".", "..", "//" or trailing "/")' });
}

/** An absolute, normalised POSIX path with no control or format characters. Existence is checked by the core. */
export const absolutePathSchema = pathSchema('refused');

/**
 * What a run manifest may already hold: names, labels and paths recorded before format characters were refused
 * (an emoji joined with U+200D, say). A run is never dropped from the history for one; but a handle is checked as
 * any input is, so such a run has to be renamed (or such an agent added again) before its handle is copied.
 */
export const storedRunNameSchema = printableText('run name', LIMITS.nameMaxChars, 'kept');
export const storedLabelSchema = printableText('label', LIMITS.labelMaxChars, 'kept');
export const storedPathSchema = pathSchema('kept');

function isNormalisedAbsolute(p: string): boolean {
  if (p === '/') return true;
  if (p.endsWith('/')) return false;
  return p
    .slice(1)
    .split('/')
    .every((part) => part !== '' && part !== '.' && part !== '..');
}

export const vendorNameSchema = z.enum(VENDOR_NAMES, { error: 'vendor is not one Baton knows' });

export type AgentStatus = 'starting' | 'running' | 'exited' | 'stopped' | 'failed';
export type ResumeOutcomeKind = 'resumed' | 'fresh' | 'failed';
export type SessionIdChooser = 'baton' | 'vendor';
