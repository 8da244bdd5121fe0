// GitHub Copilot CLI (docs/vendors.md §4, §10): Baton mints the id (`--session-id <uuid>`) and names the session
// `-n <run>/<label>`; the CLI writes `session-state/<id>/workspace.yaml` at start, which confirms the id.
// A conversation is resumed with `--resume=<id>`. `--session-id` of an existing id resumes it too, so a session
// that exists but was never spoken to is respawned with it; if the folder was wiped, `--session-id` would
// silently make an empty session, so that case starts fresh (new id) and says so.
import { withAttention } from '../kit/attention.js';
import { COPILOT_ATTENTION } from './attention.js';
import { defineMintedIdVendor, type MintedIdFacts } from '../kit/minted-id.js';
import { CopilotUsage } from './usage.js';
import { COPILOT_SESSION_ID, COPILOT_STORE, type CopilotStore } from './store.js';
import { copilotSearchText } from './search.js';

/** The vendor facts, as data (docs/vendors.md §0, §4). */
export const COPILOT_FACTS: MintedIdFacts<CopilotStore, 'copilot'> = {
  vendor: 'copilot',
  displayName: 'GitHub Copilot CLI',
  bin: 'copilot',
  idName: 'a Copilot session id',
  sessionIdPattern: COPILOT_SESSION_ID,
  sessionIdFlag: '--session-id',
  // The value of --resume is optional (bare: a picker), so the id goes in the same argument.
  resumeFlag: '--resume=',
  nameFlag: '-n',
  submitDelayMs: 300,
  resumeErrorTexts: [/No session, task, or name matched/, /not a valid UUID, so a new session cannot be created/],
  sessionErrorExitCode: 1,
  reopenStarted: { with: 'session-id', onlyIfNeverSaid: false },
  store: COPILOT_STORE,
  usage: () => new CopilotUsage(),
};

export const copilot = withAttention(
  { ...defineMintedIdVendor(COPILOT_FACTS), searchText: copilotSearchText },
  COPILOT_ATTENTION,
);
