/**
 * Where a lander's call to action leads (LND-01, LND-03, LND-04): the signup page, or, on an
 * invite-only site, the invitation panel on the same page (visitors there cannot sign up).
 */
import type { Settings } from '../../shared/settings';

/** The id of the invitation panel on landers of invite-only sites. */
export const INVITATION_ID = 'invitation';

/** The call to action's target; a member landing passes the member so signup can lead to them. */
export function signupEntry(settings: Pick<Settings, 'invite_only'>, memberId?: number): string {
  if (settings.invite_only) return `#${INVITATION_ID}`;
  return memberId ? `/signup?member=${memberId}` : '/signup';
}

/** The answer flag the invitation endpoint adds when it sends a form post back to the page. */
export type InvitationFlag = 'thanks' | 'invalid';
export const INVITATION_QUERY = 'invitation';

export function invitationFlag(url: URL): InvitationFlag | null {
  const value = url.searchParams.get(INVITATION_QUERY);
  return value === 'thanks' || value === 'invalid' ? value : null;
}

/** The page to return to after a form post: the same path with the flag, scrolled to the panel. */
export function invitationReturnUrl(next: string, flag: InvitationFlag): string {
  const url = new URL(next, 'http://x');
  url.searchParams.set(INVITATION_QUERY, flag);
  return `${url.pathname}${url.search}#${INVITATION_ID}`;
}
