// The project's own mock model server (docs/vendors.md §12.1): one HTTP server on 127.0.0.1 that speaks what each real
// CLI calls (Anthropic Messages, OpenAI Responses, Chat Completions, Gemini) and answers like a deterministic model
// that reads the WHOLE conversation of each request:
//   last user message says "remember the number N"   → "OK, I will remember N."
//   an earlier user message said it                  → "The number is N."  (logged as answered from history)
//   otherwise                                        → "I do not know any number."
// So a resumed CLI can only answer N if it sent the old conversation again. Every request is logged. The answers are
// in mock-answers.ts, each API's request is read by mock-requests.ts and its reply written by mock-writers.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatToolTurn, geminiToolTurn, responsesToolTurn } from './mock-tools.js';
import { TAKE_TIME, TAKE_TIME_MS, answer } from './mock-answers.js';
import {
  isObj,
  str,
  contentText,
  roleMessages,
  responsesUserTexts,
  geminiUserTexts,
  systemText,
  fillSchema,
  type Json,
} from './mock-requests.js';
import {
  readBody,
  tokens,
  cachedOf,
  anthropicToolTurn,
  anthropic,
  responses,
  chat,
  geminiStream,
  geminiJson,
} from './mock-writers.js';

export * from './mock-answers.js';

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
    // Logged on arrival: a test waiting for its text to reach the model must see it during a slow turn's wait, or it
    // presses Enter again in the middle of the running turn.
    entry.lastUser = lastUser ?? '';
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
