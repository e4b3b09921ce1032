import { describe, expect, it } from 'vitest';
import { isMembersArea, planTimeBonus } from './time-bonus';
import { TIME_BONUS_MS } from './discounts';

const signup = new Date('2026-11-25T08:00:00.000Z');
const member = { id: 7, paid_user: false, signup_date: signup.toISOString(), credits: 0 };
const at = (ms: number) => new Date(signup.getTime() + ms);

describe('time bonus on the page (TB-01, TB-02)', () => {
  it('TB-02 the members area is members, members-id, chats, likes, likes-m-id and premium', () => {
    for (const path of ['/members', '/members/', '/members/12', '/chats', '/likes', '/likes/given', '/likes/m/12', '/premium']) expect(isMembersArea(path), path).toBe(true);
    for (const path of ['/', '/profile', '/credits', '/settings', '/chats/5', '/members/12/chat', '/members/12/landing', '/login', '/membersx']) expect(isMembersArea(path), path).toBe(false);
  });

  it('TB-01 a new free member gets the bonus with its end (signup + 4 h) and the seconds left; the modal at credits 0', () => {
    const plan = planTimeBonus({ member, pathname: '/members', dismissals: {}, now: at(3600_000) });
    expect(plan).toEqual({ code: 'TIMEBONUS25', percent: 25, endsAt: '2026-11-25T12:00:00.000Z', secondsLeft: 3 * 3600, modal: true });
    expect(planTimeBonus({ member, pathname: '/likes', dismissals: {}, now: at(TIME_BONUS_MS - 1500) })?.secondsLeft).toBe(1);
  });

  it('TB-01 none for a paid member, at or after 4 hours, for a visitor or outside the members area', () => {
    expect(planTimeBonus({ member: { ...member, paid_user: true }, pathname: '/members', dismissals: {}, now: at(60_000) })).toBeNull();
    expect(planTimeBonus({ member, pathname: '/members', dismissals: {}, now: at(TIME_BONUS_MS) })).toBeNull();
    expect(planTimeBonus({ member, pathname: '/members', dismissals: {}, now: at(TIME_BONUS_MS - 999) })).toBeNull();
    expect(planTimeBonus({ member, pathname: '/profile', dismissals: {}, now: at(60_000) })).toBeNull();
    expect(planTimeBonus(null)).toBeNull();
  });

  it('TB-02 no modal with credits left or once dismissed; the banner stays', () => {
    expect(planTimeBonus({ member: { ...member, credits: 20 }, pathname: '/members', dismissals: {}, now: at(60_000) })).toMatchObject({ modal: false, code: 'TIMEBONUS25' });
    expect(planTimeBonus({ member, pathname: '/members', dismissals: { time_bonus: at(30_000).toISOString() }, now: at(60_000) })).toMatchObject({ modal: false, code: 'TIMEBONUS25' });
  });
});
