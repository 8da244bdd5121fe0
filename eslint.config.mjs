// `npm run lint`: what the type checker does not hold on its own. Promises that nobody awaits or catches (an
// unhandled rejection ends the core's Node process, and with it every agent's terminal), switches that silently miss
// a new union member, `any`, and the layers: shared/ is the contract both sides import, electron/core/ is pure Node,
// renderer/ is the browser page, and the Electron shell reaches the core only through its public entries.
//
// Type-aware rules read the two TypeScript programs the project already has: tsconfig.test.json (electron/, shared/,
// test/) and tsconfig.renderer.json (renderer/, with DOM types). Plain JavaScript (scripts, the fake vendor CLIs,
// the mirror worker) is parsed without type information: only the rules that need none apply to it.
import { builtinModules } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const root = dirname(fileURLToPath(import.meta.url));

/** Node's builtins, with and without the `node:` prefix: none of them exists in a browser page. */
const nodeBuiltins = [...new Set(builtinModules.flatMap((m) => (m.startsWith('node:') ? [m] : [m, `node:${m}`])))];

/** Patterns for `no-restricted-imports` that name a project folder reached by a relative path. */
const reaching = (folder, message) => ({ regex: `^(?:\\./|(?:\\.\\./)+)${folder}(?:/|$)`, message });

const browserOnly = {
  // The core's terminal mirror uses @xterm/headless and @xterm/addon-serialize, which run in Node; these need a DOM.
  group: [
    'react',
    'react-dom',
    'react-dom/*',
    'zustand',
    'zustand/*',
    '@xterm/xterm',
    '@xterm/addon-fit',
    '@xterm/addon-search',
    '@xterm/addon-web-links',
    '@xterm/addon-webgl',
  ],
  message: 'Browser UI packages belong to renderer/.',
};

const boundaries = [
  {
    name: 'baton/boundaries/shared',
    files: ['shared/**/*.ts', 'shared/**/*.mjs'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // shared/ is compiled into the Node core and bundled into the page alike: its own files and zod only.
              regex: '^(?!zod(?:/|$)|\\./)',
              message:
                'shared/ is imported by both the Node core and the browser page: it may import only its own files (./) and zod.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract's parts sit one folder down: `../` (once) still stays inside shared/, where `../../` would not.
    name: 'baton/boundaries/shared-contract',
    files: ['shared/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(?:/|$)|\\./|\\.\\./(?!\\.\\./))',
              message:
                'shared/ is imported by both the Node core and the browser page: it may import only its own files and zod.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'baton/boundaries/core',
    files: ['electron/core/**/*.ts', 'electron/core/**/*.mjs'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'electron/core/ is pure Node (it also runs under `baton serve`): no Electron API.',
            },
          ],
          patterns: [
            {
              group: ['electron/*'],
              message: 'electron/core/ is pure Node (it also runs under `baton serve`): no Electron API.',
            },
            browserOnly,
            reaching(
              '(?:app|cli|renderer|test)',
              'electron/core/ must not depend on the shell, the CLI, the page or the tests: they depend on it.',
            ),
            {
              regex: '^(?:\\./|(?:\\.\\./)+)(?:main|preload|serve|serve-socket|serve-lifecycle|core-relay-entry)\\.js$',
              message: 'electron/core/ must not depend on the entry points that start it.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'baton/boundaries/renderer',
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    // The Vite config is build tooling that runs in Node, not part of the page.
    ignores: ['renderer/vite.config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'renderer/ runs in a sandboxed browser page: no Node builtins.',
            })),
            { name: 'ws', message: 'renderer/ uses the browser WebSocket, not the Node ws package.' },
            {
              name: 'node-pty',
              message: 'Terminals live in electron/core/; the page talks to them through shared/client.ts.',
            },
            { name: 'sql.js', message: 'Vendor stores are read by electron/core/, not by the page.' },
            {
              name: 'electron',
              message: 'The page reaches Electron only through window.baton (shared/bridge-contract.ts).',
            },
          ],
          patterns: [
            { group: ['node:*'], message: 'renderer/ runs in a sandboxed browser page: no Node builtins.' },
            {
              group: ['electron/*'],
              message: 'The page reaches Electron only through window.baton (shared/bridge-contract.ts).',
            },
            reaching(
              '(?:electron|test)',
              'renderer/ imports only shared/ and itself; types both sides need belong in shared/.',
            ),
          ],
        },
      ],
    },
  },
  {
    // Electron main and the preload. electron/serve*.ts and electron/core-relay-entry.ts are not in it: they host the
    // core (`baton serve`, with or without --socket) or connect to its socket (the relay in Electron's utility
    // process), so they use its internals.
    name: 'baton/boundaries/shell',
    files: ['electron/app/**/*.ts', 'electron/main.ts', 'electron/preload.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?:\\./|(?:\\.\\./)+)core/(?!(?:host|public)\\.js$)',
              message:
                'The Electron shell reaches the core only through electron/core/host.ts or electron/core/public.ts; export what it needs there.',
            },
            browserOnly,
            reaching(
              '(?:renderer|cli|test)',
              'The Electron shell shares types with the page through shared/, not by importing renderer/ (nor the CLI or the tests).',
            ),
          ],
        },
      ],
    },
  },
  {
    // The command line is a client of `baton serve`: it talks through shared/ and loads serve.ts only to be the server.
    name: 'baton/boundaries/cli',
    files: ['electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The `baton` command runs in plain Node: no Electron API.' }],
          patterns: [
            {
              regex: '^(?:\\./|(?:\\.\\./)+)core/(?!(?:paths|public)\\.js$)',
              message:
                'The CLI is a client of `baton serve`: it reaches the core through shared/client.ts, plus electron/core/paths.ts or public.ts.',
            },
            browserOnly,
            reaching('(?:app|renderer|test)', 'The CLI must not depend on the desktop shell, the page or the tests.'),
          ],
        },
      ],
    },
  },
];

export default defineConfig(
  globalIgnores(['dist/**', 'node_modules/**', 'test-results/**', 'release/**', 'coverage/**', '**/*.d.ts']),
  {
    name: 'baton/parser',
    extends: [tseslint.configs.base],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    name: 'baton/typescript',
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.test.json', './tsconfig.renderer.json'],
        tsconfigRootDir: root,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Node-side code: `void promise` is how a rejection escapes to `unhandledRejection` and ends the process, so
    // every promise is awaited or gets a `.catch` that reports. The page keeps the default: a rejected promise
    // there is logged by the browser and a `void` is a deliberate fire-and-forget.
    name: 'baton/node-promises',
    files: ['electron/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
    },
  },
  {
    // The root config files belong to neither program, and plain JavaScript has no types: parsed without type
    // information, so only the rules that need none apply (the boundaries, no-explicit-any). The fake vendor CLIs
    // under test/fakes/ are parsed here too, which catches syntax errors; no rule applies to them.
    name: 'baton/untyped',
    files: ['*.config.ts', '**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  ...boundaries,
);
