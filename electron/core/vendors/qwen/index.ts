// Qwen Code (docs/vendors.md §5, §10): Baton mints the id (`--session-id <uuid>`), resumes with `--resume <id>` in the
// same cwd (sessions live per project), and confirms the id from `projects/<enc cwd>/chats/<id>.jsonl`, which the
// CLI writes at the first prompt. A positional prompt makes Qwen one-shot (answer, exit): Baton never passes one.
import { withAttention } from '../kit/attention.js';
import { QWEN_ATTENTION } from './attention.js';
import { defineMintedIdVendor, type MintedIdFacts } from '../kit/minted-id.js';
import { QwenUsage } from './usage.js';
import { QWEN_TRANSCRIPTS } from './transcripts.js';
import { QWEN_SESSION_ID, QWEN_STORE, type QwenStore } from './store.js';
import { qwenSearchText } from './search.js';

/** The vendor facts, as data (docs/vendors.md §0, §5). */
export const QWEN_FACTS: MintedIdFacts<QwenStore, 'qwen'> = {
  vendor: 'qwen',
  displayName: 'Qwen Code',
  bin: 'qwen',
  idName: 'a Qwen session id',
  sessionIdPattern: QWEN_SESSION_ID,
  sessionIdFlag: '--session-id',
  resumeFlag: '--resume',
  submitDelayMs: 300,
  resumeErrorTexts: [/No saved session found with (ID|title)/, /Session Id \S+ already exists/, /Invalid --session-id/],
  sessionErrorExitCode: 1,
  store: QWEN_STORE,
  usage: () => new QwenUsage(),
  transcripts: () => QWEN_TRANSCRIPTS,
};

export const qwen = withAttention({ ...defineMintedIdVendor(QWEN_FACTS), searchText: qwenSearchText }, QWEN_ATTENTION);
