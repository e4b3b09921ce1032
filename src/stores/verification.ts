/**
 * Sending a verification selfie (VER-01): the /verify island's camera picture goes to
 * `POST /api/verification.php` with the pose asked. The state says whether a send runs and why the last
 * one was refused (an API error code, translated by the island).
 */
import { map } from 'nanostores';
import { api, failureReason, isAuthenticationRequired, type FailureReason } from '../client/api';
import type { VerificationPose } from '../shared/verification';

export interface SelfieSendState {
  sending: boolean;
  error: FailureReason | null;
}

export const $selfieSend = map<SelfieSendState>({ sending: false, error: null });

/** The multipart body of `/api/verification.php`; openapi-fetch sends a FormData as it is. */
type SelfieBody = { pose: VerificationPose; selfie: string };

/** Sends the selfie; true when it waits for a moderator now. */
export async function sendSelfie(picture: Blob, pose: VerificationPose): Promise<boolean> {
  $selfieSend.set({ sending: true, error: null });
  const form = new FormData();
  form.set('pose', pose);
  form.set('selfie', picture, 'selfie.jpg');
  try {
    const { data, error } = await api.POST('/api/verification.php', { body: form as unknown as SelfieBody });
    if (data) {
      $selfieSend.set({ sending: false, error: null });
      return true;
    }
    $selfieSend.set({ sending: false, error: failureReason(error) });
  } catch (err) {
    $selfieSend.set({ sending: false, error: isAuthenticationRequired(err) ? null : 'network' });
  }
  return false;
}
