// What the store keeps per run. The manifest is the current state; events are the history.
import type { AgentStatus, VendorName } from '../../../shared/words.js';
import type { RunEvent, SessionIdRecord, SnapshotView } from '../../../shared/contract.js';

export interface AgentRecord {
  id: string;
  label: string;
  vendor: VendorName;
  cwd: string;
  args: string[];
  command: string[] | null;
  /** Every vendor session id the agent had, oldest first; the last one is current. */
  sessionIds: SessionIdRecord[];
  status: AgentStatus;
  exitCode: number | null;
  warning: string | null;
  startedAt: string | null;
}

export interface RunManifest {
  v: 1;
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  agents: AgentRecord[];
  lastSnapshot: { id: string; at: string } | null;
}

export interface StoredScreen {
  agentId: string;
  label: string;
  cols: number;
  rows: number;
  text: string;
  serialized: string;
}

export type { RunEvent, SnapshotView };
