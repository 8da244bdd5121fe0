// Search every conversation on this machine (docs/search.md §6): words → results newest first (vendor, run and label or
// "outside Baton", directory, time, the matching lines highlighted), filtered by vendor, run and directory; a hit
// opens the transcript at that point (SearchTranscript.tsx), from where the conversation can be resumed.
import { useEffect, useId, useState } from 'react';
import type { Result, SearchHit, SearchResult, SearchStatus } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { useSearch } from '../state/search-store.js';
import { useBaton } from '../state/store.js';
import { ConversationFilters } from './ConversationFilters.js';
import { Dialog } from './Dialog.js';
import { errorMessage, relativeTime } from './format.js';
import { MarkedLine, whereOf, type Opened } from './search-format.js';
import { SearchTranscript } from './SearchTranscript.js';
import './components.css';
import './search.css';

const TITLE = 'Search every conversation';
/** Results asked for per query. */
const PAGE = 50;

type Found = { state: 'idle' } | { state: 'error'; message: string } | { state: 'ok'; result: Result<'search.query'> };

function progressText(s: SearchStatus | null): string {
  if (!s) return 'Looking at the index…';
  if (s.state === 'failed') return `The index could not be built: ${s.error ?? 'unknown error'}`;
  const held = `${s.files.toLocaleString()} conversation${s.files === 1 ? '' : 's'} indexed`;
  if (s.state === 'indexing' || s.state === 'starting')
    return s.total > 0
      ? `Indexing: ${s.done.toLocaleString()} of ${s.total.toLocaleString()} changed transcripts read (${held}); results so far are shown`
      : `Indexing… (${held})`;
  return held;
}

export function SearchDialog() {
  const dialog = useBaton((s) => s.dialog);
  return dialog?.kind === 'search' ? <SearchDialogBody /> : null;
}

function SearchDialogBody() {
  const connected = useBaton((s) => s.status === 'connected');
  const runs = useBaton((s) => s.runs);
  const openDialog = useBaton((s) => s.openDialog);
  const status = useSearch((s) => s.status);
  const query = useSearch((s) => s.query);
  const lookAtIndex = useSearch((s) => s.lookAtIndex);
  const id = useId();
  const [text, setText] = useState('');
  const [vendor, setVendor] = useState<VendorName | 'all'>('all');
  const [run, setRun] = useState('all');
  const [dir, setDir] = useState('');
  const [found, setFound] = useState<Found>({ state: 'idle' });
  const [busy, setBusy] = useState(false);
  const [opened, setOpened] = useState<Opened | null>(null);
  // Results follow the index: a progress event while indexing asks again.
  const indexed = status?.files ?? 0;

  // The index's progress from the core (starting its worker if no search has yet): at open and at each reconnect.
  useEffect(() => {
    if (connected) lookAtIndex();
  }, [connected, lookAtIndex]);

  useEffect(() => {
    const words = text.trim();
    const dirText = dir.trim();
    if (!connected || words === '') return setFound({ state: 'idle' });
    if (dirText !== '' && !dirText.startsWith('/')) {
      return setFound({ state: 'error', message: 'The directory must be an absolute path (starting with /).' });
    }
    let current = true;
    const timer = setTimeout(() => {
      setBusy(true);
      query({
        text: words.slice(0, 500),
        limit: PAGE,
        ...(vendor !== 'all' ? { vendor } : {}),
        ...(run !== 'all' ? { run } : {}),
        ...(dirText ? { dir: dirText } : {}),
      })
        .then((result) => current && setFound({ state: 'ok', result }))
        .catch((err: unknown) => current && setFound({ state: 'error', message: errorMessage(err) }))
        .finally(() => current && setBusy(false));
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [connected, query, text, vendor, run, dir, indexed]);

  const close = () => openDialog(null);

  if (opened) return <SearchTranscript opened={opened} onBack={() => setOpened(null)} onClose={close} />;

  const result = found.state === 'ok' ? found.result : null;
  return (
    <Dialog
      title={TITLE}
      onClose={close}
      wide
      footer={
        <button type="button" className="bt-button" onClick={close}>
          Close
        </button>
      }
    >
      <ConversationFilters
        className="bt-search-filters"
        label="Words"
        placeholder='Words every message must hold; "a phrase"; prefix*'
        maxLength={500}
        text={text}
        onText={setText}
        vendor={vendor}
        onVendor={setVendor}
      >
        <div className="bt-field">
          <label htmlFor={`${id}-run`}>Run</label>
          <select id={`${id}-run`} value={run} onChange={(e) => setRun(e.target.value)}>
            <option value="all">any (and outside Baton)</option>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </div>
        <div className="bt-field">
          <label htmlFor={`${id}-dir`}>Directory</label>
          <input
            id={`${id}-dir`}
            className="bt-input bt-mono"
            placeholder="/path (and below)"
            value={dir}
            onChange={(e) => setDir(e.target.value)}
          />
        </div>
      </ConversationFilters>
      <p className="bt-muted bt-search-progress" role="status" aria-live="polite">
        {progressText(status)}
        {busy ? ' · searching…' : ''}
      </p>
      {found.state === 'error' ? (
        <p className="bt-error-box" role="alert">
          {found.message}
        </p>
      ) : null}
      {result ? (
        <p className="bt-muted">
          {result.total === 0
            ? 'No conversation holds those words.'
            : `${result.total > result.results.length ? `The newest ${result.results.length} of ${result.total}` : result.total} conversation${result.total === 1 ? '' : 's'}, newest first${result.capped ? ' (only the newest matching messages were read: add words to narrow it)' : ''}`}
        </p>
      ) : null}
      {result && result.results.length > 0 ? (
        <ol className="bt-search-results" aria-label="Conversations found, newest first">
          {result.results.map((r) => (
            <ResultItem
              key={`${r.vendor}\n${r.sessionId}`}
              result={r}
              onOpen={(hit) => setOpened({ result: r, hit, text })}
            />
          ))}
        </ol>
      ) : null}
    </Dialog>
  );
}

function ResultItem({ result: r, onOpen }: { result: SearchResult; onOpen(hit: SearchHit | null): void }) {
  return (
    <li className="bt-search-result">
      <div className="bt-search-head">
        <span className="bt-search-vendor">{r.vendor}</span>
        <span className={r.holder ? 'bt-search-run' : 'bt-search-run bt-muted'}>{whereOf(r)}</span>
        <span className="bt-mono bt-search-dir" title={r.cwd ?? undefined}>
          {r.cwd ?? 'directory unknown'}
        </span>
        <time dateTime={r.lastActivity} title={new Date(r.lastActivity).toLocaleString()}>
          {relativeTime(r.lastActivity)}
        </time>
      </div>
      {r.hits.map((h) => (
        <button
          key={h.messageId}
          type="button"
          className="bt-search-hit"
          aria-label={`Open the ${r.vendor} conversation (${whereOf(r)}) at this ${h.role} message`}
          onClick={() => onOpen(h)}
        >
          <span className="bt-search-role">{h.role}</span>
          <span className="bt-search-lines">
            {h.lines.map((l, i) => (
              <MarkedLine key={i} line={l} />
            ))}
          </span>
        </button>
      ))}
      {r.moreHits > 0 ? (
        <span className="bt-muted bt-search-more">
          and {r.moreHits} more matching message{r.moreHits === 1 ? '' : 's'}
        </span>
      ) : null}
    </li>
  );
}
