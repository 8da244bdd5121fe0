// Tool calls of the mock model (docs/attention.md §6): "please run `cmd`" in the last user message makes the mock call
// the CLI's own shell tool once, in that API's format, so the real CLI shows its approval dialog; the tool's result
// is then answered "Ran cmd.". A request that does not offer the tool (a title request, an internal call) is an
// ordinary turn. Each API's turn is read here and streamed by its writer in mock-model.ts.
import type { ServerResponse } from 'node:http';
import { TOOL_REQUEST, toolReply } from './mock-answers.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);

/** The mock's tool turn: call the tool with this command, or answer the tool's result with this text. */
export type ToolTurn = { call: string } | { result: string };

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : list(content)
        .filter(isObj)
        .map((b) => str(b.text))
        .join('\n');

const parsed = (args: unknown): Json => {
  if (isObj(args)) return args;
  try {
    const v: unknown = JSON.parse(str(args));
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
};

// ---------- OpenAI Responses (Codex) ----------

/** Codex's shell tools, newest first: 0.169 offers `exec_command`; older releases `shell`. */
const RESPONSES_SHELLS = ['exec_command', 'shell', 'local_shell'];

export function responsesToolTurn(body: Json): (ToolTurn & { tool: string }) | null {
  const input = list(body.input).filter(isObj);
  const last = input.at(-1);
  if (!last) return null;
  if (last.type === 'function_call_output') {
    const call = [...input].reverse().find((i) => i.type === 'function_call' && i.call_id === last.call_id);
    const args = parsed(call?.arguments);
    return { result: toolReply(str(args.cmd) || list(args.command).map(str).join(' ')), tool: str(call?.name) };
  }
  if (last.role !== 'user') return null;
  const offered = list(body.tools)
    .filter(isObj)
    .map((t) => str(t.name));
  const tool = RESPONSES_SHELLS.find((t) => offered.includes(t));
  const cmd = TOOL_REQUEST.exec(textOf(last.content))?.[1];
  return tool && cmd ? { call: cmd, tool } : null;
}

/**
 * The function call as Responses SSE events. Codex asks the user before a command only when it leaves the sandbox
 * (`sandbox_permissions: "require_escalated"`, with the question in `justification`) or the policy says so.
 */
export function streamResponsesCall(
  res: ServerResponse,
  base: Json,
  tool: string,
  cmd: string,
  usage: Json,
  newId: (p: string) => string,
): void {
  const args = JSON.stringify(
    tool === 'exec_command'
      ? { cmd, sandbox_permissions: 'require_escalated', justification: `Run ${cmd}?` }
      : { command: ['bash', '-lc', cmd], sandbox_permissions: 'require_escalated', justification: `Run ${cmd}?` },
  );
  const callId = newId('call_mock');
  const item = { id: newId('fc_mock'), type: 'function_call', status: 'completed', name: tool, call_id: callId };
  let seq = 0;
  const send = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  send('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } });
  send('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: args });
  send('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: args });
  const done = { ...item, arguments: args };
  send('response.output_item.done', { output_index: 0, item: done });
  send('response.completed', { response: { ...base, status: 'completed', output: [done], usage } });
  res.end();
}

// ---------- Gemini (Gemini CLI; Qwen Code speaks Chat Completions) ----------

export function geminiToolTurn(body: Json): ToolTurn | null {
  const contents = list(body.contents).filter(isObj);
  const last = contents.at(-1);
  if (!last || (last.role !== undefined && last.role !== 'user')) return null;
  const parts = list(last.parts).filter(isObj);
  const response = parts.map((p) => p.functionResponse).find(isObj);
  if (response) {
    const prev = list(contents.at(-2)?.parts)
      .filter(isObj)
      .map((p) => p.functionCall)
      .find(isObj);
    return { result: toolReply(str(parsed(prev?.args).command)) };
  }
  const offered = list(body.tools)
    .filter(isObj)
    .flatMap((t) => list(t.functionDeclarations).filter(isObj))
    .some((f) => f.name === 'run_shell_command');
  const cmd = TOOL_REQUEST.exec(parts.map((p) => str(p.text)).join('\n'))?.[1];
  return offered && cmd ? { call: cmd } : null;
}

/** Gemini's function call, as the one `data:` chunk of a streamGenerateContent answer. */
export function geminiCallChunk(model: string, cmd: string, usage: Json): string {
  const call = { name: 'run_shell_command', args: { command: cmd, description: `Run ${cmd}` } };
  const data = {
    candidates: [{ content: { role: 'model', parts: [{ functionCall: call }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: usage,
    modelVersion: model,
  };
  return `data: ${JSON.stringify(data)}\n\n`;
}

// ---------- Chat Completions (Qwen Code, Copilot CLI, opencode) ----------

/** Their shell tools: Qwen's `run_shell_command`, Copilot's and opencode's `bash`; each takes `command`. */
const CHAT_SHELLS = ['run_shell_command', 'bash'];

export function chatToolTurn(body: Json): (ToolTurn & { tool: string }) | null {
  const messages = list(body.messages).filter(isObj);
  const last = messages.at(-1);
  if (!last) return null;
  if (last.role === 'tool') {
    const call = messages.flatMap((m) => list(m.tool_calls).filter(isObj)).find((c) => c.id === last.tool_call_id);
    const fn = isObj(call?.function) ? call.function : {};
    return { result: toolReply(str(parsed(fn.arguments).command)), tool: str(fn.name) };
  }
  if (last.role !== 'user') return null;
  const offered = list(body.tools)
    .filter(isObj)
    .map((t) => (isObj(t.function) ? str(t.function.name) : ''));
  const tool = CHAT_SHELLS.find((t) => offered.includes(t));
  // The user's own words are the message's last text (Qwen puts its <system-reminder> blocks before them); an
  // internal request (a memory extraction that quotes the conversation) ends with its own instructions.
  const text =
    typeof last.content === 'string'
      ? last.content
      : str(
          list(last.content)
            .filter(isObj)
            .filter((p) => typeof p.text === 'string')
            .at(-1)?.text,
        );
  const cmd = TOOL_REQUEST.exec(text)?.[1];
  return tool && cmd ? { call: cmd, tool } : null;
}

/** The tool call as chat.completion.chunk `data:` lines, ending with finish_reason "tool_calls". */
export function chatCallChunks(head: Json, tool: string, cmd: string, usage: Json, callId: string): string {
  const chunk = (delta: Json, finish: string | null, extra: Json = {}) =>
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const args = JSON.stringify({ command: cmd, description: `Run ${cmd}` });
  return [
    chunk(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: tool, arguments: '' } }],
      },
      null,
    ),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }, null),
    chunk({}, 'tool_calls', { usage }),
    'data: [DONE]\n\n',
  ].join('');
}
