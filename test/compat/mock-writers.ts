// The mock model writing each API's reply as the real one streams it (Anthropic Messages, OpenAI Responses, Chat
// Completions, Gemini stream and JSON), usage figures included, tool calls handed to mock-tools.ts.
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { chatCallChunks, geminiCallChunk, streamResponsesCall } from './mock-tools.js';
import { TOOL_REQUEST, toolReply } from './mock-answers.js';
import { isObj, str, contentText, type Json } from './mock-requests.js';

// ---------- the server ----------

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The reply text in a few deltas, as a real stream would send it. */
function pieces(text: string): string[] {
  const words = text.split(/(?<= )/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 2) out.push(words.slice(i, i + 2).join(''));
  return out.length > 0 ? out : [''];
}

function sseHeaders(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

export const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));
/** The part of a prompt the mock says it read from a cache: a quarter, so every API's cache field carries a count. */
export const cachedOf = (prompt: string) => Math.floor(tokens(prompt) / 4);
let idCounter = 0;
const newId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(++idCounter).toString(36).padStart(6, '0')}`;

/**
 * An Anthropic Messages turn with tools: the last message is a tool result (answer it), or the last user text asks to
 * run a command and the request offers Bash (call it). Null: an ordinary turn.
 */
export function anthropicToolTurn(body: Json): { call: string } | { result: string } | null {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  const last = messages.at(-1);
  if (!isObj(last) || last.role !== 'user') return null;
  const blocks = Array.isArray(last.content) ? (last.content as unknown[]) : [];
  if (blocks.some((b) => isObj(b) && b.type === 'tool_result')) {
    const prev = messages.at(-2);
    const use =
      isObj(prev) && Array.isArray(prev.content)
        ? (prev.content as unknown[]).find((b) => isObj(b) && b.type === 'tool_use')
        : undefined;
    const input = isObj(use) && isObj(use.input) ? use.input : {};
    return { result: toolReply(str(input.command)) };
  }
  const offersBash = Array.isArray(body.tools) && (body.tools as unknown[]).some((t) => isObj(t) && t.name === 'Bash');
  const cmd = TOOL_REQUEST.exec(contentText(last.content))?.[1];
  return offersBash && cmd ? { call: cmd } : null;
}

export function anthropic(
  res: ServerResponse,
  body: Json,
  reply: string,
  inputText: string,
  tool: { command: string } | null = null,
): void {
  const model = str(body.model) || 'claude-mock';
  const id = newId('msg_mock');
  // Anthropic counts the cache apart: input_tokens is the uncached part only.
  const usageIn = {
    input_tokens: tokens(inputText) - cachedOf(inputText),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cachedOf(inputText),
  };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: reply }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { ...usageIn, output_tokens: tokens(reply) },
      }),
    );
    return;
  }
  sseHeaders(res);
  const send = (event: string, data: Json) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usageIn, output_tokens: 1 },
    },
  });
  if (tool) {
    const input = JSON.stringify({ command: tool.command, description: `Run ${tool.command}` });
    send('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: newId('toolu_mock'), name: 'Bash', input: {} },
    });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: input } });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('ping', {});
    for (const p of pieces(reply)) send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', {
    delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: tokens(reply) },
  });
  send('message_stop', {});
  res.end();
}

export function responses(
  res: ServerResponse,
  body: Json,
  reply: string,
  inputText: string,
  call: { tool: string; cmd: string } | null = null,
): void {
  const model = str(body.model) || 'mock-model';
  const respId = newId('resp_mock');
  const itemId = newId('msg_mock');
  const created = Math.floor(Date.now() / 1000);
  const usage = {
    input_tokens: tokens(inputText),
    input_tokens_details: { cached_tokens: cachedOf(inputText) },
    output_tokens: tokens(reply),
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens(inputText) + tokens(reply),
  };
  const base = {
    id: respId,
    object: 'response',
    created_at: created,
    model,
    error: null,
    incomplete_details: null,
    store: false,
  };
  const doneItem = {
    id: itemId,
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: reply, annotations: [] }],
  };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, status: 'completed', output: [doneItem], usage }));
    return;
  }
  if (call) return streamResponsesCall(res, base, call.tool, call.cmd, usage, newId);
  sseHeaders(res);
  let seq = 0;
  const send = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  send('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  send('response.in_progress', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  send('response.output_item.added', {
    output_index: 0,
    item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
  });
  send('response.content_part.added', {
    item_id: itemId,
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const p of pieces(reply))
    send('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: p });
  send('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text: reply });
  send('response.content_part.done', {
    item_id: itemId,
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: reply, annotations: [] },
  });
  send('response.output_item.done', { output_index: 0, item: doneItem });
  send('response.completed', { response: { ...base, status: 'completed', output: [doneItem], usage } });
  res.end();
}

export function chat(
  res: ServerResponse,
  body: Json,
  reply: string,
  inputText: string,
  call?: { tool: string; cmd: string },
): void {
  const model = str(body.model) || 'mock-model';
  const id = newId('chatcmpl-mock');
  const created = Math.floor(Date.now() / 1000);
  const usage = {
    prompt_tokens: tokens(inputText),
    prompt_tokens_details: { cached_tokens: cachedOf(inputText) },
    completion_tokens: tokens(reply),
    total_tokens: tokens(inputText) + tokens(reply),
  };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
        usage,
      }),
    );
    return;
  }
  sseHeaders(res);
  if (call) {
    res.end(
      chatCallChunks(
        { id, object: 'chat.completion.chunk', created, model },
        call.tool,
        call.cmd,
        usage,
        newId('call_mock'),
      ),
    );
    return;
  }
  const chunk = (delta: Json, finish: string | null, extra: Json = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' }, null);
  for (const p of pieces(reply)) chunk({ content: p }, null);
  chunk({}, 'stop', { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

export function geminiStream(
  res: ServerResponse,
  model: string,
  reply: string,
  inputText: string,
  call?: string,
): void {
  sseHeaders(res);
  if (call !== undefined) {
    const usage = {
      promptTokenCount: tokens(inputText),
      cachedContentTokenCount: cachedOf(inputText),
      candidatesTokenCount: tokens(reply),
      totalTokenCount: tokens(inputText) + tokens(reply),
    };
    res.end(geminiCallChunk(model, call, usage));
    return;
  }
  const parts = pieces(reply);
  parts.forEach((p, i) => {
    const last = i === parts.length - 1;
    const data: Json = {
      candidates: [
        { content: { role: 'model', parts: [{ text: p }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
      ],
      modelVersion: model,
    };
    if (last)
      data.usageMetadata = {
        promptTokenCount: tokens(inputText),
        cachedContentTokenCount: cachedOf(inputText),
        candidatesTokenCount: tokens(reply),
        totalTokenCount: tokens(inputText) + tokens(reply),
      };
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  });
  res.end();
}

export function geminiJson(res: ServerResponse, model: string, text: string, inputText: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: tokens(inputText),
        cachedContentTokenCount: cachedOf(inputText),
        candidatesTokenCount: tokens(text),
        totalTokenCount: tokens(inputText) + tokens(text),
      },
      modelVersion: model,
    }),
  );
}
