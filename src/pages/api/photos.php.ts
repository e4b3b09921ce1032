/**
 * /api/photos.php (PHO-01, PHO-03, PHO-04): POST multipart/form-data with one file `photo` adds it to the
 * member's photos, waiting for review (PHO-02): 201 with the photo, how many the member has and the
 * limit (200 and the same photo for a retry with the same `client_id`). The photo management island posts each chosen file here on its own, to show its progress;
 * without JavaScript the /profile form posts them all at once. Same checks as every upload (upload.ts).
 */
import { ApiError, endpoint, json, methodNotAllowed } from '../../server/web/api';
import { countPhotos, photoLimitFor, readUploadForm, uploadPhoto } from '../../server/photos/upload';
import { photoLimitText } from '../../server/web/photos';
import { requireMember } from '../../server/web/request-context';
import type { Answer } from '../../shared/api/contract';
import { uploadPhotoFields } from '../../shared/api/photos';

export const POST = endpoint(async ({ locals, request, url }) => {
  const user = requireMember(locals, url.pathname);
  const read = await readUploadForm(request, 'photo');
  if (read.type === 'error') throw new ApiError(read.reason);
  if (!read.file) throw new ApiError('photo_invalid');
  const fields = uploadPhotoFields.safeParse({ client_id: read.form.get('client_id') ?? undefined });
  if (!fields.success) throw new ApiError('validation_failed');
  const result = await uploadPhoto(locals.app, { userId: user.id, body: read.file, setAsMain: 'when_none', ...(fields.data.client_id ? { clientId: fields.data.client_id } : {}) });
  if (result.type === 'error') {
    if (result.reason !== 'photo_limit_reached') throw new ApiError(result.reason);
    const limit = result.limit ?? photoLimitFor(user.paid_user);
    return json({ error: 'photo_limit_reached', message: photoLimitText(locals.t, limit), limit } satisfies Answer<'uploadPhoto', 403>, { status: 403 });
  }
  const count = await countPhotos(locals.app.db, user.id);
  return json(
    { photo: { id: result.photo.id, status: result.photo.status, thumb_filename: result.photo.thumbFilename }, count, limit: photoLimitFor(user.paid_user) } satisfies Answer<'uploadPhoto', 201>,
    { status: result.repeated ? 200 : 201 },
  );
});

export const ALL = methodNotAllowed;
