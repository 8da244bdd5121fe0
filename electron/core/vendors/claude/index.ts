// Claude Code (docs/vendors.md §1): Baton mints the id (`--session-id <uuid>`), names the session `-n <run>/<label>`,
// resumes with `--resume <id>`, and follows id changes (/clear) through the live registry `sessions/<pid>.json`
// (follow.ts) rather than through hints, so its plans carry none.
import { withAttention } from '../kit/attention.js';
import { CLAUDE_ATTENTION } from './attention.js';
import { defineMintedIdVendor, type MintedIdFacts } from '../kit/minted-id.js';
import { followClaude } from './follow.js';
import { ClaudeUsage } from './usage.js';
import { CLAUDE_TRANSCRIPTS } from './transcripts.js';
import { CLAUDE_SESSION_ID, CLAUDE_STORE, type ClaudeStore } from './store.js';
import { claudeSearchText } from './search.js';

/** The vendor facts, as data (docs/vendors.md §0, §1). */
export const CLAUDE_FACTS: MintedIdFacts<ClaudeStore, 'claude'> = {
  vendor: 'claude',
  displayName: 'Claude Code',
  bin: 'claude',
  idName: 'a Claude session id',
  sessionIdPattern: CLAUDE_SESSION_ID,
  sessionIdFlag: '--session-id',
  resumeFlag: '--resume',
  nameFlag: '-n',
  submitDelayMs: 150,
  resumeErrorTexts: [/No conversation found with session ID/],
  sessionErrorExitCode: 1,
  store: CLAUDE_STORE,
  follow: () => followClaude,
  usage: () => new ClaudeUsage(),
  forkFlag: '--fork-session',
  transcripts: () => CLAUDE_TRANSCRIPTS,
};

export const claude = withAttention(
  { ...defineMintedIdVendor(CLAUDE_FACTS), searchText: claudeSearchText },
  CLAUDE_ATTENTION,
);
