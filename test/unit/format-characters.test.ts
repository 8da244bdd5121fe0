// Unicode format characters (category Cf) in names, labels and paths (shared/words.ts): refused wherever such a
// value enters, since they are invisible or reorder what is shown; right-to-left scripts themselves are fine, and
// the store still reads what it recorded before the rule.
import { describe, expect, it } from 'vitest';
import { runManifestSchema } from '../../electron/core/store/manifest.js';
import { absolutePathSchema, labelSchema, runNameSchema } from '../../shared/words.js';

const FORMAT_CHARACTERS: [string, string][] = [
  ['U+202A left-to-right embedding', '\u202A'],
  ['U+202B right-to-left embedding', '\u202B'],
  ['U+202C pop directional formatting', '\u202C'],
  ['U+202D left-to-right override', '\u202D'],
  ['U+202E right-to-left override', '\u202E'],
  ['U+2066 left-to-right isolate', '\u2066'],
  ['U+2067 right-to-left isolate', '\u2067'],
  ['U+2068 first strong isolate', '\u2068'],
  ['U+2069 pop directional isolate', '\u2069'],
  ['U+200B zero-width space', '\u200B'],
  ['U+200C zero-width non-joiner', '\u200C'],
  ['U+200D zero-width joiner', '\u200D'],
  ['U+200E left-to-right mark', '\u200E'],
  ['U+200F right-to-left mark', '\u200F'],
  ['U+FEFF byte order mark', '\uFEFF'],
  ['U+00AD soft hyphen', '\u00AD'],
  ['U+2060 word joiner', '\u2060'],
  ['U+061C Arabic letter mark', '\u061C'],
  ['U+E0001 language tag', '\u{E0001}'],
];

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('format characters', () => {
  it.each(FORMAT_CHARACTERS)('%s is refused in a run name, a label and a path', (_name, ch) => {
    expect(first(runNameSchema.safeParse(`demo${ch}run`))).toBe(
      'run name must not contain invisible formatting characters (bidi controls, zero-width characters)',
    );
    expect(first(labelSchema.safeParse(`plan${ch}ner`))).toBe(
      'label must not contain invisible formatting characters (bidi controls, zero-width characters)',
    );
    expect(first(absolutePathSchema.safeParse(`/home/${ch}me/src`))).toBe(
      'cwd must not contain invisible formatting characters (bidi controls, zero-width characters)',
    );
  });

  it('right-to-left scripts, accents and emoji are text, not format characters', () => {
    for (const text of ['שלום', 'مرحبا', 'café', 'naïve 🚀', '日本語']) {
      expect(runNameSchema.safeParse(text).success, text).toBe(true);
      expect(labelSchema.safeParse(text).success, text).toBe(true);
      expect(absolutePathSchema.safeParse(`/home/${text}`).success, text).toBe(true);
    }
  });

  it('a run recorded before the rule still loads from the store', () => {
    const manifest = {
      v: 1,
      id: 'run_0123456789abcdef',
      name: 'team 👩\u200D💻',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
      agents: [
        {
          id: 'agt_0123456789abcdef',
          label: 'dev\u200D',
          vendor: 'shell',
          cwd: '/home/\u200Bme',
          args: [],
          command: null,
          sessionIds: [],
          status: 'stopped',
          exitCode: null,
          warning: null,
          startedAt: null,
        },
      ],
      lastSnapshot: null,
    };
    expect(runManifestSchema.safeParse(manifest).success).toBe(true);
  });
});
