/**
 * The match finder's like buttons as a server form (GAME-01; decision 023): each result card posts
 * `action=like&id=…` with the results' address in `next`, the like is stored with source 'match_finder',
 * and the browser goes back to the same results (post-redirect-get).
 */
import { servicesFor } from './services';
import { like } from '../members/likes';
import type { RequestContext } from './request-context';
import { parseId } from '../../shared/ids';
import { invalid, redirect, type MultiActionSpec } from './form-action';

/** Only the match finder's own address (with its query) is a place to go back to. */
export function matchFinderReturn(next: string): string {
  return /^\/match-finder(\?[\w=&%+.,-]{0,600})?$/.test(next) ? next : '/match-finder';
}

export function matchFinderForm(ctx: Pick<RequestContext, 'app' | 't' | 'site' | 'log' | 'linkOrigin' | 'responseDone'>, user: { id: number }): MultiActionSpec<undefined, 'like'> {
  const { t } = ctx;
  const bad = () => invalid(400, { formError: t('errors:validation_failed'), reason: 'invalid' });
  return {
    field: 'action',
    actions: {
      like: async (form) => {
        const id = parseId(form.text('id'));
        if (id === null) return bad();
        const result = await like(await servicesFor(ctx), { siteId: ctx.site.settings.id, userId: user.id }, id, 'match_finder');
        if (result.type === 'refused') return result.reason === 'self' ? bad() : invalid(404, { formError: t('errors:member_not_found'), reason: 'not_found' });
        return redirect(matchFinderReturn(form.text('next')));
      },
    },
    otherwise: bad,
  };
}
