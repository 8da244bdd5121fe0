// Handle text <-> structured handle (docs/architecture.md §4). A handle comes from a paste, so it is untrusted input:
// validation is strict and total before anything returns, and no error ever echoes the handle or a value from
// it (handles hold session ids, which are secrets, and error text ends up in logs and screenshots).
//
// Scope: a run handle and an agent handle have the same shape. An agent handle carries `"scope":"agent"` and
// exactly one agent; without the marker a one-agent handle is a run handle that happens to have one agent.
// The marker is explicit so "resume this agent into a run" and "resume this run" never depend on a count.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { BatonError, describeIssue, hostAliasSchema } from '../../../shared/contract.js';
import { isBranchName } from './branch-name.js';
import {
  AGENT_ID,
  LIMITS,
  RUN_ID,
  VENDOR_NAMES,
  absolutePathSchema,
  labelSchema,
  runNameSchema,
  type VendorName,
} from '../../../shared/words.js';

export interface HandleAgent {
  id: string;
  label: string;
  vendor: VendorName;
  sessionId: string | null;
  cwd: string | null;
  /** The agent's own git worktree, which `cwd` lies in; absent when it works in `cwd` as it is. */
  worktree?: HandleWorktree;
  /** The host it runs on (an ssh alias or user@host[:port]; docs/hosts.md); absent: the machine that resumes. */
  host?: string;
}

/** Where an agent's worktree was: the repository, the worktree, its branch and the commit it started from. */
export interface HandleWorktree {
  repoRoot: string;
  worktreePath: string;
  branch: string;
  baseCommit: string;
}

export interface DecodedHandle {
  kind: 'run' | 'agent' | 'caw';
  run: { name: string; id: string } | null;
  createdAt: string | null;
  agents: HandleAgent[];
}

export interface HandleRules {
  /** undefined: vendor not supported here; null: vendor has no sessions */
  sessionIdPattern(vendor: VendorName): RegExp | null | undefined;
}

export interface HandleInput {
  run: { name: string; id: string };
  createdAt: string;
  agents: HandleAgent[];
  /** 'agent' marks a one-agent handle for a single agent; default 'run'. */
  scope?: 'run' | 'agent';
}

const PREFIX = 'baton1.';
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const OTHER_VERSION = /^baton(\d+)\./;
const SESSION_ID_MAX_CHARS = 256;
/** A full commit id (SHA-1). */
const COMMIT = /^[0-9a-f]{40}$/;

function sessionIdText(what: string) {
  return z
    .string({ error: `${what} must be text` })
    .min(1, { error: `${what} must not be empty` })
    .max(SESSION_ID_MAX_CHARS, { error: `${what} must be at most ${SESSION_ID_MAX_CHARS} characters` });
}

// vendor, sessionId and cwd are checked by hand afterwards, in that order, with vendor-specific rules.
const agentSchema = z.strictObject({
  id: z.string({ error: 'agent id must be text' }).regex(AGENT_ID, { error: 'agent id is not a Baton agent id' }),
  label: labelSchema,
  vendor: z.string({ error: 'vendor must be text' }),
  sessionId: sessionIdText('sessionId').nullable(),
  cwd: z.string({ error: 'cwd must be text' }),
  // Paths, branch and commit are checked by hand afterwards (checkWorktree), each naming its field.
  worktree: z
    .strictObject(
      {
        repoRoot: z.string({ error: 'repoRoot must be text' }),
        worktreePath: z.string({ error: 'worktreePath must be text' }),
        branch: z.string({ error: 'branch must be text' }),
        baseCommit: z.string({ error: 'baseCommit must be text' }),
      },
      { error: 'worktree must be an object' },
    )
    .optional(),
  // Only a name ssh looks up (never an option: it cannot start with '-'), checked by its own pattern.
  host: hostAliasSchema.optional(),
});

const batonSchema = z.strictObject({
  v: z.literal(1),
  scope: z.literal('agent', { error: 'scope must be "agent" when present' }).optional(),
  run: z.strictObject(
    {
      name: runNameSchema,
      id: z.string({ error: 'run id must be text' }).regex(RUN_ID, { error: 'run id is not a Baton run id' }),
    },
    { error: 'run must be an object' },
  ),
  createdAt: z.iso.datetime({ error: 'createdAt must be an ISO 8601 time' }),
  agents: z
    .array(agentSchema, { error: 'agents must be a list' })
    .min(1, { error: 'a handle holds at least one agent' })
    .max(LIMITS.agentsPerRun, { error: `a handle holds at most ${LIMITS.agentsPerRun} agents` }),
});

const CAW_PROVIDERS = { claude_code: 'claude', codex: 'codex', opencode: 'opencode' } as const satisfies Record<
  string,
  VendorName
>;

const cawSchema = z.strictObject({
  version: z.literal(1),
  provider: z.enum(['claude_code', 'codex', 'opencode'], { error: 'provider is not one Baton knows' }),
  session_id: sessionIdText('session_id'),
  resume_key: sessionIdText('resume_key'),
});

export function encodeHandle(h: HandleInput): string {
  const body = {
    v: 1,
    ...(h.scope === 'agent' ? { scope: 'agent' } : {}),
    run: { name: h.run.name, id: h.run.id },
    createdAt: h.createdAt,
    agents: h.agents.map((a) => ({
      id: a.id,
      label: a.label,
      vendor: a.vendor,
      sessionId: a.sessionId,
      cwd: a.cwd,
      ...(a.worktree
        ? {
            worktree: {
              repoRoot: a.worktree.repoRoot,
              worktreePath: a.worktree.worktreePath,
              branch: a.worktree.branch,
              baseCommit: a.worktree.baseCommit,
            },
          }
        : {}),
      ...(a.host ? { host: a.host } : {}),
    })),
  };
  // Baton must never hand out a handle it would refuse to read back.
  const parsed = batonSchema.safeParse(body);
  if (!parsed.success) throw new BatonError(withField(describeIssue(parsed.error)));
  checkBatonAgents(parsed.data, null);
  return PREFIX + Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeHandle(text: string, rules: HandleRules): DecodedHandle {
  const json = parseEnvelope(text);
  if (!isPlainObject(json)) fail('handle', 'handle must be a JSON object');
  if (Object.hasOwn(json, 'v')) return decodeBaton(json, rules);
  if (Object.hasOwn(json, 'version') || Object.hasOwn(json, 'provider')) return decodeCaw(json, rules);
  fail('v', 'v: handle version is missing (this Baton reads version 1)');
}

/** From pasted text to the JSON value inside, checking size, prefix, encoding and syntax. */
function parseEnvelope(text: string): unknown {
  if (typeof text !== 'string') fail('handle', 'handle must be text');
  // Chat apps and terminals add spaces and newlines around a paste.
  const t = text.trim();
  if (Buffer.byteLength(t, 'utf8') > LIMITS.handleMaxBytes) fail('handle', 'handle is larger than 64 KiB');
  if (t.startsWith(PREFIX)) {
    const body = t.slice(PREFIX.length);
    if (!BASE64URL.test(body) || body.length % 4 === 1) fail('handle', 'handle is not valid base64url');
    const bytes = Buffer.from(body, 'base64url');
    // Node ignores stray trailing bits; a canonical round trip is the only way to be sure nothing was dropped.
    if (bytes.toString('base64url') !== body) fail('handle', 'handle is not valid base64url');
    let json: string;
    try {
      json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      fail('handle', 'handle is not valid UTF-8 (after base64url decoding)');
    }
    return parseJson(json, 'handle is not valid JSON (after base64url decoding)');
  }
  if (t.startsWith('{')) return parseJson(t, 'handle is not valid JSON');
  const other = OTHER_VERSION.exec(t);
  if (other) {
    const n = other[1] ?? '';
    // A version number is not a secret, but an absurd one is just noise from the paste: leave it out.
    const which = n.length <= 6 ? `version ${n}` : 'version';
    fail('handle', `handle ${which} is not supported (this Baton reads version 1)`);
  }
  fail('handle', 'not a Baton handle (expected baton1.… or JSON)');
}

function parseJson(text: string, message: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // JSON.parse's own message quotes the input: never pass it on.
    fail('handle', message);
  }
}

function decodeBaton(json: Record<string, unknown>, rules: HandleRules): DecodedHandle {
  if (json['v'] !== 1) fail('v', 'v: handle version is not supported (this Baton reads version 1)');
  const parsed = batonSchema.safeParse(json);
  if (!parsed.success) throw new BatonError(withField(describeIssue(parsed.error)));
  const h = parsed.data;
  const agents = checkBatonAgents(h, rules);
  return { kind: h.scope === 'agent' ? 'agent' : 'run', run: h.run, createdAt: h.createdAt, agents };
}

/** Ids unique, scope consistent, then per agent: vendor, sessionId, cwd. `rules` null: shape only (encoding). */
function checkBatonAgents(h: z.infer<typeof batonSchema>, rules: HandleRules | null): HandleAgent[] {
  const seen = new Set<string>();
  for (const [i, a] of h.agents.entries()) {
    if (seen.has(a.id)) fail(`agents[${i}].id`, `agents[${i}].id: agent ids must be unique within a handle`);
    seen.add(a.id);
  }
  if (h.scope === 'agent' && h.agents.length !== 1) fail('scope', 'scope: an agent handle holds exactly one agent');
  return h.agents.map((a, i) => {
    const field = `agents[${i}]`;
    const vendor = checkVendor(`${field}.vendor`, a.vendor);
    if (rules)
      checkSessionId(`${field}.sessionId`, vendor, a.sessionId, supportedPattern(`${field}.vendor`, vendor, rules));
    const cwd = absolutePathSchema.safeParse(a.cwd);
    if (!cwd.success) throw new BatonError(describeIssue(cwd.error, `${field}.cwd`));
    const host = a.host === undefined ? {} : { host: a.host };
    if (a.worktree === undefined)
      return { id: a.id, label: a.label, vendor, sessionId: a.sessionId, cwd: cwd.data, ...host };
    const worktree = checkWorktree(`${field}.worktree`, a.worktree);
    // The agent works inside its worktree: a cwd elsewhere would let the handle pair any directory with it.
    if (!isWithin(worktree.worktreePath, cwd.data))
      fail(`${field}.cwd`, `${field}.cwd: must lie inside the agent's worktree (worktree.worktreePath)`);
    return { id: a.id, label: a.label, vendor, sessionId: a.sessionId, cwd: cwd.data, worktree, ...host };
  });
}

/**
 * A worktree as strictly as the rest: both paths absolute and normalised (a `..` segment is refused, never
 * resolved), the branch by git's check-ref-format rules for a branch name, the commit a full id. Whether the
 * worktree is really there and belongs to the repository is the resume's to check (the planner), on disk.
 */
function checkWorktree(
  field: string,
  w: { repoRoot: string; worktreePath: string; branch: string; baseCommit: string },
): HandleWorktree {
  for (const key of ['repoRoot', 'worktreePath'] as const) {
    if (!absolutePathSchema.safeParse(w[key]).success) {
      fail(
        `${field}.${key}`,
        `${field}.${key}: must be an absolute, normalised path (no ".", ".." or empty segments, no control or formatting characters)`,
      );
    }
  }
  if (w.worktreePath === '/') fail(`${field}.worktreePath`, `${field}.worktreePath: must not be the root directory`);
  if (!isBranchName(w.branch)) fail(`${field}.branch`, `${field}.branch: is not a valid git branch name`);
  if (!COMMIT.test(w.baseCommit))
    fail(`${field}.baseCommit`, `${field}.baseCommit: must be a full commit id (40 hexadecimal characters)`);
  return { repoRoot: w.repoRoot, worktreePath: w.worktreePath, branch: w.branch, baseCommit: w.baseCommit };
}

function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
}

function decodeCaw(json: Record<string, unknown>, rules: HandleRules): DecodedHandle {
  if (json['version'] !== 1)
    fail('version', 'version: caw handle version is not supported (this Baton reads version 1)');
  const parsed = cawSchema.safeParse(json);
  if (!parsed.success) throw new BatonError(withField(describeIssue(parsed.error)));
  const vendor = CAW_PROVIDERS[parsed.data.provider];
  const pattern = supportedPattern('provider', vendor, rules);
  checkSessionId('resume_key', vendor, parsed.data.resume_key, pattern);
  return {
    kind: 'caw',
    run: null,
    createdAt: null,
    agents: [{ id: newAgentId(), label: vendor, vendor, sessionId: parsed.data.resume_key, cwd: null }],
  };
}

function checkVendor(field: string, vendor: string): VendorName {
  // Only a name from Baton's own list may appear in the message; anything else could be the paste itself.
  if (!isVendorName(vendor)) fail(field, `${field}: unknown vendor`);
  return vendor;
}

function supportedPattern(field: string, vendor: VendorName, rules: HandleRules): RegExp | null {
  const pattern = rules.sessionIdPattern(vendor);
  if (pattern === undefined) fail(field, `${field}: vendor '${vendor}' is not supported`);
  return pattern;
}

function checkSessionId(field: string, vendor: VendorName, sessionId: string | null, pattern: RegExp | null): void {
  if (pattern === null) {
    if (sessionId !== null) fail(field, `${field}: ${vendor} agents have no session id, so it must be null`);
    return;
  }
  if (sessionId === null) fail(field, `${field}: a ${vendor} agent needs a session id`);
  // A copy without g/y, so a caller's stateful regex cannot make the check depend on the previous call.
  const strict = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  if (!strict.test(sessionId)) fail(field, `${field}: does not match the ${vendor} session id format`);
  // The id becomes one argv element. Even if a vendor pattern is loose, it must never read as an option.
  if (sessionId.startsWith('-') || /[\s\u0000-\u001f\u007f-\u009f]/u.test(sessionId)) {
    fail(field, `${field}: must not start with "-" or contain spaces or control characters`);
  }
}

function isVendorName(v: string): v is VendorName {
  return (VENDOR_NAMES as readonly string[]).includes(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** describeIssue leaves `field` out for top-level rules (unknown keys); every handle error names one. */
function withField(e: ReturnType<typeof describeIssue>): ReturnType<typeof describeIssue> {
  return e.field ? e : { ...e, field: 'handle', message: `handle: ${e.message}` };
}

function fail(field: string, message: string): never {
  throw new BatonError({ code: 'invalid', field, message });
}

/** `agt_` + 16 lowercase base36 characters from the CSPRNG, unbiased (bytes ≥ 252 are redrawn). */
function newAgentId(): string {
  let out = '';
  while (out.length < 16) {
    for (const b of randomBytes(32)) {
      if (b < 252 && out.length < 16) out += (b % 36).toString(36);
    }
  }
  return `agt_${out}`;
}
