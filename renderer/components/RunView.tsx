// The selected run: its toolbar and its panes, in a grid or as tabs (the user's choice, kept per run).
import { useEffect } from 'react';
import type { RunView as Run } from '../../shared/contract.js';
import { TerminalPane } from '../panes/TerminalPane.js';
import { focusPane } from '../panes/terminal-registry.js';
import { showStoredScreens } from '../panes/pane-screens.js';
import { paneShape } from '../panes/pane-shape.js';
import { useBaton } from '../state/store.js';
import { CommandButton } from './CommandButton.js';
import { NextNeedingButton, NotificationSettings } from './AttentionControls.js';
import { TabNeed } from './AttentionBadge.js';
import { CopyHandleMenu } from './CopyHandleMenu.js';
import { RunCostTotal, useRunCost } from './Cost.js';
import { useRunsAhead } from './RunViewAhead.js';

export function RunView({ run }: { run: Run }) {
  const layout = useBaton((s) => s.layouts[run.id] ?? 'grid');
  const setLayout = useBaton((s) => s.setLayout);
  const active = useBaton((s) => s.activeAgent[run.id] ?? run.agents[0]?.id);
  const setActive = useBaton((s) => s.setActiveAgent);
  const searchAgent = useBaton((s) => s.searchAgent);
  const setSearchAgent = useBaton((s) => s.setSearchAgent);
  const outcomes = useBaton((s) => s.lastOutcomes[run.id]);
  const connected = useBaton((s) => s.status === 'connected');
  const live = run.agents.filter((a) => a.terminalId !== null && a.status === 'running').length;
  useRunCost(run.id, live > 0);

  // The other live runs' panes and details load in the background, so switching to one shows its screens at once.
  useRunsAhead(run.id, connected);

  // Again after a reconnect: the panes' registry draws the recorded screens with the client the store gave it
  // (docs/architecture.md §6).
  useEffect(() => {
    if (connected && run.agents.some((a) => a.terminalId === null))
      void showStoredScreens(run.id).catch(() => undefined);
  }, [connected, run.id, run.agents]);

  return (
    <div className="bt-run">
      <div className="bt-toolbar" role="toolbar" aria-label="Run actions">
        <h1 className="bt-run-title">{run.name}</h1>
        <span className="bt-muted">
          {live}/{run.agents.length} live
        </span>
        <RunCostTotal runId={run.id} />
        <CommandButton command="run.snapshot" />
        <CopyHandleMenu runId={run.id} />
        <CommandButton command="resume.open" />
        <CommandButton command="run.stop" short />
        <NextNeedingButton />
        <NotificationSettings runId={run.id} />
        <div className="bt-layout-toggle" role="group" aria-label="Layout">
          <button type="button" aria-pressed={layout === 'grid'} onClick={() => setLayout(run.id, 'grid')}>
            Grid
          </button>
          <button type="button" aria-pressed={layout === 'tabs'} onClick={() => setLayout(run.id, 'tabs')}>
            Tabs
          </button>
        </div>
      </div>
      {outcomes && outcomes.some((o) => o.outcome !== 'resumed') && (
        <ul className="bt-outcomes" aria-label="Resume outcomes">
          {outcomes.map((o) => (
            <li key={o.agentId} className={`bt-outcome-${o.outcome}`}>
              {o.label}: {o.outcome}
              {o.message ? ` — ${o.message}` : ''}
            </li>
          ))}
        </ul>
      )}
      {layout === 'tabs' && (
        <div className="bt-tabs" role="tablist" aria-label="Agents">
          {run.agents.map((a, i) => (
            <button
              key={a.id}
              type="button"
              role="tab"
              aria-selected={a.id === active}
              onClick={() => {
                setActive(run.id, a.id);
                requestAnimationFrame(() => focusPane(a.id));
              }}
            >
              {i + 1}. {a.label}
              <TabNeed agent={a} />
            </button>
          ))}
        </div>
      )}
      <div
        className={layout === 'grid' ? `bt-grid bt-grid-${gridClass(run.agents.length)}` : 'bt-tabpanel'}
        data-pane-shape={paneShape(layout, run.agents.length)}
      >
        {run.agents.map((agent, i) => (
          <TerminalPane
            key={agent.id}
            runId={run.id}
            agent={agent}
            index={i}
            visible={layout === 'grid' || agent.id === active}
            searchOpen={searchAgent === agent.id}
            onCloseSearch={() => {
              setSearchAgent(null);
              focusPane(agent.id);
            }}
          />
        ))}
      </div>
    </div>
  );
}

/** Up to 4 panes in two columns; more in a square-ish grid (3 columns up to 9, then 4: 16 panes are a 4×4 grid). */
const gridClass = (panes: number) => (panes <= 4 ? String(panes) : panes <= 9 ? 'wide-3' : 'wide-4');
