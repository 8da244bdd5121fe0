// Search words: what the index holds of a message, how typed words become a query, phrases and highlights.
import { describe, expect, it } from 'vitest';
import {
  highlights,
  holdsPhrases,
  indexTokens,
  matchExpression,
  parseQuery,
} from '../../electron/core/search/query.js';

describe('search query', () => {
  it('indexes each word of a message once, lowercased, without punctuation or blobs', () => {
    expect(indexTokens('Fix the flaky test — the FLAKY one, café!')).toBe('fix the flaky test one café');
    expect(indexTokens(`key ${'a'.repeat(200)}`)).toBe('key');
  });

  it('parses words, prefixes and quoted phrases', () => {
    const q = parseQuery('Retry back* "exact Words here" x');
    expect(q.words).toEqual([
      { text: 'retry', prefix: false },
      { text: 'back', prefix: true },
      { text: 'exact', prefix: false },
      { text: 'words', prefix: false },
      { text: 'here', prefix: false },
      { text: 'x', prefix: false },
    ]);
    expect(q.phrases).toEqual(['exact words here']);
    expect(matchExpression(q)).toBe('retry back* exact words here x');
  });

  it('never passes the full-text syntax through: operators and quotes typed are just words', () => {
    const q = parseQuery('a OR b NEAR c -d "unclosed');
    expect(matchExpression(q)).toBe('a or b near c d unclosed');
    expect(matchExpression(parseQuery('*** ---'))).toBe('');
  });

  it('checks phrases in the text, whatever the spacing and case', () => {
    const q = parseQuery('"flaky  test"');
    expect(holdsPhrases('The Flaky\ntest failed', q)).toBe(true);
    expect(holdsPhrases('test is flaky', q)).toBe(false);
  });

  it('highlights whole words, and the start of words for a prefix', () => {
    expect(highlights('Retry the retrying retry', parseQuery('retry'))).toEqual([
      [0, 5],
      [19, 24],
    ]);
    expect(highlights('Retry the retrying', parseQuery('retr*'))).toEqual([
      [0, 4],
      [10, 14],
    ]);
  });
});
