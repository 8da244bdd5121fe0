// Gives a vendor definition its attention facts (docs/attention.md), and what its screen shows of its input box where
// known (docs/input-ready.md): each vendor folder states them in its own files, and its index.ts joins them with this.
import type { AttentionFacts } from '../../attention/signals.js';
import type { InputScreens, VendorDefinition } from '../adapter.js';
import type { VendorName } from '../../../../shared/words.js';

export function withAttention<V extends VendorName>(
  definition: VendorDefinition<V>,
  attention: AttentionFacts,
  input?: InputScreens,
): VendorDefinition<V> {
  return { ...definition, create: (ctx) => ({ ...definition.create(ctx), attention, ...(input && { input }) }) };
}

/** Quotes one word for a POSIX shell: inside single quotes, a quote closed, escaped and reopened. */
export function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A TOML array of strings (Codex's `-c key=value` takes TOML): JSON's string escapes are TOML's basic strings. */
export function tomlStrings(words: readonly string[]): string {
  return `[${words.map((w) => JSON.stringify(w)).join(',')}]`;
}
