// The lint config (eslint.config.mjs) holds the layers and the promises: a planted bad import is reported by
// no-restricted-imports, the same file without it is not; a planted floating promise is reported too. Runs ESLint's
// Node API on text, never the whole tree: the boundary cases without type information (fast, and the file need not
// exist), the promise cases against a tiny TypeScript program in a temp directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const configFile = join(root, 'eslint.config.mjs');
const BOUNDARY = 'no-restricted-imports';

/** The rule ids ESLint reports for `text` as if it were the file at `filePath`. */
async function ruleIds(eslint: ESLint, text: string, filePath: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(text, { filePath });
  if (!result) throw new Error(`ESLint returned nothing for ${filePath}`);
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length > 0)
    throw new Error(`ESLint could not parse ${filePath}: ${fatal.map((m) => m.message).join('; ')}`);
  return result.messages.map((m) => m.ruleId);
}

describe('lint: import boundaries', () => {
  // The real config, its type-aware parts switched off: the boundaries need no types, and a planted file is in no program.
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: configFile,
    overrideConfig: tseslint.configs.disableTypeChecked as Linter.Config,
  });

  const cases: { name: string; file: string; bad: string; good: string }[] = [
    {
      name: 'electron/core/ does not import Electron',
      file: 'electron/core/pty/planted.ts',
      bad: "import { app } from 'electron';\nexport const quit = () => app.quit();\n",
      good: "import { join } from 'node:path';\nexport const where = () => join('a', 'b');\n",
    },
    {
      name: 'electron/core/ does not import the browser UI',
      file: 'electron/core/planted.ts',
      bad: "import { create } from 'zustand';\nexport const store = create;\n",
      good: "import { z } from 'zod';\nexport const schema = z.string();\n",
    },
    {
      name: 'electron/core/ does not import the shell',
      file: 'electron/core/runs/planted.ts',
      bad: "import { startDesktop } from '../../app/desktop.js';\nexport const start = startDesktop;\n",
      good: "import { LIMITS } from '../../../shared/contract.js';\nexport const limits = LIMITS;\n",
    },
    {
      name: 'renderer/ does not import the core',
      file: 'renderer/api/planted.ts',
      bad: "import { openCoreHost } from '../../electron/core/host.js';\nexport const open = openCoreHost;\n",
      good: "import { LIMITS } from '../../shared/contract.js';\nexport const limits = LIMITS;\n",
    },
    {
      name: 'renderer/ does not import Node builtins',
      file: 'renderer/components/Planted.tsx',
      bad: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      good: "import { useState } from 'react';\nexport const state = useState;\n",
    },
    {
      name: 'shared/ does not import the renderer',
      file: 'shared/planted.ts',
      bad: "import { x } from '../renderer/x.js';\nexport const y = x;\n",
      good: "import { LIMITS } from './contract.js';\nexport const limits = LIMITS;\n",
    },
    {
      name: 'shared/contract/ reaches shared/ but not past it',
      file: 'shared/contract/planted.ts',
      bad: "import { x } from '../../renderer/x.js';\nexport const y = x;\n",
      good: "import { LIMITS } from '../words.js';\nexport const limits = LIMITS;\n",
    },
    {
      name: 'shared/ does not import Node-only packages',
      file: 'shared/planted.ts',
      bad: "import { WebSocket } from 'ws';\nexport const Socket = WebSocket;\n",
      good: "import { z } from 'zod';\nexport const schema = z.number();\n",
    },
    {
      name: 'the Electron shell reaches the core only through its public entries',
      file: 'electron/app/planted.ts',
      bad: "import { writeFileAtomic } from '../core/store/atomic-file.js';\nexport const write = writeFileAtomic;\n",
      good: "import { writeFileAtomic } from '../core/public.js';\nexport const write = writeFileAtomic;\n",
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      expect(await ruleIds(eslint, c.bad, c.file)).toContain(BOUNDARY);
      expect(await ruleIds(eslint, c.good, c.file)).not.toContain(BOUNDARY);
    });
  }
});

describe('lint: promises', () => {
  // A temp directory with a tsconfig of its own: the real config's rules, but a program of two files, not the project's.
  let dir = '';
  let eslint: ESLint;
  const planted = [
    'async function save(): Promise<void> {',
    "  throw new Error('disk full');",
    '}',
    'export function bare(): void {',
    '  save();', // line 5
    '}',
    'export function voided(): void {',
    '  void save();', // line 8
    '}',
    'export function caught(): void {',
    '  save().catch(() => undefined);', // line 11
    '}',
    'function later(callback: () => void): void {',
    '  callback();',
    '}',
    'later(async () => save());', // line 16
    '',
  ].join('\n');

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-lint-'));
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        types: [],
      },
      include: ['electron/**/*.ts', 'renderer/**/*.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    for (const file of ['electron/core/planted.ts', 'renderer/state/planted.ts']) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), planted);
    }
    eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: configFile,
      overrideConfig: {
        files: ['**/*.ts'],
        languageOptions: { parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: dir } },
      },
    });
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function findings(file: string): Promise<{ rule: string | null; line: number }[]> {
    const [result] = await eslint.lintText(planted, { filePath: join(dir, file) });
    const fatal = result?.messages.filter((m) => m.fatal) ?? [];
    if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('; '));
    return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, line: m.line }));
  }

  it('electron/: a floating promise is reported, `void` included (a rejection there ends the process); a caught one is not', async () => {
    const found = await findings('electron/core/planted.ts');
    const floating = found.filter((f) => f.rule === '@typescript-eslint/no-floating-promises').map((f) => f.line);
    expect(floating).toEqual([5, 8]);
    expect(found).toContainEqual({ rule: '@typescript-eslint/no-misused-promises', line: 16 });
  });

  it('renderer/: a floating promise is reported, and `void` marks a deliberate fire-and-forget', async () => {
    const found = await findings('renderer/state/planted.ts');
    const floating = found.filter((f) => f.rule === '@typescript-eslint/no-floating-promises').map((f) => f.line);
    expect(floating).toEqual([5]);
    expect(found).toContainEqual({ rule: '@typescript-eslint/no-misused-promises', line: 16 });
  });
});
