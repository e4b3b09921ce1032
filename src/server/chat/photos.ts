/**
 * Photos in chat (GFT-01): the same checks as profile photos (format, size, pixel count; decoded once,
 * turned upright, metadata dropped, written as WebP), stored under a name the server makes, and sent
 * as a message of kind 'photo' that costs the site's `photo_credits`. The file is served only to the two
 * members of the conversation (photos/access.ts). A refused or repeated send leaves no file behind.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { messages } from '../../db/schema';
import { checkImage, processImage, type UploadError } from '../photos/upload';
import { PHOTO_NAME, type PhotoStore } from '../photos/store';
import { CLIENT_ID, sendMessage, type ChatDeps, type ChatPrices, type SendResult, type Sender } from './send';

export function newChatPhotoName(senderId: number): string {
  const name = `${randomBytes(3).toString('hex')}-c${senderId}-${randomBytes(8).toString('hex')}-chat.webp`;
  if (!PHOTO_NAME.test(name)) throw new Error('generated chat photo name does not fit PHOTO_NAME');
  return name;
}

export type ChatPhotoResult = SendResult | { type: 'refused'; reason: UploadError };

export async function sendChatPhoto(deps: ChatDeps & { photos: PhotoStore }, sender: Sender, prices: ChatPrices, input: { to: number; clientId: string; body: Buffer }): Promise<ChatPhotoResult> {
  if (!CLIENT_ID.test(input.clientId)) return { type: 'refused', reason: 'invalid_client_id' };
  // A retry of a photo already sent: the first message, without processing the upload again.
  const [earlier] = await deps.db
    .select({ attachment: messages.attachment })
    .from(messages)
    .where(and(eq(messages.senderId, sender.userId), eq(messages.clientId, input.clientId)))
    .limit(1);
  if (earlier) return sendMessage(deps, sender, prices, { to: input.to, clientId: input.clientId, kind: 'photo', body: '', attachment: earlier.attachment });

  const checked = await checkImage(input.body);
  if (checked.type === 'error') return { type: 'refused', reason: checked.reason };
  let main: Buffer;
  try {
    main = (await processImage(input.body)).main;
  } catch {
    return { type: 'refused', reason: 'photo_invalid' };
  }
  const name = newChatPhotoName(sender.userId);
  await deps.photos.put(name, main);
  let result: SendResult;
  try {
    result = await sendMessage(deps, sender, prices, { to: input.to, clientId: input.clientId, kind: 'photo', body: '', attachment: name });
  } catch (err) {
    await deps.photos.delete(name).catch(() => {});
    throw err;
  }
  // Refused, or a concurrent retry won with its own file: this one is nobody's.
  if (result.type !== 'sent' || result.message.attachment !== name) await deps.photos.delete(name).catch(() => {});
  return result;
}
