// Which agent needs the user: each agent's attention state, the event that tells a change, and a run's notification
// settings (docs/attention.md).
import { z } from 'zod';
import { vendorNameSchema } from '../words.js';
import { agentId, isoTime, runId, runRef } from './fields.js';

/**
 * working: its turn runs. waiting: its turn is over, it waits for input. asking: a tool call or command waits for
 * approval. idle: quiet, nothing asked (started, no turn yet). exited: its terminal has ended.
 */
export const agentStateSchema = z.enum(['working', 'waiting', 'asking', 'idle', 'exited']);
export type AgentState = z.infer<typeof agentStateSchema>;

/** The states in which an agent needs the user. */
export const NEEDS_USER: readonly AgentState[] = ['waiting', 'asking'];
export const needsUser = (state: AgentState): boolean => state === 'waiting' || state === 'asking';

/** Where a vendor's state comes from: its hooks, its notify program, its event stream, or patterns over its screen. */
export const signalSourceSchema = z.enum(['hooks', 'notify', 'events', 'screen', 'none']);
export type SignalSource = z.infer<typeof signalSourceSchema>;

export const agentAttentionSchema = z.lazy(() =>
  z.strictObject({
    state: agentStateSchema,
    /** When the agent entered this state (ISO). */
    since: isoTime,
    /** What it asks, in the vendor's words, when the signal carried it (waiting and asking only); else null. */
    asks: z.string().max(300).nullable(),
    /** The state was read from the screen (patterns), not from a signal of the vendor's own. */
    inferred: z.boolean(),
    /** Counts the times the agent started needing the user: one per turn, so a client notifies once per value. */
    episode: z.number().int().nonnegative(),
    /** Where this vendor's states come from (the badge's tooltip says so). */
    source: signalSourceSchema,
  }),
);
export type AgentAttention = z.infer<typeof agentAttentionSchema>;

/** A run's notification settings: which states notify, the run muted, the agents muted. Kept in the run's manifest. */
export const attentionSettingsSchema = z.lazy(() =>
  z.strictObject({
    notifyOn: z.array(z.enum(['waiting', 'asking'])).max(2),
    muted: z.boolean(),
    mutedAgents: z.array(agentId).max(64),
  }),
);
export type AttentionSettings = z.infer<typeof attentionSettingsSchema>;
export const DEFAULT_ATTENTION_SETTINGS: AttentionSettings = {
  notifyOn: ['waiting', 'asking'],
  muted: false,
  mutedAgents: [],
};

export const attentionEvents = {
  /** An agent's attention state changed (`episode` grows when it starts needing the user). */
  'agent.state': () => z.strictObject({ runId, agentId, attention: agentAttentionSchema }),
  /** A run's notification settings changed. */
  'run.attention': () => z.strictObject({ runId, settings: attentionSettingsSchema }),
} as const;

/** A live agent's state with where it is: for the badge and "Next agent that needs me" across runs. */
export const agentAttentionEntrySchema = z.lazy(() =>
  z.strictObject({
    runId,
    runName: z.string(),
    agentId,
    label: z.string(),
    vendor: vendorNameSchema,
    attention: agentAttentionSchema,
  }),
);
export type AgentAttentionEntry = z.infer<typeof agentAttentionEntrySchema>;

export const attentionRequests = {
  /** Every live agent's state, in every run. */
  'attention.list': () => ({ params: z.strictObject({}), result: z.array(agentAttentionEntrySchema) }),
  'attention.settings': () => ({
    params: z.strictObject({ run: runRef }),
    result: attentionSettingsSchema,
  }),
  /** Changes what is given: the states that notify, the run's mute, or one agent's mute. */
  'attention.configure': () => ({
    params: z.strictObject({
      run: runRef,
      notifyOn: z
        .array(z.enum(['waiting', 'asking']))
        .max(2)
        .optional(),
      muted: z.boolean().optional(),
      agent: z.strictObject({ agentId, muted: z.boolean() }).optional(),
    }),
    result: attentionSettingsSchema,
  }),
} as const;
