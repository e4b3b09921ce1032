/** /api/chat.php (CHT-02, CHT-03, CHT-05, CHT-06): one conversation — read a page, send, mark read, remove. */
import { z } from 'zod';
import { MAX_ID } from '../ids';
import type { Answer } from './contract';

const id = z.string().transform(Number).pipe(z.number().int().min(1).max(MAX_ID));
const idText = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .pipe(id);
const messageIdText = z
  .string()
  .regex(/^[1-9]\d{0,14}$/)
  .transform(Number);
const conversationId = z.number().int().min(1).max(MAX_ID);

/** GET `?id=` or `?member=`, and `before=` a message id. */
export const conversationQuery = z.union([z.object({ id: idText, before: messageIdText.optional() }).strict(), z.object({ member: idText, before: messageIdText.optional() }).strict()]);

/** POST: a message, a gift, a gif or a photo already uploaded; `client_id` makes a retry the same message. */
export const sendMessageBody = z
  .object({
    to: z.number().int().min(1).max(MAX_ID),
    client_id: z.string().min(1).max(100),
    kind: z.enum(['text', 'gift', 'gif', 'photo']).default('text'),
    body: z.string().max(20_000).default(''),
    attachment: z.string().max(200).nullable().optional(),
  })
  .strict();

/** PUT: mark a conversation read. */
export const readConversationBody = z.object({ conversation: conversationId }).strict();

/** DELETE: one conversation, or every conversation with a profile. */
export const removeChatBody = z.union([z.object({ conversation: conversationId }).strict(), z.object({ profile: z.number().int().min(1).max(MAX_ID) }).strict()]);

export type ConversationAnswer = Answer<'getConversation', 200>;
export type SentMessageAnswer = Answer<'sendMessage', 200 | 201>;
export type ReadConversationAnswer = Answer<'readConversation', 200>;
export type RemoveChatAnswer = Answer<'removeChat', 200>;
