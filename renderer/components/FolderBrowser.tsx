// The working-directory picker for a folder on any host (docs/hosts.md): the folders of one directory, listed by that
// host's own core, to open or choose. Shown inline under the field (the New run dialog already traps focus); the
// desktop app's native picker stays the one for this machine.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { FolderListing } from '../../shared/contract.js';
import { useBaton } from '../state/store.js';
import { errorMessage } from './format.js';
import './folder-browser.css';

interface Props {
  /** A host alias; '' = this machine. */
  host: string;
  /** Where to start (the field's value); absent or unreadable: the home there. */
  start: string;
  onPick(path: string): void;
  onClose(): void;
}

export function FolderBrowser({ host, start, onPick, onClose }: Props) {
  const listFolders = useBaton((s) => s.listFolders);
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const where = host ? `on ${host}` : 'on this machine';

  const open = async (path: string | undefined, fallBackHome: boolean) => {
    setBusy(true);
    setError(null);
    try {
      setListing(await listFolders(host, path));
    } catch (err) {
      if (fallBackHome && path !== undefined) return open(undefined, false);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    void open(start.startsWith('/') || start.startsWith('~') ? start : undefined, true);
    // Only when opened: navigating is the user's.
  }, []);

  useEffect(() => {
    // Focus follows the listing: its first folder (or the choose button when there is none).
    ref.current?.querySelector<HTMLElement>('[data-folder], [data-choose]')?.focus();
  }, [listing]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    // Closes the picker, not the dialog around it.
    e.stopPropagation();
    e.preventDefault();
    onClose();
  };

  return (
    <div ref={ref} className="bt-folders" role="group" aria-label={`Folders ${where}`} onKeyDown={onKeyDown}>
      <div className="bt-folders-head">
        <span className="bt-mono bt-folders-path" aria-live="polite" title={listing?.path}>
          {listing?.path ?? (busy ? 'Loading…' : '')}
        </span>
        <button
          type="button"
          className="bt-small-button"
          disabled={busy || !listing?.parent}
          onClick={() => listing?.parent && void open(listing.parent, false)}
        >
          Up
        </button>
        <button type="button" className="bt-small-button" disabled={busy} onClick={() => void open(undefined, false)}>
          Home
        </button>
      </div>
      {error ? (
        <p className="bt-folders-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="bt-folders-list" aria-label={`Folders in ${listing?.path ?? 'the home'} ${where}`}>
        {listing?.folders.map((name) => (
          <li key={name}>
            <button
              type="button"
              data-folder
              className="bt-folders-item bt-mono"
              disabled={busy}
              onClick={() => void open(`${listing.path.replace(/\/$/, '')}/${name}`, false)}
            >
              {name}/
            </button>
          </li>
        ))}
        {listing && listing.folders.length === 0 ? <li className="bt-folders-empty">No folders here</li> : null}
        {listing?.truncated ? <li className="bt-folders-empty">More folders than shown: type the path</li> : null}
      </ul>
      <div className="bt-folders-foot">
        <button
          type="button"
          data-choose
          className="bt-button"
          disabled={busy || !listing}
          onClick={() => listing && onPick(listing.path)}
        >
          Use this folder
        </button>
        <button type="button" className="bt-small-button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
