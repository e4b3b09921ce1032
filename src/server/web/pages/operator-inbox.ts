/**
 * The view model of /admin/operator (OPS-02): the filter in the address (site, the member's language),
 * the 'take the oldest' form (the first waiting conversation nobody holds), and what the inbox shows:
 * the waiting conversations, oldest first, with their site's name and how long they have waited.
 */
import { isLanguage, type Language } from '../../../shared/languages';
import { parseId } from '../../../shared/ids';
import { listSites } from '../../sites/list';
import type { StaffMember } from '../../staff/accounts';
import { listWaiting, takeConversation } from '../../staff/operator';
import { invalid, redirect, type MultiActionSpec } from '../form-action';
import type { RequestContext } from '../request-context';

type Ctx = Pick<RequestContext, 'app' | 't' | 'lang'>;

export interface InboxFilter {
  siteId?: number;
  language?: Language;
}

export function inboxFilter(url: URL): InboxFilter {
  const siteId = parseId(url.searchParams.get('site')) ?? undefined;
  const lang = url.searchParams.get('lang') ?? '';
  return { siteId, language: isLanguage(lang) ? lang : undefined };
}

/** 'Take the oldest': the first of the filtered waiting conversations nobody holds, else 409 with the reason. */
export function takeNextForm(ctx: Ctx, staff: StaffMember, filter: InboxFilter): MultiActionSpec<undefined, 'take_next'> {
  const { app, t } = ctx;
  return {
    field: 'action',
    actions: {
      take_next: async () => {
        for (const waiting of await listWaiting(app.db, app.clock.now(), { ...filter, limit: 50 })) {
          if (waiting.lockedBy) continue;
          const taken = await takeConversation(app, staff, waiting.id);
          if (taken.type === 'taken') return redirect(`/admin/operator/${waiting.id}`);
        }
        return invalid(409, { formError: t('staff_operator:none_free'), reason: 'none_free' });
      },
    },
    otherwise: () => invalid(400, { formError: t('errors:invalid_choice') }),
  };
}

export async function operatorInboxView(ctx: Ctx, filter: InboxFilter, url: URL) {
  const { app, lang } = ctx;
  const now = app.clock.now();
  const [rows, siteRows] = await Promise.all([listWaiting(app.db, now, filter), listSites(app.db)]);
  const siteName = new Map(siteRows.map((s) => [s.id, s.name]));
  const time = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' });
  return {
    rows,
    siteRows,
    siteName: (id: number) => siteName.get(id) ?? id,
    time,
    minutes: (since: Date) => Math.max(0, Math.round((now.getTime() - since.getTime()) / 60_000)),
    done: ['reply', 'release'].find((d) => d === url.searchParams.get('done')),
  };
}
