/**
 * What an open item sends: its `system` (when given) and its `prompt`, exactly as written — no
 * wrapper, no answer format — so the request is the team's own. The hash covers the request
 * only (version and messages; num_predict is in the recorded options), never the grader: a
 * changed grader keeps every logged answer current and re-grades it.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../providers/types.js';
import type { OpenItem } from './openItems.js';

export const OPEN_PROMPT_VERSION = 'churn-open/1';

export function openMessages(item: Pick<OpenItem, 'system' | 'prompt'>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (item.system !== null) messages.push({ role: 'system', content: item.system });
  messages.push({ role: 'user', content: item.prompt });
  return messages;
}

export function openPromptHash(item: Pick<OpenItem, 'system' | 'prompt'>): string {
  const payload = JSON.stringify({ version: OPEN_PROMPT_VERSION, messages: openMessages(item) });
  return createHash('sha256').update(payload).digest('hex');
}

/** Key by which the simulator finds an open item from a chat: its system and user texts. */
export function openPromptKey(system: string | null, user: string): string {
  return JSON.stringify([system, user]);
}
