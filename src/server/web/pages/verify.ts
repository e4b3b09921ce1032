/**
 * The view model of /verify (VER-01): the member's verification state, the pose to ask for (at random,
 * drawn by /poses/{pose}.svg), their waiting selfie, and the texts of the page.
 */
import { latestSelfie, randomPose, verificationStateOf } from '../../photos/verification';
import { VERIFICATION_POSES } from '../../../shared/verification';
import type { CurrentUser } from '../../members/account';
import type { RefusedPost } from '../form-action';
import type { RequestContext } from '../request-context';

export async function verifyPage(ctx: Pick<RequestContext, 'app' | 't'>, user: Pick<CurrentUser, 'id' | 'profile' | 'fictional_icon'>, posted: RefusedPost | null, url: URL) {
  const { app, t } = ctx;
  const [state, selfie] = await Promise.all([verificationStateOf(app.db, user.id), latestSelfie(app.db, user.id)]);
  const fictional = user.fictional_icon;
  // A refused post keeps the pose the member was photographed in.
  const postedPose = posted?.form?.text('pose');
  const pose =
    state.state === 'pending'
      ? state.pose
      : (VERIFICATION_POSES as readonly string[]).includes(postedPose ?? '')
        ? (postedPose as (typeof VERIFICATION_POSES)[number])
        : randomPose(VERIFICATION_POSES);
  const canSend = !fictional && (state.state === 'none' || state.state === 'rejected' || state.state === 'lapsed');
  return {
    state: state.state,
    stateText: t(`verification:state.${state.state}`),
    reasonText: state.state === 'rejected' && state.reason ? t(`verification:reasons.${state.reason}`) : null,
    pose,
    poseText: t(`verification:poses.${pose}`),
    selfie: state.state === 'pending' && selfie ? `/verification/selfie/${selfie}` : null,
    sent: url.searchParams.get('sent') === '1',
    noMainPhoto: user.profile.main_image === null,
    fictional,
    canSend,
    formError: posted?.result.formError ?? null,
  };
}
