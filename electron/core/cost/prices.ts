// The built-in price table (docs/cost.md): list prices in USD per million tokens, per model family. Data only. A model
// not named here is not guessed at: its calls keep their tokens and their cost is "unknown", naming the model, until
// the user adds it in `<data dir>/prices.json` (price-table.ts).
//
// Checked on 2026-11-26, every model against the price data of @pydantic/genai-prices 0.1.8 (published 2026-09-23,
// the Pydantic team's maintained prices of the vendors' APIs), at that date and for a short prompt; the method and
// what changed are in docs/cost.md. Where a vendor prices long prompts higher (over 200k tokens: Gemini 2.5 Pro and 3
// Pro, Claude Sonnet 4.5; over 272k: GPT-5.4 to 5.6) the base tier is listed. Where it changes a price on a known
// date, the price in force on `asOf` is listed (Gemini 3.6 to 3.8 Flash double on 2027-01-01).
// OpenAI lists no cache write price (writes cost the input price): those entries leave it out.
import type { PriceFile } from './price-table.js';

export const BUILT_IN_PRICES: PriceFile = {
  asOf: '2026-11-26',
  families: [
    // Anthropic
    {
      family: 'Claude Opus 5.5',
      models: ['claude-opus-5-5'],
      input: 4,
      output: 20,
      cacheRead: 0.2,
      cacheWrite: 5,
    },
    {
      family: 'Claude Opus 4.5 to 4.8 and 5',
      models: ['claude-opus-4-5', 'claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5'],
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
    },
    {
      family: 'Claude Opus 4 and 4.1',
      models: ['claude-opus-4', 'claude-opus-4-0', 'claude-opus-4-1'],
      input: 15,
      output: 75,
      cacheRead: 1.5,
      cacheWrite: 18.75,
    },
    {
      family: 'Claude Sonnet 5',
      models: ['claude-sonnet-5'],
      input: 2,
      output: 10,
      cacheRead: 0.2,
      cacheWrite: 2.5,
    },
    {
      family: 'Claude Sonnet 3.7, 4, 4.5 and 4.6',
      models: ['claude-sonnet-4', 'claude-sonnet-4-0', 'claude-sonnet-4-5', 'claude-sonnet-4-6', 'claude-3-7-sonnet'],
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    },
    { family: 'Claude Haiku 4.5', models: ['claude-haiku-4-5'], input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    { family: 'Claude Haiku 3.5', models: ['claude-3-5-haiku'], input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
    // OpenAI
    {
      family: 'GPT-5.6 Sol',
      models: ['gpt-5.6', 'gpt-5.6-sol'],
      input: 4,
      output: 20,
      cacheRead: 0.4,
      cacheWrite: 5,
    },
    { family: 'GPT-5.6 Terra', models: ['gpt-5.6-terra'], input: 2, output: 12, cacheRead: 0.2, cacheWrite: 2.5 },
    { family: 'GPT-5.6 Luna', models: ['gpt-5.6-luna'], input: 0.2, output: 1.2, cacheRead: 0.02, cacheWrite: 0.25 },
    {
      family: 'GPT-5.5',
      models: ['gpt-5.5', 'gpt-5.5-codex', 'gpt-5.5-chat-latest'],
      input: 5,
      output: 30,
      cacheRead: 0.5,
    },
    { family: 'GPT-5.4', models: ['gpt-5.4'], input: 2.5, output: 15, cacheRead: 0.25 },
    { family: 'GPT-5.4 mini', models: ['gpt-5.4-mini'], input: 0.75, output: 4.5, cacheRead: 0.075 },
    { family: 'GPT-5.4 nano', models: ['gpt-5.4-nano'], input: 0.2, output: 1.25, cacheRead: 0.02 },
    {
      family: 'GPT-5.2 and 5.3',
      models: ['gpt-5.2', 'gpt-5.2-codex', 'gpt-5.2-chat-latest', 'gpt-5.3', 'gpt-5.3-codex', 'gpt-5.3-chat-latest'],
      input: 1.75,
      output: 14,
      cacheRead: 0.175,
    },
    {
      family: 'GPT-5 and 5.1',
      models: [
        'gpt-5',
        'gpt-5-codex',
        'gpt-5-chat-latest',
        'gpt-5.1',
        'gpt-5.1-codex',
        'gpt-5.1-codex-max',
        'gpt-5.1-chat-latest',
      ],
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
    },
    {
      family: 'GPT-5 mini and 5.1 Codex mini',
      models: ['gpt-5-mini', 'gpt-5.1-codex-mini'],
      input: 0.25,
      output: 2,
      cacheRead: 0.025,
    },
    { family: 'GPT-5 nano', models: ['gpt-5-nano'], input: 0.05, output: 0.4, cacheRead: 0.005 },
    { family: 'GPT-4.1', models: ['gpt-4.1'], input: 2, output: 8, cacheRead: 0.5 },
    { family: 'GPT-4.1 mini', models: ['gpt-4.1-mini'], input: 0.4, output: 1.6, cacheRead: 0.1 },
    { family: 'o3', models: ['o3'], input: 2, output: 8, cacheRead: 0.5 },
    { family: 'o4-mini', models: ['o4-mini'], input: 1.1, output: 4.4, cacheRead: 0.275 },
    { family: 'Codex mini', models: ['codex-mini-latest'], input: 1.5, output: 6, cacheRead: 0.375 },
    // Google
    {
      family: 'Gemini 3.6 to 3.8 Flash',
      models: ['gemini-3.6-flash', 'gemini-3.7-flash', 'gemini-3.8-flash'],
      input: 0.75,
      output: 3.75,
      cacheRead: 0.075,
    },
    { family: 'Gemini 3.5 Flash', models: ['gemini-3.5-flash'], input: 1.5, output: 9, cacheRead: 0.15 },
    { family: 'Gemini 3.5 Flash-Lite', models: ['gemini-3.5-flash-lite'], input: 0.3, output: 2.5, cacheRead: 0.03 },
    {
      family: 'Gemini 3 and 3.1 Pro (preview)',
      models: ['gemini-3-pro-preview', 'gemini-3.1-pro-preview'],
      input: 2,
      output: 12,
      cacheRead: 0.2,
    },
    { family: 'Gemini 3 Flash (preview)', models: ['gemini-3-flash-preview'], input: 0.5, output: 3, cacheRead: 0.05 },
    {
      family: 'Gemini 3.1 Flash-Lite',
      models: ['gemini-3.1-flash-lite', 'gemini-3.1-flash-lite-preview'],
      input: 0.25,
      output: 1.5,
      cacheRead: 0.025,
    },
    { family: 'Gemini 2.5 Pro', models: ['gemini-2.5-pro'], input: 1.25, output: 10, cacheRead: 0.125 },
    { family: 'Gemini 2.5 Flash', models: ['gemini-2.5-flash'], input: 0.3, output: 2.5, cacheRead: 0.03 },
    { family: 'Gemini 2.5 Flash-Lite', models: ['gemini-2.5-flash-lite'], input: 0.1, output: 0.4, cacheRead: 0.01 },
  ],
};
