// The built-in price table (docs/cost.md): list prices in USD per million tokens, per model family, as the vendors
// published them on `asOf`. Data only. A model not named here is not guessed at: its calls keep their tokens and
// their cost is "unknown", naming the model, until the user adds it in `<data dir>/prices.json` (price-table.ts).
// Where a vendor prices long prompts higher (Gemini 2.5 Pro over 200k tokens), the base tier is listed.
import type { PriceFile } from './price-table.js';

export const BUILT_IN_PRICES: PriceFile = {
  asOf: '2025-11-24',
  families: [
    {
      family: 'Claude Opus 4.5',
      models: ['claude-opus-4-5'],
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
      family: 'Claude Sonnet 4, 4.5 and 3.7',
      models: ['claude-sonnet-4', 'claude-sonnet-4-0', 'claude-sonnet-4-5', 'claude-3-7-sonnet'],
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    },
    { family: 'Claude Haiku 4.5', models: ['claude-haiku-4-5'], input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    { family: 'Claude Haiku 3.5', models: ['claude-3-5-haiku'], input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
    {
      family: 'GPT-5',
      models: ['gpt-5', 'gpt-5-codex', 'gpt-5-chat-latest'],
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
    },
    { family: 'GPT-5 mini', models: ['gpt-5-mini'], input: 0.25, output: 2, cacheRead: 0.025 },
    { family: 'GPT-5 nano', models: ['gpt-5-nano'], input: 0.05, output: 0.4, cacheRead: 0.005 },
    { family: 'GPT-4.1', models: ['gpt-4.1'], input: 2, output: 8, cacheRead: 0.5 },
    { family: 'GPT-4.1 mini', models: ['gpt-4.1-mini'], input: 0.4, output: 1.6, cacheRead: 0.1 },
    { family: 'o3', models: ['o3'], input: 2, output: 8, cacheRead: 0.5 },
    { family: 'o4-mini', models: ['o4-mini', 'codex-mini-latest'], input: 1.1, output: 4.4, cacheRead: 0.275 },
    { family: 'Gemini 2.5 Pro', models: ['gemini-2.5-pro'], input: 1.25, output: 10, cacheRead: 0.31 },
    { family: 'Gemini 2.5 Flash', models: ['gemini-2.5-flash'], input: 0.3, output: 2.5, cacheRead: 0.075 },
    { family: 'Gemini 2.5 Flash-Lite', models: ['gemini-2.5-flash-lite'], input: 0.1, output: 0.4, cacheRead: 0.025 },
  ],
};
