/**
 * /api/chat-photo.php (GFT-01): POST multipart/form-data with `to`, `client_id` and the file `photo`
 * sends a photo in a chat, charged `photo_credits`; it answers like POST /api/chat.php (201, or 200 for a
 * retry with the same client id). The photo goes through the checks of profile photos.
 */
import { servicesFor } from '../../server/web/services';
import { ApiError, endpoint, json, methodNotAllowed } from '../../server/web/api';
import { pricesOf, sendRefusal } from '../../server/web/chat';
import { sendChatPhoto } from '../../server/chat/photos';
import { messageJson } from '../../server/session/stream';
import { readUploadForm } from '../../server/photos/upload';
import { requireMember } from '../../server/web/request-context';
import { MAX_ID } from '../../shared/ids';
import { chatPhotoFields, type ChatPhotoAnswer } from '../../shared/api/chat-photo';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const read = await readUploadForm(request, 'photo');
  if (read.type === 'error') throw new ApiError(read.reason);
  const parsed = chatPhotoFields.safeParse({ to: read.form.get('to'), client_id: read.form.get('client_id') });
  if (!parsed.success || parsed.data.to > MAX_ID) throw new ApiError('validation_failed');
  if (!read.file) throw new ApiError('photo_invalid');
  const result = await sendChatPhoto(await servicesFor(locals), { siteId: locals.site.settings.id, userId: user.id, paidUser: user.paid_user }, pricesOf(locals.site.settings), {
    to: parsed.data.to,
    clientId: parsed.data.client_id,
    body: read.file,
  });
  if (result.type === 'refused') {
    if (result.reason === 'photo_invalid' || result.reason === 'photo_too_large' || result.reason === 'photo_limit_reached') throw new ApiError(result.reason);
    throw sendRefusal(result.reason, 'balance' in result ? result : undefined);
  }
  return json({ message: messageJson(result.message, user.id), balance: result.balance, replayed: result.replayed } satisfies ChatPhotoAnswer, { status: result.replayed ? 200 : 201 });
});

export const ALL = methodNotAllowed;
