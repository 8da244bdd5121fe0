// Gemini CLI (docs/vendors.md §3, §10): Baton mints the id (`--session-id <uuid>`), resumes with `--resume <uuid>` in the
// same cwd (Gemini looks sessions up per project), and confirms the id from the chat file the CLI writes at the
// first message. Gemini refuses `--session-id` for an id it already has, so a session with any file is resumed, and
// one without is respawned under the same id only while nothing was ever said.
import { withAttention } from '../kit/attention.js';
import { GEMINI_ATTENTION } from './attention.js';
import { defineMintedIdVendor, type MintedIdFacts } from '../kit/minted-id.js';
import { GeminiUsage } from './usage.js';
import { geminiTranscripts } from './transcripts.js';
import { GEMINI_SESSION_ID, GEMINI_STORE, type GeminiStore } from './store.js';
import { geminiSearchText } from './search.js';
import { GEMINI_INPUT } from './input.js';

/** The vendor facts, as data (docs/vendors.md §0, §3). */
export const GEMINI_FACTS: MintedIdFacts<GeminiStore, 'gemini'> = {
  vendor: 'gemini',
  displayName: 'Gemini CLI',
  bin: 'gemini',
  idName: 'a Gemini session id',
  sessionIdPattern: GEMINI_SESSION_ID,
  sessionIdFlag: '--session-id',
  resumeFlag: '--resume',
  /** Keys followed at once by Enter look like a paste to Gemini: the text stays in the box (docs/vendors.md §12.3). */
  submitDelayMs: 800,
  resumeErrorTexts: [
    /Invalid session identifier/,
    /No previous sessions found for this project/,
    /Session ID "[^"]*" already exists/,
  ],
  sessionErrorExitCode: 42,
  // A metadata-only file still makes Gemini refuse the id for a new session: while nothing was said, resume it.
  reopenStarted: { with: 'resume', onlyIfNeverSaid: true },
  store: GEMINI_STORE,
  usage: (_ctx, store) => new GeminiUsage(store),
  transcripts: geminiTranscripts,
};

export const gemini = withAttention(
  { ...defineMintedIdVendor(GEMINI_FACTS), searchText: geminiSearchText },
  GEMINI_ATTENTION,
  GEMINI_INPUT,
);
