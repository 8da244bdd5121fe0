// New run: a name and one or more agents (vendor, directory, label, isolation), validated live, started with progress
// per agent. An agent whose directory is in a git repository gets a worktree of its own by default (docs/worktrees.md).
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { AgentSpec, RunView, VendorInfo } from '../../shared/contract.js';
import { LIMITS } from '../../shared/words.js';
import { useBaton } from '../state/store.js';
import { AgentRowFields, type AgentRow, type AgentRowErrors, type AgentRowField } from './AgentRowFields.js';
import { Dialog } from './Dialog.js';
import { agentField, errorField, errorMessage, messageForField } from './format.js';
import { repoKey, useRepoInspections } from './repo-inspections.js';
import { agentResult, checkoutDir, defaultVendor, rowErrors } from './new-run-rows.js';
import { RUN_NAME_RULE, suggestRunName, validateRunName } from './validate.js';
import { WorktreeFields } from './WorktreeFields.js';
import { useHostAliases } from './host-aliases.js';
import {
  DEFAULT_WORKTREE_CHOICE,
  setupApprovedHere,
  setupsToApprove,
  toggleSetup,
  worktreeError,
  worktreeSpec,
  type RepoState,
} from './worktree-spec.js';
import './components.css';

interface ServerError {
  message: string;
  field: string | undefined;
}

export function NewRunDialog() {
  const open = useBaton((s) => s.dialog?.kind === 'new-run');
  return open ? <NewRunForm /> : null;
}

function NewRunForm() {
  const runs = useBaton((s) => s.runs);
  const vendors = useBaton((s) => s.hostInfo?.vendors ?? null);
  const connected = useBaton((s) => s.status === 'connected');
  const fetchRun = useBaton((s) => s.fetchRun);
  const startRun = useBaton((s) => s.startRun);
  const approveSetup = useBaton((s) => s.approveSetup);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const nextKey = useRef(1);

  const [nameDraft, setNameDraft] = useState<string | null>(null);
  const [rows, setRows] = useState<AgentRow[]>(() => [
    { key: 0, vendor: defaultVendor(vendors), cwd: '', label: '', worktree: DEFAULT_WORKTREE_CHOICE, host: '' },
  ]);
  /** The setup commands the user approved here, by hash (a repository's, shared by its agents). */
  const [setupOk, setSetupOk] = useState<ReadonlySet<string>>(new Set());
  // A directory on another host is inspected by that host's core (docs/hosts.md).
  const repos = useRepoInspections(rows.map((r) => repoKey(r.host, r.cwd)));
  const repoOfRow = (r: AgentRow) => repos.of(repoKey(r.host, r.cwd));
  const hostAliases = useHostAliases();
  const hostVendors = useBaton((s) => s.hostVendors);
  const loadHostVendors = useBaton((s) => s.loadHostVendors);
  const hostsKey = [...new Set(rows.map((r) => r.host).filter((h) => h !== ''))].join('\n');
  // Vendor detection applies on the agent's host: its own core says which CLIs are installed there.
  useEffect(() => {
    for (const host of hostsKey.split('\n')) if (host) void loadHostVendors(host);
  }, [hostsKey, loadHostVendors]);
  const vendorsOf = (row: AgentRow): VendorInfo[] | null => (row.host ? (hostVendors[row.host] ?? null) : vendors);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submits, setSubmits] = useState(0);
  const [phase, setPhase] = useState<'edit' | 'starting' | 'done'>('edit');
  const [serverError, setServerError] = useState<ServerError | null>(null);
  const [result, setResult] = useState<RunView | null>(null);
  const [templateBusy, setTemplateBusy] = useState(false);

  // Vendors arrive after the dialog opened: give rows without a vendor the default one.
  useEffect(() => {
    if (vendors)
      setRows((rs) =>
        rs.some((r) => r.vendor === '')
          ? rs.map((r) => (r.vendor === '' ? { ...r, vendor: defaultVendor(vendors) } : r))
          : rs,
      );
  }, [vendors]);

  useEffect(() => {
    if (phase === 'done') closeRef.current?.focus();
  }, [phase]);

  // After a refused Start, focus the first field that needs fixing.
  useEffect(() => {
    if (submits > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submits]);

  const takenNames = useMemo(() => runs.map((r) => r.name), [runs]);
  const name = nameDraft ?? suggestRunName(rows[0]?.cwd ?? '', takenNames);
  const nameError = validateRunName(name, takenNames);
  const errors = rows.map((r) => rowErrors(r, rows, vendorsOf(r)));
  const worktreeErrors = rows.map((r) => worktreeError(r.worktree, repoOfRow(r)));
  const valid =
    !nameError && errors.every((e) => Object.keys(e).length === 0) && worktreeErrors.every((e) => e === null);
  const shown = (field: string) => submits > 0 || touched.has(field);
  const serverRow = agentField(serverError?.field);
  const serverName = serverError?.field === 'name' ? messageForField(serverError.message, 'name') : undefined;
  const serverRowMessage = serverError ? messageForField(serverError.message, serverError.field) : '';
  const general = serverError && !serverRow && !serverName ? serverError.message : null;
  const busy = phase === 'starting' || templateBusy;

  const edited = () => setServerError(null);
  const touch = (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
  const updateRow = (key: number, patch: Partial<AgentRow>) => {
    edited();
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  };
  const addRow = () => {
    const last = rows[rows.length - 1];
    // Same directory and isolation as the agent above; a branch or worktree to reuse is never the same twice.
    const worktree = last
      ? { ...DEFAULT_WORKTREE_CHOICE, isolation: last.worktree.isolation, base: last.worktree.base }
      : DEFAULT_WORKTREE_CHOICE;
    setRows((rs) => [
      ...rs,
      {
        key: nextKey.current++,
        vendor: last?.vendor ?? defaultVendor(vendors),
        cwd: last?.cwd ?? '',
        label: '',
        worktree,
        host: last?.host ?? '',
      },
    ]);
  };

  const useLastRun = async () => {
    const last = runs[0];
    if (!connected || !last) return;
    setTemplateBusy(true);
    try {
      const run = await fetchRun(last.id);
      // An agent that had a worktree is offered a new one in the same repository; one that shared its directory shares it.
      setRows(
        run.agents.map((a) => ({
          key: nextKey.current++,
          vendor: a.vendor,
          cwd: checkoutDir(a),
          label: a.label,
          worktree: { ...DEFAULT_WORKTREE_CHOICE, isolation: a.worktree ? 'own' : 'share' },
          host: a.host ?? '',
        })),
      );
      setServerError(null);
    } catch (err) {
      setServerError({ message: `Could not read “${last.name}”: ${errorMessage(err)}`, field: undefined });
    } finally {
      setTemplateBusy(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (phase !== 'edit') return;
    if (!valid) {
      setSubmits((n) => n + 1);
      return;
    }
    setServerError(null);
    setPhase('starting');
    try {
      // Directories typed just before Start: their isolation is decided on the core's answer, as the dialog shows it.
      const known = await repos.settle(rows.map((r) => repoKey(r.host, r.cwd)));
      const stateOf = (r: AgentRow): RepoState | undefined => known.get(repoKey(r.host, r.cwd));
      const specs: AgentSpec[] = rows.map((r) => ({
        vendor: r.vendor as AgentSpec['vendor'],
        cwd: r.cwd,
        ...(r.label ? { label: r.label } : {}),
        ...(r.host ? { host: r.host } : {}),
        ...worktreeSpec(r.worktree, stateOf(r)),
      }));
      // A setup command on a host is approved there, where its worktrees are made.
      for (const host of new Set(rows.map((r) => r.host))) {
        const here = rows.filter((r) => r.host === host).map((r) => ({ choice: r.worktree, state: stateOf(r) }));
        for (const a of setupsToApprove(here, setupOk)) await approveSetup(a.repoRoot, a.hash, host || undefined);
      }
      const run = await startRun(name, specs);
      const troubled = run.agents.filter((a) => a.status === 'failed' || a.status === 'exited').length;
      if (troubled === 0) {
        toast(
          'success',
          `Run “${run.name}” started with ${run.agents.length} agent${run.agents.length === 1 ? '' : 's'}`,
        );
        openDialog(null);
        return;
      }
      setResult(run);
      setPhase('done');
    } catch (err) {
      setServerError({ message: errorMessage(err), field: errorField(err) });
      setPhase('edit');
      setSubmits((n) => n + 1);
    }
  };

  const footer =
    phase === 'done' ? (
      <button ref={closeRef} type="button" className="bt-button bt-primary" onClick={() => openDialog(null)}>
        Close
      </button>
    ) : (
      <>
        <button type="button" className="bt-button" disabled={phase === 'starting'} onClick={() => openDialog(null)}>
          Cancel
        </button>
        <button type="submit" form={`${id}-form`} className="bt-button bt-primary" disabled={busy}>
          {phase === 'starting' ? 'Starting…' : 'Start'}
        </button>
      </>
    );

  const nameShownError = serverName ?? (shown('name') ? nameError : null);
  return (
    <Dialog title="New run" onClose={() => openDialog(null)} footer={footer} busy={phase === 'starting'} wide>
      <form id={`${id}-form`} ref={formRef} className="bt-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="bt-field">
          <label htmlFor={`${id}-name`}>Run name</label>
          <input
            id={`${id}-name`}
            className="bt-input"
            value={name}
            disabled={phase !== 'edit'}
            spellCheck={false}
            autoComplete="off"
            data-autofocus
            aria-invalid={nameShownError ? true : undefined}
            aria-describedby={`${id}-name-hint`}
            onChange={(e) => {
              edited();
              setNameDraft(e.target.value);
              touch('name');
            }}
          />
          <span id={`${id}-name-hint`} className={nameShownError ? 'bt-field-error' : 'bt-field-hint'}>
            {nameShownError ?? RUN_NAME_RULE}
          </span>
        </div>
        <div className="bt-row bt-gap">
          <button
            type="button"
            className="bt-button"
            disabled={busy || phase !== 'edit' || runs.length === 0 || !connected}
            onClick={() => void useLastRun()}
          >
            Use the last run's agents
          </button>
          {runs[0] ? <span className="bt-muted">from {runs[0].name}</span> : null}
        </div>
        {rows.map((row, i) => {
          const rowError: AgentRowErrors = {};
          for (const field of ['vendor', 'cwd', 'label'] as const) {
            const message = errors[i]?.[field];
            if (message && shown(`${row.key}.${field}`)) rowError[field] = message;
          }
          let status: ReactNode = null;
          if (serverRow?.row === i) {
            const key = serverRow.key;
            if (key === 'vendor' || key === 'cwd' || key === 'label') rowError[key] = serverRowMessage;
            else status = <span className="bt-danger-text">{serverRowMessage}</span>;
          }
          if (phase === 'starting') status = 'starting…';
          if (phase === 'done') status = agentResult(result?.agents[i]);
          return (
            <AgentRowFields
              key={row.key}
              index={i}
              row={row}
              errors={rowError}
              vendors={vendorsOf(row)}
              hosts={hostAliases}
              disabled={phase !== 'edit'}
              canRemove={rows.length > 1 && phase === 'edit'}
              status={status}
              onChange={(patch) => updateRow(row.key, patch)}
              onTouch={(field: AgentRowField) => touch(`${row.key}.${field}`)}
              onRemove={() => {
                edited();
                setRows((rs) => rs.filter((r) => r.key !== row.key));
              }}
            >
              <WorktreeFields
                agentName={`agent ${i + 1}`}
                choice={row.worktree}
                state={repoOfRow(row)}
                disabled={phase !== 'edit'}
                showErrors={submits > 0}
                setupApproved={setupApprovedHere(setupOk, repoOfRow(row))}
                onChange={(patch) => updateRow(row.key, { worktree: { ...row.worktree, ...patch } })}
                onApproveSetup={(on) => setSetupOk((old) => toggleSetup(old, repoOfRow(row), on))}
              />
            </AgentRowFields>
          );
        })}
        <div className="bt-row bt-gap">
          <button
            type="button"
            className="bt-button"
            disabled={phase !== 'edit' || rows.length >= LIMITS.agentsPerRun}
            onClick={addRow}
          >
            Add agent
          </button>
          {rows.length >= LIMITS.agentsPerRun ? (
            <span className="bt-muted">A run holds at most {LIMITS.agentsPerRun} agents.</span>
          ) : null}
        </div>
        {general ? (
          <p className="bt-error-box" role="alert">
            {general}
          </p>
        ) : null}
        {phase === 'done' && result ? (
          <p className="bt-warn-box" role="alert">
            Run “{result.name}” started, but not every agent is running: see each agent above. Its pane shows what
            happened.
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
