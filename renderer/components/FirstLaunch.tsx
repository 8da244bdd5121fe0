// The welcome shown while there are no runs: the three words, which vendor CLIs are here, how to add the others.
import type { VendorInfo } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { useBaton } from '../state/store.js';
import { CommandButton } from './CommandButton.js';
import './components.css';

/** How each vendor's CLI is installed; a missing entry means there is nothing to install (the shell). */
const INSTALL: Partial<Record<VendorName, { npm: string } | { note: string }>> = {
  claude: { npm: '@anthropic-ai/claude-code' },
  codex: { npm: '@openai/codex' },
  gemini: { npm: '@google/gemini-cli' },
  copilot: { npm: '@github/copilot' },
  opencode: { npm: 'opencode-ai' },
  qwen: { npm: '@qwen-code/qwen-code' },
  cursor: { note: 'installed from cursor.com; experimental: tested against a stand-in only' },
};

function HowToAdd({ v }: { v: VendorInfo }) {
  const how = INSTALL[v.vendor];
  return (
    <span className="bt-muted">
      {how && 'npm' in how ? (
        <>
          Install it so it is on PATH (<code className="bt-mono">npm install -g {how.npm}</code>), or
        </>
      ) : how ? (
        <>Cursor's CLI is {how.note}. Put it on PATH, or</>
      ) : (
        <>Put it on PATH, or</>
      )}{' '}
      set <code className="bt-mono">{v.binEnvVar}=/path/to/binary</code> before starting Baton.
    </span>
  );
}

export function FirstLaunch() {
  const vendors = useBaton((s) => s.hostInfo?.vendors ?? null);
  const listed = (vendors ?? []).filter((v) => v.vendor !== 'shell');

  return (
    <section className="bt-first-launch" aria-labelledby="bt-first-launch-title">
      <h2 id="bt-first-launch-title">Welcome to Baton</h2>
      <p>
        A <strong>run</strong> is a named group of coding agents, each a vendor CLI working in its own directory and
        terminal. A <strong>snapshot</strong> records, at one moment, each agent's conversation id, directory and
        screen. A <strong>handle</strong> is one string holding a snapshot's conversations: paste it back later to
        resume the whole run, and keep it secret.
      </p>
      <div className="bt-row bt-gap">
        <CommandButton command="run.new" className="bt-button bt-primary" />
        <CommandButton command="resume.open" className="bt-button" />
        <CommandButton command="sessions.open" className="bt-button" />
      </div>
      <h3 className="bt-subhead">Vendor CLIs on this machine</h3>
      {vendors === null ? (
        <p className="bt-muted" role="status">
          Detecting vendor CLIs…
        </p>
      ) : (
        <ul className="bt-vendor-list">
          {listed.map((v) => (
            <li key={v.vendor} className="bt-vendor">
              <span className={`bt-badge ${v.found ? 'bt-health-resumable' : 'bt-health-missing'}`}>
                {v.found ? 'found' : 'not found'}
              </span>{' '}
              <strong>{v.displayName}</strong>{' '}
              {v.found ? (
                <>
                  <code className="bt-mono">{v.bin}</code>
                  {v.version ? <span className="bt-muted"> — {v.version}</span> : null}
                </>
              ) : (
                <HowToAdd v={v} />
              )}
              {v.note ? <p className="bt-field-hint">{v.note}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
