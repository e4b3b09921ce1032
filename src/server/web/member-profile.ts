/**
 * The profile screen's buttons as server forms (MEM-03, BLK-01; decision 023): like, unlike, block,
 * unblock, posted to `/members/{id}` from that page and from `/likes/m/{id}`, and sent back there
 * (post-redirect-get). `report` (SAFE-01) comes from the profile and the chat screen (its report sheet
 * posts here too) and goes back to where it came from with `?reported=1`; blocking in the same step, to
 * the chat list (from the chat: the conversation is gone) or the profile's 'blocked' screen. Visitors are sent to the signup with the 'login required' text (SPEC §8). A
 * member not listed to the viewer answers 404 for a like (a block is never revealed); blocking is
 * always allowed for a member of the same site (blocks.ts).
 */
import { servicesFor } from './services';
import { block, unblock } from '../members/blocks';
import { like, unlike } from '../members/likes';
import { isReportReason, reportMember } from '../members/reports';
import type { RequestContext } from './request-context';
import { invalid, redirect, type FormHandler, type MultiActionSpec } from './form-action';

export const PROFILE_ACTIONS = ['like', 'unlike', 'block', 'unblock', 'report'] as const;
export type ProfileAction = (typeof PROFILE_ACTIONS)[number];

/** What a visitor is told at the signup after pressing a member-only button (SPEC §8). */
export const LOGIN_REQUIRED_KINDS = ['like', 'chat', 'gift', 'photo', 'block'] as const;
export type LoginRequiredKind = (typeof LOGIN_REQUIRED_KINDS)[number];

export function signupFor(kind: LoginRequiredKind, memberId?: number | null): string {
  const member = memberId && (kind === 'chat' || kind === 'gift') ? `&member=${memberId}` : '';
  return `/signup?required=${kind}${member}`;
}

/** The screens that post here and may be returned to: the profile and its twin under /likes. */
export function returnPath(posted: string, memberId: number): string {
  return posted === `/likes/m/${memberId}` ? posted : `/members/${memberId}`;
}

/** Where a report returns to: the chat it came from (`/chats/{id}`, `/members/{id}/chat`) or the profile screens. */
export function reportReturnPath(posted: string, memberId: number): string {
  return /^\/chats\/[1-9]\d{0,9}$/.test(posted) || posted === `/members/${memberId}/chat` ? posted : returnPath(posted, memberId);
}

export function memberProfileForm(
  ctx: Pick<RequestContext, 'app' | 't' | 'user' | 'site' | 'log' | 'linkOrigin' | 'responseDone'>,
  memberId: number | null,
): MultiActionSpec<undefined, ProfileAction> {
  const { app, t, user } = ctx;
  const siteId = ctx.site.settings.id;
  const notFound = () => invalid(404, { formError: t('errors:not_found_api'), reason: 'not_found' });
  const act =
    (kind: 'like' | 'block', handler: (member: { siteId: number; userId: number }, otherId: number, back: string) => Promise<ReturnType<FormHandler>>): FormHandler =>
    async (form) => {
      if (!user) return redirect(signupFor(kind));
      if (memberId === null) return notFound();
      return handler({ siteId, userId: user.id }, memberId, returnPath(form.text('next'), memberId));
    };
  // The liked member is told after this answer has gone (services.ts): a slow mail server never slows a like.
  const deps = () => servicesFor(ctx);
  return {
    field: 'action',
    actions: {
      like: act('like', async (member, otherId, back) => {
        const result = await like(await deps(), member, otherId, 'profile');
        if (result.type === 'refused') return result.reason === 'self' ? invalid(400, { formError: t('errors:validation_failed'), reason: 'self' }) : notFound();
        return redirect(back);
      }),
      unlike: act('like', async (member, otherId, back) => {
        await unlike(await deps(), member, otherId);
        return redirect(back);
      }),
      block: act('block', async (member, otherId) => {
        const result = await block({ db: app.db, bus: app.bus }, member, otherId);
        if (result.type === 'refused') return result.reason === 'self' ? invalid(400, { formError: t('errors:validation_failed'), reason: 'self' }) : notFound();
        return redirect(`/members/${otherId}?blocked=1`);
      }),
      unblock: act('block', async (member, otherId, back) => {
        await unblock({ db: app.db, bus: app.bus }, member, otherId);
        return redirect(back);
      }),
      report: async (form) => {
        if (!user) return redirect(signupFor('block'));
        if (memberId === null) return notFound();
        const reason = form.text('reason');
        if (!isReportReason(reason)) return invalid(400, { formError: t('safety:report_reason_required'), reason: 'invalid_reason' });
        const message = /^[1-9]\d{0,14}$/.test(form.text('message')) ? Number(form.text('message')) : null;
        const result = await reportMember(app, { siteId, userId: user.id }, { memberId, reason, messageId: message, note: form.text('note'), block: form.text('block') === '1' });
        if (result.type === 'refused') {
          if (result.reason === 'rate_limited') return invalid(429, { formError: t('safety:report_limit'), reason: 'rate_limited' });
          return result.reason === 'self' ? invalid(400, { formError: t('errors:validation_failed'), reason: 'self' }) : notFound();
        }
        const back = reportReturnPath(form.text('next'), memberId);
        // Blocked from the chat: its conversation is gone, so the chat list; from a profile, the page about the block.
        if (result.blocked) return redirect(back.startsWith('/chats/') || back.endsWith('/chat') ? '/chats?reported=1' : `/members/${memberId}?blocked=1&reported=1`);
        return redirect(`${back}?reported=1`);
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:validation_failed'), reason: 'unknown_action' }),
  };
}
