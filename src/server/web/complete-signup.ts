/**
 * The step forms of /complete-signup (SIGN-02): photo upload (step 0), about me (step 1), and "next"
 * (every step, and the skip link of the first two). A form moves the member on only from the step it was
 * shown for: a form of another step (a stale tab, the back button) changes nothing and shows the
 * current step again.
 */
import { ABOUT_MAX, SIGNUP_COMPLETE, aboutFromForm, advanceStep, saveAbout, type CompletionState } from '../members/profile-completion';
import type { CurrentUser } from '../members/account';
import { photoLimitFor, readUploadForm, uploadPhoto, type UploadError } from '../photos/upload';
import type { RequestContext } from './request-context';
import { API_ERRORS } from '../../shared/api-errors';
import { invalid, redirect, translateFields, type FormHandler, type FormInvalid, type MultiActionSpec, type ReadForm } from './form-action';

export const COMPLETE_SIGNUP_PATH = '/complete-signup';

/** What a refused about-me form shows again: the values just posted. */
export type AboutEcho = Record<string, unknown>;

/** The step forms for the signed-in `user`, who is at `state.step`. */
export function completeSignupForm(
  ctx: Pick<RequestContext, 'app' | 't'>,
  user: Pick<CurrentUser, 'id' | 'paid_user'>,
  state: Pick<CompletionState, 'step'>,
): MultiActionSpec<AboutEcho, 'next' | 'upload' | 'save'> {
  const { app, t } = ctx;
  const path = COMPLETE_SIGNUP_PATH;
  const refused = () => invalid<AboutEcho>(400, { formError: t('errors:validation_failed') });
  const uploadRefused = (reason: UploadError, limit?: number): FormInvalid<AboutEcho> =>
    invalid(API_ERRORS[reason], { formError: t(`errors:${reason}`, { limit: limit ?? photoLimitFor(user.paid_user), count: limit ?? photoLimitFor(user.paid_user) }) });
  const moveOn = async () => {
    const next = await advanceStep(app.db, user.id, state.step);
    return redirect(next >= SIGNUP_COMPLETE ? '/signup-matches' : path);
  };
  /** Runs `handler` only for a form of the current step (and, when given, only on step `only`). */
  const onStep =
    (handler: FormHandler<AboutEcho>, only?: number): FormHandler<AboutEcho> =>
    (form) => {
      if (Number(form.text('step')) !== state.step) return redirect(path);
      if (only !== undefined && state.step !== only) return refused();
      return handler(form);
    };
  return {
    field: 'action',
    read: readStepForm,
    actions: {
      next: onStep(moveOn),
      upload: onStep(async (form) => {
        if (!form.file) return invalid(400, { formError: t('complete_signup:photo.missing') });
        const result = await uploadPhoto(app, { userId: user.id, body: form.file, setAsMain: true });
        return result.type === 'ok' ? moveOn() : uploadRefused(result.reason, result.limit);
      }, 0),
      save: onStep(async (form) => {
        const posted = aboutFromForm(form.data);
        const saved = await saveAbout(app.db, user.id, posted);
        if (saved.type === 'ok') return moveOn();
        const fieldErrors = translateFields(saved.fields, (code) => t(`complete_signup:about.errors.${code}`, { max: ABOUT_MAX, count: ABOUT_MAX }));
        return invalid(400, { fieldErrors, formError: t('errors:validation_failed'), data: posted });
      }, 1),
    },
    otherwise: (form) => (Number(form.text('step')) !== state.step ? redirect(path) : refused()),
  };

  /** The photo step posts multipart (read with the upload's own size limit); the others a plain form. */
  async function readStepForm(request: Request): Promise<ReadForm<AboutEcho>> {
    const multipart = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
    if (!multipart) {
      const data = await request.formData().catch(() => null);
      return data ? { type: 'form', data, file: null } : refused();
    }
    const read = await readUploadForm(request, 'photo');
    return read.type === 'ok' ? { type: 'form', data: read.form, file: read.file } : uploadRefused(read.reason);
  }
}
