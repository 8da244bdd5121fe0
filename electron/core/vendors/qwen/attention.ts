// Qwen Code's state, read from its screen (docs/attention.md, Qwen): a fork of Gemini CLI with the same dialogs;
// its hooks live in settings files only, which Baton never writes.
import type { AttentionFacts } from '../../attention/signals.js';
import { GEMINI_SCREENS } from '../gemini/attention.js';

export const QWEN_ATTENTION: AttentionFacts = { source: 'screen', nativeStates: [], screen: GEMINI_SCREENS };
