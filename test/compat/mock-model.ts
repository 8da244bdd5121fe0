// The project's own mock model server (docs/vendors.md §12.1): one HTTP server on 127.0.0.1 that speaks what each real
// CLI calls (Anthropic Messages, OpenAI Responses, Chat Completions, Gemini) and answers like a deterministic model
// that reads the WHOLE conversation of each request:
//   last user message says "remember the number N"   → "OK, I will remember N."
//   an earlier user message said it                  → "The number is N."  (logged as answered from history)
//   otherwise                                        → "I do not know any number."
// So a resumed CLI can only answer N if it sent the old conversation again. Every request is logged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chatCallChunks,
  chatToolTurn,
  geminiCallChunk,
  geminiToolTurn,
  responsesToolTurn,
  streamResponsesCall,
} from './mock-tools.js';

export const REMEMBER = /remember the number (\d+)/i;
export const DONT_KNOW = 'I do not know any number.';
export const rememberReply = (n: string) => `OK, I will remember ${n}.`;
export const recallReply = (n: string) => `The number is ${n}.`;
/** "please run `cmd`" makes the mock call its shell tool (Claude's Bash) once; the tool's result is answered. */
export const TOOL_REQUEST = /please run `([^`]+)`/i;
export const toolReply = (cmd: string) => `Ran ${cmd}.`;
/** "take your time" in the last user message makes the mock wait this long before it answers: a turn a test can see. */
export const TAKE_TIME = /take your time/i;
export const TAKE_TIME_MS = 8000;

export type Api = 'anthropic' | 'responses' | 'chat' | 'gemini-stream' | 'gemini-json' | 'gemini-count' | 'other';

export interface LoggedRequest {
  /** Rising number, from 1: tells what came after a moment of the test. */
  seq: number;
  at: number;
  method: string;
  path: string;
  api: Api;
  model: string | null;
  /** How many user messages the request held (after dropping tool results and thoughts). */
  userMessages: number;
  /** The last user message's text (whole; CLIs wrap it in their own context blocks). */
  lastUser: string;
  /** The number an earlier user message asked to remember, if any (the latest such). */
  historyNumber: string | null;
  /** The number the last user message asks to remember, if any. */
  lastNumber: string | null;
  /** What the mock answered (text, or the JSON it filled in). */
  reply: string;
  /** The reply came from the history (an earlier user message), not from the last one. */
  fromHistory: boolean;
  status: number;
  /**
   * The token counts the mock reported for this call, so a test can add up what a CLI's transcript should record:
   * `input` is the whole prompt, of which `cached` were reported as read from a cache (each API in its own words);
   * null for requests that are not model calls.
   */
  usage: { input: number; cached: number; output: number } | null;
}

export interface MockModel {
  readonly port: number;
  readonly url: string;
  /** Every request so far, oldest first. */
  log(): readonly LoggedRequest[];
  /** The seq of the newest request (0 if none): mark a moment, then look at what came after. */
  mark(): number;
  close(): Promise<void>;
}

// ---------- the "model" ----------

export interface Answer {
  reply: string;
  fromHistory: boolean;
  lastNumber: string | null;
  historyNumber: string | null;
}

/** The deterministic answer to a conversation given as its user messages' texts, oldest first. */
export function answer(userTexts: readonly string[]): Answer {
  const last = userTexts.at(-1) ?? '';
  const lastNumber = REMEMBER.exec(last)?.[1] ?? null;
  let historyNumber: string | null = null;
  for (const t of userTexts.slice(0, -1)) {
    const m = REMEMBER.exec(t);
    if (m) historyNumber = m[1]!;
  }
  if (lastNumber !== null) return { reply: rememberReply(lastNumber), fromHistory: false, lastNumber, historyNumber };
  if (historyNumber !== null)
    return { reply: recallReply(historyNumber), fromHistory: true, lastNumber, historyNumber };
  return { reply: DONT_KNOW, fromHistory: false, lastNumber, historyNumber };
}

// ---------- reading each API's conversation ----------

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Text of an Anthropic / Chat Completions / Responses `content` (string or blocks), without tool results. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObj)
    .filter(
      (b) =>
        b.type === 'text' ||
        b.type === 'input_text' ||
        b.type === 'output_text' ||
        (b.type === undefined && typeof b.text === 'string'),
    )
    .map((b) => str(b.text))
    .join('\n');
}

/** User messages of an Anthropic Messages or Chat Completions request (tool results skipped). */
function roleMessages(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  return messages
    .filter(isObj)
    .filter((m) => m.role === 'user')
    .map((m) => contentText(m.content))
    .filter((t) => t.trim() !== '');
}

/** User messages of a Responses request: `input` is a string or items; only `message` items of role user. */
function responsesUserTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) return [];
  return input
    .filter(isObj)
    .filter((i) => (i.type === 'message' || i.type === undefined) && i.role === 'user')
    .map((i) => contentText(i.content))
    .filter((t) => t.trim() !== '');
}

/** User turns of a Gemini request: text parts that are not thoughts (function responses skipped). */
function geminiUserTexts(contents: unknown): string[] {
  if (!Array.isArray(contents)) return [];
  return contents
    .filter(isObj)
    .filter((c) => c.role === 'user' || c.role === undefined)
    .map((c) =>
      (Array.isArray(c.parts) ? c.parts : [])
        .filter(isObj)
        .filter((p) => typeof p.text === 'string' && p.thought !== true)
        .map((p) => str(p.text))
        .join('\n'),
    )
    .filter((t) => t.trim() !== '');
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (Array.isArray(system)) return contentText(system);
  if (isObj(system) && Array.isArray(system.parts))
    return system.parts
      .filter(isObj)
      .map((p) => str(p.text))
      .join('\n');
  return '';
}

// ---------- Gemini JSON schema filling ----------

/** A value that satisfies a (Gemini, UPPERCASE-typed, or JSON Schema) schema; the router classifier gets its shape. */
export function fillSchema(schema: unknown, key = ''): unknown {
  if (!isObj(schema)) return 'mock';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const anyOf = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(anyOf) && anyOf.length > 0) return fillSchema(anyOf[0], key);
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null' && t !== 'NULL') ?? type[0];
  const t = String(type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  switch (t) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isObj(schema.properties) ? schema.properties : {};
      for (const [k, v] of Object.entries(props)) out[k] = fillSchema(v, k);
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'number':
    case 'integer': {
      // The router classifier's score: low means "simple" (a flash model), which is all a mock needs.
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      return key === 'complexity_score' ? Math.max(min, 10) : Math.max(min, 1);
    }
    default:
      if (key === 'next_speaker') return 'user';
      if (key === 'complexity_reasoning' || key === 'reasoning') return 'A short question; a simple reply will do.';
      return 'mock';
  }
}

// ---------- the server ----------

function readBody(req: IncomingMessage): Promise<string> {
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

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));
/** The part of a prompt the mock says it read from a cache: a quarter, so every API's cache field carries a count. */
const cachedOf = (prompt: string) => Math.floor(tokens(prompt) / 4);
let idCounter = 0;
const newId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(++idCounter).toString(36).padStart(6, '0')}`;

/**
 * An Anthropic Messages turn with tools: the last message is a tool result (answer it), or the last user text asks to
 * run a command and the request offers Bash (call it). Null: an ordinary turn.
 */
function anthropicToolTurn(body: Json): { call: string } | { result: string } | null {
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

function anthropic(
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

function responses(
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

function chat(
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

function geminiStream(res: ServerResponse, model: string, reply: string, inputText: string, call?: string): void {
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

function geminiJson(res: ServerResponse, model: string, text: string, inputText: string): void {
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

export async function startMockModel(opts: { verbose?: boolean } = {}): Promise<MockModel> {
  const entries: LoggedRequest[] = [];
  let seq = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    let body: Json = {};
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      if (isObj(parsed)) body = parsed;
    } catch {
      /* not JSON: routes below answer 400/404 */
    }
    const entry: LoggedRequest = {
      seq: ++seq,
      at: Date.now(),
      method: req.method ?? '?',
      path: req.url ?? path,
      api: 'other',
      model: typeof body.model === 'string' ? body.model : null,
      userMessages: 0,
      lastUser: '',
      historyNumber: null,
      lastNumber: null,
      reply: '',
      fromHistory: false,
      status: 200,
      usage: null,
    };
    /** What the reply below reports as its usage: the same `tokens()` the API answers use. */
    const reporting = (text: string): string => {
      entry.usage = { input: tokens(raw), cached: cachedOf(raw), output: tokens(text) };
      return text;
    };
    entries.push(entry);
    const lastUser = [roleMessages(body.messages), responsesUserTexts(body.input), geminiUserTexts(body.contents)]
      .find((users) => users.length > 0)
      ?.at(-1);
    if (lastUser !== undefined && TAKE_TIME.test(lastUser)) await new Promise((r) => setTimeout(r, TAKE_TIME_MS));
    const converse = (api: Api, users: string[], sys: string) => {
      // Title generators (opencode, Claude) get a short title, not the conversation's answer.
      const a = answer(users);
      const isTitle = /title generator|generate a (concise|short)?\s*title/i.test(sys);
      Object.assign(entry, {
        api,
        userMessages: users.length,
        lastUser: users.at(-1) ?? '',
        historyNumber: a.historyNumber,
        lastNumber: a.lastNumber,
        reply: isTitle ? 'Mock title' : a.reply,
        fromHistory: isTitle ? false : a.fromHistory,
      });
      return entry.reply;
    };

    if (req.method === 'POST' && /^\/v1\/messages\/?$/.test(path)) {
      const users = roleMessages(body.messages);
      const reply = converse('anthropic', users, systemText(body.system));
      const turn = body.stream === true ? anthropicToolTurn(body) : null;
      if (turn && 'call' in turn) {
        entry.reply = `tool_use Bash: ${turn.call}`;
        return anthropic(res, body, '', raw, { command: turn.call });
      }
      if (turn) entry.reply = turn.result;
      return anthropic(res, body, turn ? turn.result : reporting(reply), raw);
    }
    if (req.method === 'POST' && /^\/v1\/messages\/count_tokens\/?$/.test(path)) {
      entry.api = 'anthropic';
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ input_tokens: tokens(raw) }));
    }
    if (req.method === 'POST' && /^\/(v1\/)?responses\/?$/.test(path)) {
      const users = responsesUserTexts(body.input);
      const reply = converse('responses', users, str(body.instructions));
      const turn = body.stream === true ? responsesToolTurn(body) : null;
      if (turn && 'call' in turn) {
        entry.reply = `tool_call ${turn.tool}: ${turn.call}`;
        return responses(res, body, reporting(''), raw, { tool: turn.tool, cmd: turn.call });
      }
      if (turn) entry.reply = turn.result;
      return responses(res, body, reporting(turn ? turn.result : reply), raw);
    }
    if (req.method === 'POST' && /^\/(v1\/)?chat\/completions\/?$/.test(path)) {
      const msgs = Array.isArray(body.messages) ? body.messages.filter(isObj) : [];
      const sys = msgs
        .filter((m) => m.role === 'system')
        .map((m) => contentText(m.content))
        .join('\n');
      const reply = converse('chat', roleMessages(msgs), sys);
      const turn = body.stream === true ? chatToolTurn(body) : null;
      if (turn && 'call' in turn) {
        entry.reply = `tool_calls ${turn.tool}: ${turn.call}`;
        return chat(res, body, reporting(''), raw, { tool: turn.tool, cmd: turn.call });
      }
      if (turn) entry.reply = turn.result;
      return chat(res, body, reporting(turn ? turn.result : reply), raw);
    }
    if (req.method === 'GET' && /^\/(v1\/)?models\/?$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' }] }),
      );
    }
    const g = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
    if (req.method === 'POST' && g) {
      const [, model, method] = g as unknown as [string, string, string];
      entry.model = model;
      const users = geminiUserTexts(body.contents);
      const sys = systemText(body.systemInstruction ?? body.system_instruction);
      if (method === 'streamGenerateContent') {
        const reply = converse('gemini-stream', users, sys);
        const turn = geminiToolTurn(body);
        if (turn && 'call' in turn) {
          entry.reply = `functionCall run_shell_command: ${turn.call}`;
          return geminiStream(res, model, reporting(''), raw, turn.call);
        }
        if (turn) entry.reply = turn.result;
        return geminiStream(res, model, reporting(turn ? turn.result : reply), raw);
      }
      if (method === 'generateContent') {
        const cfg = isObj(body.generationConfig) ? body.generationConfig : {};
        const schema = cfg.responseJsonSchema ?? cfg.responseSchema ?? cfg.response_json_schema;
        if (cfg.responseMimeType === 'application/json' || schema !== undefined) {
          converse('gemini-json', users, sys);
          const filled = JSON.stringify(fillSchema(schema ?? { type: 'OBJECT', properties: {} }));
          Object.assign(entry, { reply: filled, fromHistory: false });
          return geminiJson(res, model, reporting(filled), raw);
        }
        entry.api = 'gemini-json';
        return geminiJson(res, model, reporting(converse('gemini-json', users, sys)), raw);
      }
      if (method === 'countTokens') {
        entry.api = 'gemini-count';
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ totalTokens: tokens(raw) }));
      }
    }
    entry.status = 404;
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { type: 'not_found', message: `mock model: no route for ${req.method} ${path}` } }),
    );
  };

  const server: Server = createServer((req, res) => {
    handle(req, res)
      .catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'mock_error', message: String(err) } }));
      })
      .finally(() => {
        if (opts.verbose) {
          const e = entries.at(-1);
          if (e)
            process.stderr.write(
              `[mock] ${e.seq} ${e.method} ${e.path} ${e.api} ${e.model ?? ''} users=${e.userMessages} -> ${e.status} ${e.reply.slice(0, 60)}\n`,
            );
        }
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    log: () => entries,
    mark: () => seq,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
