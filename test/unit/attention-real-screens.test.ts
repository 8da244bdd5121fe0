// The screen patterns of the screen-read vendors (electron/core/vendors/<v>/attention.ts) over screens as the real
// CLIs drew them against the mock model (test/compat/attention.test.ts; machine paths shortened, trailing blanks and
// empty lines dropped): each one must read as the state the user saw.
import { describe, expect, it } from 'vitest';
import { readScreen } from '../../electron/core/attention/screen.js';
import { COPILOT_ATTENTION } from '../../electron/core/vendors/copilot/attention.js';
import { GEMINI_ATTENTION } from '../../electron/core/vendors/gemini/attention.js';
import { QWEN_ATTENTION } from '../../electron/core/vendors/qwen/attention.js';

/** A line inside a 120-column dialog border. */
const box = (t: string, w = 116) => `│ ${t.padEnd(w)} │`;
const rule = (l: string, r: string, w = 118) => `${l}${'─'.repeat(w)}${r}`;

describe('Gemini 0.61', () => {
  it('its shell dialog asks, naming the command from the box title (the question names only the tool)', () => {
    const real = [
      ' > please run `touch compat.txt`',
      rule('╭', '╮'),
      box('? Shell  touch compat.txt'),
      box(rule('╭', '╮', 114), 116),
      box(`│ ${'touch compat.txt'.padEnd(112)} │`),
      box(rule('╰', '╯', 114), 116),
      box('Allow execution of [Shell]?'),
      box(''),
      box('● 1. Allow once'),
      box('  2. Allow for this session'),
      box('  3. No, suggest changes (esc)'),
      rule('╰', '╯'),
    ].join('\n');
    expect(readScreen(real, GEMINI_ATTENTION.screen!)).toEqual({
      state: 'asking',
      asks: 'Allow execution of touch compat.txt?',
    });
  });
});

describe('Gemini 0.61 at work and after it', () => {
  const half = (c: string) => c.repeat(120);
  const promptBox = [half('▄'), ` >   Type your message or @path/to/file`, half('▀')];
  const footer = [
    ' workspace (/directory)          sandbox          /model',
    ' ~/project          no sandbox          Auto',
  ];
  const asked = [half('▄'), ' > remember the number 4444, take your time', half('▀'), '', ''];
  it('works while its input box stays drawn under the spinner line', () => {
    const real = [
      ...asked,
      ' ⠏ Thinking... (esc to cancel, 7s)                                   ? for shortcuts',
      rule('', '', 120),
      ' Shift+Tab to accept edits',
      ...promptBox,
      ...footer,
    ].join('\n');
    expect(readScreen(real, GEMINI_ATTENTION.screen!)).toEqual({ state: 'working' });
  });
  it('waits once the spinner line is gone', () => {
    const real = [...asked, '✦ OK, I will remember 4444.', '', ' Shift+Tab to accept edits', ...promptBox, ...footer];
    expect(readScreen(real.join('\n'), GEMINI_ATTENTION.screen!)).toEqual({ state: 'waiting' });
  });
});

describe('Qwen Code 0.24.4', () => {
  const top = ['  ●︎ Read context files: ~/.qwen/output-language.md', '  > please run `touch compat.txt`'];
  it('works while the prompt box stays on screen under its spinner (the footer offers to steer)', () => {
    const real = [
      ...top,
      '  ⊶ Shell touch compat.txt (Run touch compat.txt)',
      "  ⠇ Hold tight, I'm crafting a masterpiece... (12s · esc to cancel)",
      '─'.repeat(120),
      '>   Type your message or @path/to/file',
      '─'.repeat(120),
      '  ➜ project · mock-model',
      '  Enter to steer · Ctrl+Q to queue · ⏸ Ask permissions (shift + tab to cycle)',
    ].join('\n');
    expect(readScreen(real, QWEN_ATTENTION.screen!)).toEqual({ state: 'working' });
    // Once the turn is over the footer no longer offers to steer: the prompt waits.
    const after = real.replace(/  Enter to steer · Ctrl\+Q to queue · /, '  ').replace(/.*masterpiece.*\n/, '');
    expect(readScreen(after, QWEN_ATTENTION.screen!)).toEqual({ state: 'waiting' });
  });

  it('waits when its prompt box holds a suggested next prompt instead of its placeholder', () => {
    const real = [
      '  > please run `touch compat.txt`',
      '  ✓ Shell touch compat.txt (Run touch compat.txt)',
      '',
      '  ◆︎ Ran touch compat.txt.',
      '',
      '─'.repeat(120),
      '> The number is 4545.',
      '─'.repeat(120),
      '  ➜ project · mock-model',
      '  ⏸ Ask permissions (shift + tab to cycle)',
    ].join('\n');
    expect(readScreen(real, QWEN_ATTENTION.screen!)).toEqual({ state: 'waiting' });
  });

  it('its shell dialog asks, naming the whole command, above its "Waiting for user confirmation" spinner', () => {
    const real = [
      ...top,
      '  ? Shell touch compat.txt (Run touch compat.txt) ←',
      '     touch compat.txt',
      "   Allow execution of: 'touch'?",
      '   › 1. Yes, allow once',
      "     2. Always allow run 'touch *' commands in this project",
      "     3. Always allow run 'touch *' commands for this user",
      '     4. No, suggest changes (esc)',
      '  ⠏ Waiting for user confirmation...',
    ].join('\n');
    expect(readScreen(real, QWEN_ATTENTION.screen!)).toEqual({
      state: 'asking',
      asks: 'Allow execution of touch compat.txt?',
    });
  });
});

describe('Copilot CLI 1.0.102', () => {
  it('works while its status line says Working under the prompt box', () => {
    const real = [
      ' ❯ remember the number 5                                                                                         09:53',
      ' /tmp/p/project',
      '─'.repeat(120),
      '❯',
      '─'.repeat(120),
      ' ◎ Working esc esc edit prompt                                                                               mock-model',
    ].join('\n');
    expect(readScreen(real, COPILOT_ATTENTION.screen!)).toEqual({ state: 'working' });
  });

  it('its command dialog asks, naming the command; the dialog\'s own "esc to cancel" is no work', () => {
    const real = [
      ' ❯ please run `touch compat.txt`                                                                                 09:54',
      ' $ Shell Run touch compat.txt',
      '   touch compat.txt',
      rule('╭', '╮'),
      box('Run touch compat.txt'),
      box('─'.repeat(116)),
      box(rule('╭', '╮', 114), 116),
      box(`│ ${'touch compat.txt'.padEnd(112)} │`),
      box(rule('╰', '╯', 114), 116),
      box(''),
      box('Do you want to run this command?'),
      box(''),
      box('❯ 1. Yes'),
      box("  2. Yes, and don't ask again for `touch` in this directory (/tmp/p/project)"),
      box('  3. No, and tell Copilot what to do differently (Esc to stop)'),
      box(''),
      box('↑/↓ to navigate · enter to select · esc to cancel'),
      rule('╰', '╯'),
    ].join('\n');
    expect(readScreen(real, COPILOT_ATTENTION.screen!)).toEqual({
      state: 'asking',
      asks: 'Do you want to run touch compat.txt?',
    });
  });
});
