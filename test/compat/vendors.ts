// Per vendor: how to make the real CLI talk only to the mock model (a temp HOME, its config files, its
// environment: docs/vendors.md §12.2), how to tell its TUI is ready for typing (§12.3), and how a user quits it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompatVendor } from './install.js';

export interface SetupInput {
  /** A temp folder for this vendor's journey; HOME is `<root>/home`. */
  root: string;
  /** The agent's working directory (realpath). */
  cwd: string;
  /** The mock model, `http://127.0.0.1:<port>`. */
  mockUrl: string;
  /** The installed CLI's version, as `--version` printed it. */
  version: string;
}

export interface CompatVendorSpec {
  vendor: CompatVendor;
  /** Writes the vendor's config files under `root` and returns the environment that points it at the mock. */
  setup(input: SetupInput): Record<string, string>;
  /** Any of these on the screen: the TUI has drawn its prompt and takes typing. */
  ready: readonly RegExp[];
  /** What a user types to leave the TUI (not used to stop agents: Baton's stop is under test). */
  quit: string;
  /** The user's own extra arguments for the agent (none where config files do the job). */
  args: readonly string[];
  /** How long the TUI may take to draw its prompt (start-up under load). */
  readyMs: number;
  /** How long one answer may take to appear on the screen. */
  answerMs: number;
  /** Time budget for the whole journey test. */
  journeyMs: number;
  /**
   * Model calls the CLI makes and its transcript does not record (matched on the call's last user message): left out
   * of the cost check's expected sum, and counted in its note (docs/cost.md).
   */
  unrecordedCalls?: RegExp;
}

export const HOME_OF = (root: string) => join(root, 'home');

/** What every agent's environment starts from: nothing of the developer's credentials or config. */
export function baseEnv(home: string): Record<string, string> {
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    USER: process.env.USER ?? 'baton',
    // An XDG runtime of its own: no CLI finds the developer's sockets, keyrings or caches.
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    // No OS keyring (libsecret) lookups.
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    NO_UPDATE_NOTIFIER: '1',
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

// ---------- Claude Code ----------

const CLAUDE_KEY = 'sk-ant-mock-0000000000000000000000';

const claude: CompatVendorSpec = {
  vendor: 'claude',
  setup({ root, cwd, mockUrl, version }) {
    const home = HOME_OF(root);
    const configDir = join(home, '.claude');
    // Without it the TUI onboards against api.anthropic.com and stops (docs/vendors.md §12.2).
    write(
      join(configDir, '.claude.json'),
      json({
        hasCompletedOnboarding: true,
        lastOnboardingVersion: /^[\d.]+/.exec(version)?.[0] ?? version,
        theme: 'dark',
        customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
        projects: {
          [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, projectOnboardingSeenCount: 1 },
        },
      }),
    );
    return {
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: mockUrl,
      ANTHROPIC_API_KEY: CLAUDE_KEY,
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_BUG_COMMAND: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
      CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
      CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    };
  },
  ready: [/\? for shortcuts/, /← for agents/, /auto mode on/, /^\s*❯\s*$/m],
  quit: '/exit',
  args: [],
  readyMs: 60_000,
  answerMs: 60_000,
  journeyMs: 300_000,
};

// ---------- Codex CLI ----------

const codex: CompatVendorSpec = {
  vendor: 'codex',
  setup({ root, cwd, mockUrl }) {
    const home = HOME_OF(root);
    const codexHome = join(home, '.codex');
    write(
      join(codexHome, 'config.toml'),
      [
        'model = "mock-model"',
        'model_provider = "mock"',
        'approval_policy = "never"',
        'sandbox_mode = "read-only"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.mock]',
        'name = "Mock"',
        `base_url = "${mockUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[features]',
        'daemon_auto_start = false',
        'plugins = false',
        'remote_plugin = false',
        'apps = false',
        '',
        `[projects.${JSON.stringify(cwd)}]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    return { CODEX_HOME: codexHome, MOCK_API_KEY: 'x' };
  },
  ready: [/for shortcuts/, /for agents/],
  quit: '/quit',
  args: [],
  readyMs: 60_000,
  answerMs: 60_000,
  journeyMs: 300_000,
  // 0.169 asks the model a second time per turn ("… answer the request. User prompt: <text>"); the rollout has no
  // token_count for that call.
  unrecordedCalls: /User prompt:\s/,
};

// ---------- Gemini CLI ----------

const gemini: CompatVendorSpec = {
  vendor: 'gemini',
  setup({ root, mockUrl }) {
    const home = HOME_OF(root);
    // Without selectedType the base URL picks auth "gateway" (docs/vendors.md §12.2).
    write(
      join(home, '.gemini', 'settings.json'),
      json({
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }),
    );
    return {
      GOOGLE_GEMINI_BASE_URL: mockUrl,
      GEMINI_API_KEY: 'x',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    };
  },
  ready: [/Type your message/],
  quit: '/quit',
  args: [],
  readyMs: 90_000,
  answerMs: 60_000,
  journeyMs: 420_000,
};

// ---------- opencode ----------

const opencode: CompatVendorSpec = {
  vendor: 'opencode',
  setup({ root, mockUrl }) {
    const home = HOME_OF(root);
    write(
      join(home, '.config', 'opencode', 'opencode.json'),
      json({
        $schema: 'https://opencode.ai/config.json',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Mock',
            options: { baseURL: `${mockUrl}/v1`, apiKey: 'x' },
            models: { 'mock-model': { name: 'Mock Model' } },
          },
        },
        model: 'mock/mock-model',
        small_model: 'mock/mock-model',
        autoupdate: false,
        share: 'disabled',
      }),
    );
    return {
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      // The per-start plugin `npm install` fails fast against a dead registry, and opencode carries on.
      npm_config_registry: 'http://127.0.0.1:9/',
    };
  },
  ready: [/ctrl\+p/, /tab agents/, /Ask anything/],
  quit: '/exit',
  args: [],
  readyMs: 120_000,
  answerMs: 120_000,
  journeyMs: 600_000,
};

// ---------- GitHub Copilot CLI ----------

const copilot: CompatVendorSpec = {
  vendor: 'copilot',
  setup({ root, cwd, mockUrl }) {
    const home = HOME_OF(root);
    const copilotHome = join(home, '.copilot');
    write(
      join(copilotHome, 'config.json'),
      json({ banner: 'never', autoUpdate: false, trustedFolders: [cwd], trusted_folders: [cwd] }),
    );
    return {
      COPILOT_HOME: copilotHome,
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: 'x',
      COPILOT_MODEL: 'mock-model',
      COPILOT_AUTO_UPDATE: 'false',
    };
  },
  // The footer under the prompt box (1.0.102): `← open sidebar · Interactive · Manual Approval · / commands · ? help`.
  ready: [/\/ commands · \? help/, /Manual Approval ·/, /Type @ to mention/i],
  quit: '/exit',
  args: [],
  readyMs: 90_000,
  answerMs: 60_000,
  journeyMs: 420_000,
};

// ---------- Qwen Code ----------

const qwen: CompatVendorSpec = {
  vendor: 'qwen',
  setup({ root, mockUrl }) {
    const home = HOME_OF(root);
    write(
      join(home, '.qwen', 'settings.json'),
      json({
        security: { auth: { selectedType: 'openai' } },
        model: { name: 'mock-model' },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        // Qwen's own key: without it every start runs `npm view @qwen-code/qwen-code dist-tags.latest` (registry
        // traffic, seen with strace); Gemini's disableAutoUpdate is not read by 0.24.4.
        general: { enableAutoUpdate: false },
      }),
    );
    return { OPENAI_BASE_URL: `${mockUrl}/v1`, OPENAI_API_KEY: 'x', OPENAI_MODEL: 'mock-model' };
  },
  ready: [/Type your message/],
  quit: '/quit',
  args: [],
  readyMs: 90_000,
  answerMs: 60_000,
  journeyMs: 420_000,
  // 0.24.4 asks the model, after a turn, to extract memories and to suggest a next prompt; the chat JSONL records
  // neither call's usage.
  unrecordedCalls: /Existing memory files|Reply with ONLY the suggestion/,
};

export const SPECS: Record<CompatVendor, CompatVendorSpec> = { claude, codex, gemini, opencode, copilot, qwen };

/** The order the suite runs them in: fastest to prove first. */
export const ORDER: readonly CompatVendor[] = ['claude', 'codex', 'gemini', 'opencode', 'copilot', 'qwen'];
