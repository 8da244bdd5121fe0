// Gives a vendor definition its attention facts (docs/attention.md): each vendor folder states them in its own
// attention.ts, and its index.ts joins them to the adapter with this.
import type { AttentionFacts } from '../../attention/signals.js';
import type { VendorDefinition } from '../adapter.js';
import type { VendorName } from '../../../../shared/words.js';

export function withAttention<V extends VendorName>(
  definition: VendorDefinition<V>,
  attention: AttentionFacts,
): VendorDefinition<V> {
  return { ...definition, create: (ctx) => ({ ...definition.create(ctx), attention }) };
}

/** Quotes one word for a POSIX shell: inside single quotes, a quote closed, escaped and reopened. */
export function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A TOML array of strings (Codex's `-c key=value` takes TOML): JSON's string escapes are TOML's basic strings. */
export function tomlStrings(words: readonly string[]): string {
  return `[${words.map((w) => JSON.stringify(w)).join(',')}]`;
}
