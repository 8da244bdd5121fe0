// The vendors whose session id Baton picks at spawn (Gemini, Copilot, Qwen) as vendors-idfirst*.test.ts see them:
// where each keeps its transcripts, how its store records the id, how a user would remove a session, and how the
// CLI resumes one; and the temp machine that points Baton at their fakes.
import { existsSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { FAKES } from '../helpers/server.js';
import { sceneWith, type Scene } from '../helpers/served-vendors.js';

const vendors = createVendors();
export const copilotAdapter = vendors.get('copilot')!;
export const geminiAdapter = vendors.get('gemini')!;
export const qwenAdapter = vendors.get('qwen')!;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const QUESTION = 'what number did I ask you to remember';

// ---------- the vendors, as the tests see them ----------

export type Vendor = 'gemini' | 'copilot' | 'qwen';

interface VendorCase {
  vendor: Vendor;
  /** Text the fake TUI shows once it takes input. */
  ready: string;
  /** The files that hold a session's transcript, under `home`. */
  transcripts(home: string, sessionId: string): string[];
  /** The vendor's own record of the id, read from its store: the id the CLI runs under. */
  storedId(home: string, sessionId: string): string | null;
  /** Removes the session from the vendor's store, as a user or a cleanup would. */
  remove(home: string, sessionId: string): void;
  resumeArgv(sessionId: string): string[];
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function firstJsonLine(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as Record<string, unknown>;
}

export function geminiChats(home: string): string[] {
  return listFiles(join(home, '.gemini', 'tmp')).flatMap((d) => listFiles(join(d, 'chats')));
}

export const CASES: VendorCase[] = [
  {
    vendor: 'gemini',
    ready: 'Type your message',
    transcripts: (home, id) =>
      geminiChats(home).filter((f) => f.endsWith(`-${id.slice(0, 8)}.jsonl`) && firstJsonLine(f).sessionId === id),
    storedId: (home, id) => {
      const f = geminiChats(home).find((p) => p.endsWith(`-${id.slice(0, 8)}.jsonl`));
      return f ? (firstJsonLine(f).sessionId as string) : null;
    },
    remove: (home, id) => {
      for (const f of CASES[0]!.transcripts(home, id)) unlinkSync(f);
    },
    resumeArgv: (id) => ['gemini', '--resume', id],
  },
  {
    vendor: 'copilot',
    ready: 'Enter @ to mention files',
    transcripts: (home, id) =>
      [join(home, '.copilot', 'session-state', id, 'events.jsonl')].filter((p) => existsSync(p)),
    storedId: (home, id) => {
      const ws = join(home, '.copilot', 'session-state', id, 'workspace.yaml');
      if (!existsSync(ws)) return null;
      return /^id: (.*)$/m.exec(readFileSync(ws, 'utf8'))?.[1] ?? null;
    },
    remove: (home, id) => rmSync(join(home, '.copilot', 'session-state', id), { recursive: true }),
    resumeArgv: (id) => ['copilot', `--resume=${id}`],
  },
  {
    vendor: 'qwen',
    ready: 'Type your message',
    transcripts: (home, id) =>
      listFiles(join(home, '.qwen', 'projects'))
        .map((d) => join(d, 'chats', `${id}.jsonl`))
        .filter((p) => existsSync(p)),
    storedId: (home, id) => {
      const f = CASES[2]!.transcripts(home, id)[0];
      return f ? (firstJsonLine(f).sessionId as string) : null;
    },
    remove: (home, id) => {
      for (const f of CASES[2]!.transcripts(home, id)) unlinkSync(f);
    },
    resumeArgv: (id) => ['qwen', '--resume', id],
  },
];
export const byVendor = (v: Vendor): VendorCase => CASES.find((c) => c.vendor === v)!;

export function scene(): Scene {
  return sceneWith('baton-idfirst-', {
    BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
    BATON_COPILOT_BIN: join(FAKES, 'copilot.mjs'),
    BATON_QWEN_BIN: join(FAKES, 'qwen.mjs'),
  });
}
