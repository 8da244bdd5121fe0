// Each vendor's signals as data (electron/core/vendors/<v>/attention.ts): how a spawn is wired to report (never a
// shell string from data), how a report reads (strictly; anything else is ignored), and its screens as patterns.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readScreen } from '../../electron/core/attention/screen.js';
import { CLAUDE_ATTENTION, parseClaudeReport } from '../../electron/core/vendors/claude/attention.js';
import { CODEX_ATTENTION, parseCodexReport } from '../../electron/core/vendors/codex/attention.js';
import { COPILOT_ATTENTION } from '../../electron/core/vendors/copilot/attention.js';
import { CURSOR_ATTENTION } from '../../electron/core/vendors/cursor/attention.js';
import { GEMINI_ATTENTION } from '../../electron/core/vendors/gemini/attention.js';
import { opencodeSignal } from '../../electron/core/vendors/opencode/attention.js';
import { QWEN_ATTENTION } from '../../electron/core/vendors/qwen/attention.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { VENDOR_NAMES } from '../../shared/words.js';

const LAUNCHER = ['/opt/my node/bin/node', "/home/o'brien/baton/dist/electron/cli/hook-main.js"];

describe('every adapter says where its state comes from', () => {
  it('through the adapter interface, one source per vendor', () => {
    const vendors = createVendors();
    const sources = Object.fromEntries(VENDOR_NAMES.map((v) => [v, vendors.get(v)!.attention?.source ?? 'none']));
    expect(sources).toEqual({
      claude: 'hooks',
      codex: 'notify',
      opencode: 'events',
      gemini: 'screen',
      qwen: 'screen',
      copilot: 'screen',
      cursor: 'screen',
      shell: 'none',
    });
  });
});

describe('Claude Code: hooks through --settings', () => {
  it('passes every hook as one settings JSON whose command is the quoted launcher, a shell runs it as argv', () => {
    const [flag, json] = CLAUDE_ATTENTION.wire!({ launcher: LAUNCHER });
    expect(flag).toBe('--settings');
    const hooks = (JSON.parse(json!) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
    expect(Object.keys(hooks).sort()).toEqual(
      ['Notification', 'PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit'].sort(),
    );
    const command = hooks.Stop![0]!.hooks[0]!.command;
    // The shell splits it back into exactly the launcher's words and the vendor: spaces and quotes stay inside.
    const words = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${command}`])
      .toString()
      .trimEnd()
      .split('\n');
    expect(words).toEqual([...LAUNCHER, 'claude']);
  });

  it('reads its events strictly', () => {
    const r = (stdin: unknown) => parseClaudeReport({ stdin, arg: null });
    expect(r({ hook_event_name: 'UserPromptSubmit', prompt: 'hi', session_id: 'x' })).toEqual({ state: 'working' });
    expect(r({ hook_event_name: 'Stop' })).toEqual({ state: 'waiting', turnEnd: true });
    expect(r({ hook_event_name: 'PostToolUse' })).toEqual({ state: 'working' });
    expect(
      r({
        hook_event_name: 'Notification',
        message: 'Claude needs your permission to use Bash',
        notification_type: 'permission_prompt',
      }),
    ).toEqual({ state: 'asking', asks: 'Claude needs your permission to use Bash' });
    // The idle reminder repeats the Stop before it: nothing.
    expect(
      r({
        hook_event_name: 'Notification',
        message: 'Claude is waiting for your input',
        notification_type: 'idle_prompt',
      }),
    ).toBeNull();
    for (const bad of [null, 'Stop', { hook_event_name: 'Nope' }, { hook_event_name: 'Stop', message: 42 }, []])
      expect(r(bad)).toBeNull();
  });
});

describe('Codex: notify through -c, dialogs from the screen', () => {
  it('passes notify as a TOML array of the launcher and the vendor', () => {
    const [flag, value] = CODEX_ATTENTION.wire!({ launcher: LAUNCHER });
    expect(flag).toBe('-c');
    expect(value!.startsWith('notify=')).toBe(true);
    expect(JSON.parse(value!.slice('notify='.length))).toEqual([...LAUNCHER, 'codex']);
  });

  it('reads agent-turn-complete as waiting, with the last message', () => {
    const r = (arg: unknown) => parseCodexReport({ stdin: null, arg });
    expect(r({ type: 'agent-turn-complete', 'last-assistant-message': 'Done.\nAll tests pass.' })).toEqual({
      state: 'waiting',
      asks: 'Done. All tests pass.',
      turnEnd: true,
    });
    expect(r({ type: 'something-else' })).toBeNull();
    expect(r('agent-turn-complete')).toBeNull();
  });

  it('ignores the notify of the title turn Codex runs for itself (0.169), not the user turn it names', () => {
    const r = (arg: unknown) => parseCodexReport({ stdin: null, arg });
    const title = [
      'Generate a concise, single-line task title of at most 36 characters and under five words where possible. Start',
      'with an imperative verb. Do not answer the request.',
      '',
      'User prompt:',
      'please run `touch compat.txt`',
    ].join('\n');
    const report = (input: unknown) => ({
      type: 'agent-turn-complete',
      'thread-id': '01a2173c-ac9c-7f02-880e-88cadea9f7ea',
      'input-messages': input,
      'last-assistant-message': 'Touch compat file',
    });
    expect(r(report([title]))).toBeNull();
    // The user's own turn, even one that speaks of titles; and a report whose input is odd still counts.
    expect(r(report(['Generate a title for the README']))).toMatchObject({ state: 'waiting', turnEnd: true });
    expect(r(report([title, 'and more']))).toMatchObject({ state: 'waiting' });
    expect(r(report(42))).toMatchObject({ state: 'waiting' });
  });

  it('its approval dialog asks; a prompt below an answered dialog waits', () => {
    const dialog = [
      '• Working',
      '',
      'Would you like to run the following command?',
      '',
      '  $ npm test',
      '',
      '› 1. Yes, proceed (y)',
    ].join('\n');
    expect(readScreen(dialog, CODEX_ATTENTION.screen!)).toEqual({
      state: 'asking',
      asks: 'run the following command: npm test',
    });
    expect(
      readScreen(`${dialog}\n• Ran npm test\n\n• Done.\n\n› \n  ? for shortcuts`, CODEX_ATTENTION.screen!),
    ).toEqual({
      state: 'waiting',
    });
    expect(readScreen('• Working (3s • esc to interrupt)', CODEX_ATTENTION.screen!)).toEqual({ state: 'working' });
  });

  it('reads the real 0.169 turn: the composer stays under the working line, and alone it waits', () => {
    const top = ['  >_ OpenAI Codex (v0.169.0)', '', '› remember the number 5, take your time', ''];
    const foot = [
      '› Ask Codex to do anything',
      '',
      '  mock-model default · /tmp/p/project',
      '  ← for agents · ? for shortcuts',
    ];
    const working = [...top, '• Working (3s • esc to interrupt)', '', ...foot].join('\n');
    expect(readScreen(working, CODEX_ATTENTION.screen!)).toEqual({ state: 'working' });
    const done = [...top, '• OK, I will remember 5.', '', '  Worked for 8s • 10:32', '', ...foot].join('\n');
    expect(readScreen(done, CODEX_ATTENTION.screen!)).toEqual({ state: 'waiting' });
  });

  it('reads the real 0.169 dialog, whose Environment and Reason lines come before the command', () => {
    // As the real CLI drew it (test/compat/attention.test.ts, `-a on-request`, a command asked outside the sandbox).
    const real = [
      '› please run touch compat.txt',
      '',
      '• Running touch compat.txt',
      '',
      '  Would you like to run the following command?',
      '',
      '  Environment: local',
      '',
      '  Reason: Run touch compat.txt?',
      '',
      '  $ touch compat.txt',
      '',
      '› 1. Yes, proceed (y)',
      "  2. Yes, and don't ask again for commands that start with `touch compat.txt` (p)",
      '  3. No, and tell Codex what to do differently (esc)',
      '',
      '  Press enter to confirm or esc to cancel',
    ].join('\n');
    expect(readScreen(real, CODEX_ATTENTION.screen!)).toEqual({
      state: 'asking',
      asks: 'run the following command: touch compat.txt',
    });
  });
});

describe('screen-only vendors: their dialogs and prompts as data', () => {
  const cases = [
    {
      name: 'Gemini',
      facts: GEMINI_ATTENTION,
      ask: "? Shell ls -la\nAllow execution of: 'ls'?\n● 1. Allow once",
      asks: 'Allow execution of ls?',
      work: '⠋ Thinking (esc to cancel, 2s)',
      wait: '> \n  Type your message or @path/to/file',
    },
    {
      name: 'Qwen',
      facts: QWEN_ATTENTION,
      ask: 'Apply this change?\n● 1. Yes',
      asks: 'Apply this change?',
      work: 'esc to cancel',
      wait: 'Type your message or @path/to/file',
    },
    {
      name: 'Copilot',
      facts: COPILOT_ATTENTION,
      ask: 'Do you want to run this command?\n❯ 1. Yes',
      asks: 'Do you want to run this command?',
      work: '∙ Thinking (Esc to cancel)',
      wait: ' Enter @ to mention files or / for commands',
    },
    {
      name: 'Cursor',
      facts: CURSOR_ATTENTION,
      ask: 'Run this command?\n  Run (once) (y)',
      asks: 'Run this command?',
      work: '⬡ Generating…',
      wait: '→ Plan, search, build anything',
    },
  ];
  for (const c of cases)
    it(`${c.name}: asking, working and waiting are told apart, and the lowest on screen wins`, () => {
      const s = c.facts.screen!;
      expect(readScreen(c.ask, s)).toEqual({ state: 'asking', asks: c.asks });
      expect(readScreen(c.work, s)).toEqual({ state: 'working' });
      expect(readScreen(c.wait, s)).toEqual({ state: 'waiting' });
      expect(readScreen(`${c.ask}\nanswered\n${c.wait}`, s)).toEqual({ state: 'waiting' });
      expect(readScreen('nothing known here', s)).toBeNull();
      expect(c.facts.wire).toBeUndefined();
    });
});

describe('opencode: its own event stream', () => {
  it('maps status, idle and permission events; ignores the rest and garbage', () => {
    const ev = (o: unknown) => opencodeSignal(JSON.stringify(o));
    expect(ev({ type: 'session.status', properties: { sessionID: 's', status: { type: 'busy' } } })).toEqual({
      state: 'working',
    });
    expect(ev({ type: 'session.idle', properties: { sessionID: 's' } })).toEqual({ state: 'waiting' });
    expect(ev({ type: 'permission.updated', properties: { title: 'Run ls', id: 'p' } })).toEqual({
      state: 'asking',
      asks: 'Run ls',
    });
    expect(ev({ payload: { type: 'permission.replied', properties: {} } })).toEqual({ state: 'working' });
    expect(ev({ type: 'message.updated', properties: {} })).toBeNull();
    expect(opencodeSignal('{not json')).toBeNull();
    expect(ev({ type: 'session.idle', properties: { title: 5 } })).toBeNull();
  });

  it('reads 1.18.33 as it sent them: a turn ends with status idle then session.idle, one turn end in all', () => {
    const ev = (o: unknown) => opencodeSignal(JSON.stringify(o));
    const ses = 'ses_de8a36250ffeRqfh8HfA3M4Y2y';
    const idle = [
      ev({ id: 'evt_1', type: 'session.status', properties: { sessionID: ses, status: { type: 'idle' } } }),
      ev({ id: 'evt_2', type: 'session.idle', properties: { sessionID: ses } }),
    ];
    expect(idle).toEqual([{ state: 'waiting' }, { state: 'waiting' }]);
    expect(idle.some((s) => s?.turnEnd)).toBe(false);
    // Its permission event names the tool and the command in their own fields.
    const asked = {
      id: 'evt_2175cdaaf002hCbHrOVFB5rPfl',
      type: 'permission.asked',
      properties: {
        id: 'per_2175cdaaf001VfZTtFpZ4f4Sfv',
        sessionID: ses,
        permission: 'bash',
        patterns: ['touch compat.txt'],
        metadata: { command: 'touch compat.txt' },
        always: ['touch *'],
        tool: { messageID: 'msg_2175ca887001bSlAPjkhNNHyZK', callID: 'call_mockmwxefzcl000003' },
      },
    };
    expect(ev(asked)).toEqual({ state: 'asking', asks: 'bash: touch compat.txt' });
    expect(ev({ directory: '/p', project: 'global', payload: asked })).toEqual({
      state: 'asking',
      asks: 'bash: touch compat.txt',
    });
    // Metadata of another shape only loses the command.
    expect(ev({ ...asked, properties: { ...asked.properties, metadata: { command: 7 } } })).toEqual({
      state: 'asking',
      asks: 'bash',
    });
  });
});
