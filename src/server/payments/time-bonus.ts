/**
 * What a members-area page shows of the time bonus (TB-01, TB-02), decided on the server from the rule in
 * discounts.ts; the browser only counts down to the end it is given (src/client/time-bonus.ts).
 * - The banner: on a members-area page (SPEC §2: members, members-id, chats, likes, likes-m-id, premium)
 *   for a signed-in member whose time bonus is valid now (non-paying, signup under 4 hours ago).
 * - The modal (opened by the script 40 s after entering the members area): only when the member's credits
 *   are 0 and the `time_bonus` alert was never dismissed (ALR-04: that dismissal is for good).
 * A visitor, a paid member (the bonus was used: it ends when they become paid) or a member signed up 4 hours
 * or more ago gets neither, and the page carries none of the script.
 */
import { isDismissed, type Dismissals } from '../alerts/rules';
import { TIME_BONUS_CODE, TIME_BONUS_PERCENT, timeBonus, type DiscountMember } from './discounts';

/**
 * The members area (SPEC §2): /members, /members/{id}, /chats, /likes (and its tabs /likes/{type}),
 * /likes/m/{id} and /premium. The conversation screens (/chats/{id}, /members/{id}/chat) have the bare
 * Chat layout and no banners.
 */
const MEMBERS_AREA = /^\/(?:members(?:\/\d+)?|chats|likes(?:\/[a-z_-]+)?|likes\/m\/\d+|premium)\/?$/;

export function isMembersArea(pathname: string): boolean {
  return MEMBERS_AREA.test(pathname);
}

export interface TimeBonusPlan {
  code: string;
  percent: number;
  /** ISO time the bonus ends (the server's rule). */
  endsAt: string;
  /** Whole seconds left at render time (the page counts down from this, so a wrong device clock does not matter). */
  secondsLeft: number;
  /** Whether the page carries the modal (credits 0, never dismissed). */
  modal: boolean;
}

export interface TimeBonusInput {
  member: DiscountMember & { credits: number };
  pathname: string;
  dismissals: Dismissals;
  now: Date;
}

/** The banner and modal of a page for a signed-in member; null when the page shows no time bonus. */
export function planTimeBonus(input: TimeBonusInput | null): TimeBonusPlan | null {
  if (!input || !isMembersArea(input.pathname)) return null;
  const bonus = timeBonus(input.member, input.now);
  if (!bonus?.expires_at) return null;
  const left = Date.parse(bonus.expires_at) - input.now.getTime();
  // Under a second left: nothing to count down (the rule itself ends at the millisecond).
  const secondsLeft = Math.floor(left / 1000);
  if (secondsLeft < 1) return null;
  return {
    code: TIME_BONUS_CODE,
    percent: TIME_BONUS_PERCENT,
    endsAt: bonus.expires_at,
    secondsLeft,
    modal: input.member.credits === 0 && !isDismissed(input.dismissals, 'time_bonus', input.now),
  };
}
