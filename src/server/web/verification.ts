/**
 * Photo verification on the web (VER-01, VER-02): the JSON of a member's verification, the selfie
 * upload (the /verify island posts to /api/verification.php; without JavaScript the page's form posts
 * the same multipart body to /verify).
 */
import { randomPose, onlyVerifiedContactOf, submitSelfie, verificationStateOf, type SelfieRefusal } from '../photos/verification';
import { readUploadForm, MAX_UPLOAD_BODY_BYTES } from '../photos/upload';
import { VERIFICATION_POSES, type VerificationPose, type VerificationState } from '../../shared/verification';
import type { VerificationAnswer } from '../../shared/api/verification';
import type { AppContext } from '../app';
import type { CurrentUser } from '../members/account';
import { API_ERRORS } from '../../shared/api-errors';
import type { RequestContext } from './request-context';
import { invalid, redirect, type SingleActionSpec } from './form-action';

/** The answer of GET/POST/PUT /api/verification.php. */
export async function verificationJson(app: Pick<AppContext, 'db'>, userId: number): Promise<VerificationAnswer> {
  const [state, only] = await Promise.all([verificationStateOf(app.db, userId), onlyVerifiedContactOf(app.db, userId)]);
  return stateJson(state, only);
}

export function stateJson(state: VerificationState, only: boolean, pose: VerificationPose = randomPose(VERIFICATION_POSES)): VerificationAnswer {
  return {
    state: state.state,
    pose: state.state === 'pending' ? state.pose : state.state === 'verified' ? null : pose,
    reason: state.state === 'rejected' ? state.reason : null,
    only_verified_contact: only,
  };
}

export type SelfieUpload = { type: 'ok' } | { type: 'error'; reason: SelfieRefusal };

/** Reads the multipart body (`pose`, `selfie`) and queues the selfie. */
export async function uploadSelfie(app: Pick<AppContext, 'db' | 'clock' | 'photos'>, userId: number, request: Request): Promise<SelfieUpload> {
  const read = await readUploadForm(request, 'selfie', MAX_UPLOAD_BODY_BYTES);
  if (read.type === 'error') return read;
  if (!read.file) return { type: 'error', reason: 'photo_invalid' };
  const result = await submitSelfie(app, userId, read.form.get('pose'), read.file);
  return result.type === 'ok' ? { type: 'ok' } : result;
}

/** The HTTP status of a selfie refusal (as API_ERRORS has them). */
export function selfieRefusalStatus(reason: SelfieRefusal): number {
  return API_ERRORS[reason];
}

/** The /verify form without JavaScript: the same multipart body (`pose`, `selfie`) as the API. */
export function verifyForm(ctx: Pick<RequestContext, 'app' | 't'>, user: Pick<CurrentUser, 'id'>): SingleActionSpec<undefined> {
  const { app, t } = ctx;
  return {
    read: async (request) => {
      const read = await readUploadForm(request, 'selfie', MAX_UPLOAD_BODY_BYTES);
      if (read.type === 'error') return invalid(selfieRefusalStatus(read.reason), { formError: t(`errors:${read.reason}`), reason: read.reason });
      return { type: 'form', data: read.form, file: read.file };
    },
    handle: async (form) => {
      if (!form.file) return invalid(400, { formError: t('verification:no_selfie'), reason: 'photo_invalid' });
      const result = await submitSelfie(app, user.id, form.text('pose'), form.file);
      if (result.type === 'ok') return redirect('/verify?sent=1');
      return invalid(selfieRefusalStatus(result.reason), { formError: t(`errors:${result.reason}`), reason: result.reason });
    },
  };
}
