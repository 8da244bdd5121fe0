// One turn of the fake Codex model: the prompt is echoed and recorded (rollout lines as the real CLI 0.169 writes
// them, and history.jsonl), the working line shows while it "thinks", a command it is asked to run waits for the
// approval dialog, then the answer is recorded, printed, and the `-c notify=[…]` program is told. Node builtins only.
import fs from 'node:fs';
import crypto from 'node:crypto';
import { envMs } from '../lib/args.mjs';
import { appendJsonLine } from '../lib/fsutil.mjs';
import { answerTurns, think } from '../lib/memory.mjs';
import { notifyProgram, runNotify, toolAnswer, toolRequest } from '../lib/signals.mjs';
import { oneLine, out, printLine, printReply } from '../lib/tui.mjs';
import { historyFile, home, uuidv7 } from './home.mjs';

const DELAY_MS = envMs('FAKE_CODEX_DELAY_MS', 50);

/** Answers the prompt `text` in `thread`, on the screen of `tui`; `opts` are the process's options. */
export async function runTurn(text, { thread, tui, cwd, opts }) {
  printLine(`› ${oneLine(text)}`);
  thread.ensureRollout();
  const turnId = uuidv7();
  const started = Math.floor(Date.now() / 1000);
  recordPrompt(thread, { text, turnId, started, cwd });

  // The working line real Codex shows while a turn runs, gone once it answers.
  out('• Working (0s • esc to interrupt)');
  await think(DELAY_MS);
  out('\r\x1b[2K');

  // A command that needs approval: the dialog, then the command's line once approved.
  const command = toolRequest(text);
  let ran = false;
  if (command !== null) {
    ran = await tui.ask([
      '',
      'Would you like to run the following command?',
      '',
      `  $ ${command}`,
      '',
      '› 1. Yes, proceed (y)',
      '  2. No, and tell Codex what to do differently (esc)',
    ]);
    printLine(ran ? `• Ran ${command}` : '✗ You did not approve this command');
    await think(DELAY_MS);
  }

  const answer = command !== null ? toolAnswer(command, ran) : answerTurns(thread.turns);
  recordAnswer(thread, { answer, turnId, started });

  printReply('•', answer);
  tui.draw();
  runNotify(notifyProgram(opts.config), {
    type: 'agent-turn-complete',
    'thread-id': thread.id,
    'turn-id': turnId,
    cwd: process.cwd(),
    'input-messages': [text],
    'last-assistant-message': answer,
  });
}

/** The turn's start and the user's message: in the rollout (the environment once a thread) and in history.jsonl. */
function recordPrompt(thread, { text, turnId, started, cwd }) {
  thread.line('event_msg', {
    type: 'task_started',
    turn_id: turnId,
    root_turn_id: turnId,
    started_at: started,
    model_context_window: 258400,
    collaboration_mode_kind: 'default',
  });
  thread.line('turn_context', {
    turn_id: turnId,
    root_turn_id: turnId,
    cwd,
    approval_policy: 'on-request',
    model: 'fake-codex',
    effort: 'medium',
    summary: 'auto',
  });
  if (!thread.envSent) {
    thread.line('response_item', {
      type: 'message',
      id: `msg_${uuidv7()}`,
      role: 'user',
      content: [
        {
          type: 'input_text',
          text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
        },
      ],
    });
    thread.envSent = true;
  }
  thread.line('response_item', {
    type: 'message',
    id: `msg_${uuidv7()}`,
    role: 'user',
    content: [{ type: 'input_text', text }],
  });
  thread.line('event_msg', {
    type: 'item_completed',
    thread_id: thread.id,
    turn_id: turnId,
    item: { type: 'UserMessage', id: uuidv7(), content: [{ type: 'text', text, text_elements: [] }] },
  });
  fs.mkdirSync(home, { recursive: true });
  appendJsonLine(historyFile, { session_id: thread.id, ts: started, text });
  thread.turns.push({ role: 'user', text });
}

/** The model's answer, its token usage and the turn's end, in the rollout. */
function recordAnswer(thread, { answer, turnId, started }) {
  const msgId = `msg_${crypto.randomBytes(8).toString('hex')}`;
  thread.line('event_msg', {
    type: 'item_completed',
    thread_id: thread.id,
    turn_id: turnId,
    item: { type: 'AgentMessage', id: msgId, content: [{ type: 'Text', text: answer }] },
  });
  thread.line('response_item', {
    type: 'message',
    status: 'completed',
    id: msgId,
    role: 'assistant',
    content: [{ type: 'output_text', text: answer, annotations: [] }],
  });
  // As 0.169 records each call: its own usage and this process's running total (cached tokens inside input).
  const call = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5 };
  thread.usage = {
    input_tokens: (thread.usage?.input_tokens ?? 0) + 10,
    cached_input_tokens: 0,
    cache_write_input_tokens: 0,
    output_tokens: (thread.usage?.output_tokens ?? 0) + 5,
  };
  const withTotal = (u) => ({ ...u, reasoning_output_tokens: 0, total_tokens: u.input_tokens + u.output_tokens });
  thread.line('event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: withTotal(thread.usage),
      last_token_usage: withTotal(call),
      last_usage_includes_reasoning: false,
      model_context_window: 258400,
    },
    rate_limits: { limit_id: 'codex', primary: null, secondary: null },
  });
  thread.line('event_msg', {
    type: 'task_complete',
    turn_id: turnId,
    root_turn_id: turnId,
    last_agent_message: answer,
    started_at: started,
    completed_at: Math.floor(Date.now() / 1000),
    duration_ms: DELAY_MS,
  });
  thread.turns.push({ role: 'assistant', text: answer });
}
