/** What the direct-debit page and the credits pages share: the configured limit and the member's mandate for a payment. */
import type { RequestContext } from './request-context';
import { parseId } from '../../shared/ids';
import type { DirectDebitLimit } from '../directdebit/limit';
import { activeMandate, memberState } from '../directdebit/service';

export function directDebitLimit(ctx: Pick<RequestContext, 'app'>): DirectDebitLimit {
  return { cents: ctx.app.config.DIRECT_DEBIT_LIMIT_CENTS, days: ctx.app.config.DIRECT_DEBIT_LIMIT_DAYS };
}

/** The mandate a direct-debit payment of this member collects on: blocked, none yet, or its reference. */
export async function mandateForPayment(ctx: Pick<RequestContext, 'app'>, memberId: number): Promise<{ type: 'blocked' } | { type: 'none' } | { type: 'ok'; reference: string }> {
  if ((await memberState(ctx.app.db, memberId)).blocked) return { type: 'blocked' };
  const mandate = await activeMandate(ctx.app.db, memberId);
  return mandate ? { type: 'ok', reference: mandate.reference } : { type: 'none' };
}

/** A package id from a query or a form, or null. */
export function packageParam(value: string | null | undefined): number | null {
  return parseId(value);
}
