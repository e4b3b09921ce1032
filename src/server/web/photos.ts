/**
 * The photo forms of /profile (PHO-01..03; decision 023, 043): one server form per action, so photo
 * management works without JavaScript. `action` names it:
 * - `photo_upload` (multipart, `photo` with `multiple`): every chosen file, in order, until one is refused;
 * - `photo_main`, `photo_delete`, `photo_premium` (`premium` = 1 or 0), `photo_up`, `photo_down`, each with
 *   the photo's id in `photo`.
 * A photo id that is not one of the member's own answers 404. Success goes back to /profile#photos with
 * `photos=<what was done>`; a refusal renders the page again with the translated reason.
 */
import { parseId } from '../../shared/ids';
import type { CurrentUser } from '../members/account';
import { deletePhoto, movePhoto, setMainPhoto, setPhotoPremium, type ManageResult } from '../photos/manage';
import { PHOTO_LIMITS, photoLimitFor, readUploadFiles, uploadPhoto, type UploadError } from '../photos/upload';
import type { RequestContext } from './request-context';
import type { Translate } from '../../i18n';
import { API_ERRORS } from '../../shared/api-errors';
import { invalid, redirect, type FormHandler, type FormInvalid, type ReadForm } from './form-action';

export const PHOTOS_PATH = '/profile';

export const PHOTO_ACTIONS = ['photo_upload', 'photo_main', 'photo_delete', 'photo_premium', 'photo_up', 'photo_down'] as const;
export type PhotoAction = (typeof PHOTO_ACTIONS)[number];

export function isPhotoAction(value: unknown): value is PhotoAction {
  return typeof value === 'string' && (PHOTO_ACTIONS as readonly string[]).includes(value);
}

/** PHO-01 with the words of SPEC §5: the member's own limit, and the free and premium limits. */
export function photoLimitText(t: Translate, limit: number): string {
  return t('photos_manage:limit_reached', { limit, free: PHOTO_LIMITS.free, premium: PHOTO_LIMITS.premium, count: limit });
}

/** The translated text of an upload refusal. */
export function uploadErrorText(t: Translate, reason: UploadError, limit: number): string {
  return reason === 'photo_limit_reached' ? photoLimitText(t, limit) : t(`errors:${reason}`);
}

const done = (what: string, extra = '') => redirect(`${PHOTOS_PATH}?photos=${what}${extra}#photos`);

/** The handlers of the photo actions for the signed-in `user`. */
export function photoActions<D>(ctx: Pick<RequestContext, 'app' | 't'>, user: Pick<CurrentUser, 'id' | 'paid_user'>): Record<PhotoAction, FormHandler<D>> {
  const { app, t } = ctx;
  const refused = (status: number, text: string): FormInvalid<D> => invalid<D>(status, { formError: text, reason: 'photos' });
  const manageRefused = (result: Exclude<ManageResult, { type: 'ok' }>) => refused(result.reason === 'not_found' ? 404 : 400, t(`photos_manage:errors.${result.reason}`));
  /** The photo id posted, or 0 (which no photo has: not found). */
  const photoId = (text: string) => parseId(text) ?? 0;
  const onPhoto =
    (run: (id: number, form: Parameters<FormHandler<D>>[0]) => Promise<ManageResult>, what: string): FormHandler<D> =>
    async (form) => {
      const result = await run(photoId(form.text('photo')), form);
      return result.type === 'ok' ? done(what) : manageRefused(result);
    };
  return {
    photo_upload: async (form) => {
      const files = form.data.getAll('photo').filter((f): f is File => typeof f !== 'string' && f.size > 0);
      if (files.length === 0) return refused(400, t('photos_manage:errors.no_file'));
      let added = 0;
      for (const file of files) {
        const result = await uploadPhoto(app, { userId: user.id, body: Buffer.from(await file.arrayBuffer()), setAsMain: 'when_none' });
        if (result.type === 'error') {
          const text = uploadErrorText(t, result.reason, result.limit ?? photoLimitFor(user.paid_user));
          return refused(API_ERRORS[result.reason], added > 0 ? `${t('photos_manage:uploaded', { count: added })} ${text}` : text);
        }
        added++;
      }
      return done('uploaded', `&n=${added}`);
    },
    photo_main: onPhoto((id) => setMainPhoto(app, user.id, id), 'main'),
    photo_delete: onPhoto((id) => deletePhoto(app, user.id, id), 'deleted'),
    photo_premium: onPhoto((id, form) => setPhotoPremium(app, user.id, id, form.text('premium') === '1'), 'premium'),
    photo_up: onPhoto((id) => movePhoto(app, user.id, id, 'up'), 'moved'),
    photo_down: onPhoto((id) => movePhoto(app, user.id, id, 'down'), 'moved'),
  };
}

/**
 * Reads a /profile post: multipart (the upload form) with the upload's limit, anything else as a plain
 * form. `refusedUpload` turns an unreadable upload into the page's refusal.
 */
export function readProfilePost<D>(t: Translate): (request: Request) => Promise<ReadForm<D>> {
  return async (request) => {
    const multipart = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
    if (!multipart) {
      const data = await request.formData().catch(() => new FormData());
      return { type: 'form', data, file: null };
    }
    const read = await readUploadFiles(request, 'photo');
    if (read.type === 'error') return invalid<D>(API_ERRORS[read.reason], { formError: t(`errors:${read.reason}`), reason: 'photos' });
    return { type: 'form', data: read.form, file: read.files[0] ?? null };
  };
}
