/**
 * The reconcile job (issue 11): pending payments older than PAYMENTS_RECONCILE_MINUTES are asked for
 * again at their provider, so a lost webhook never leaves a paid order without its credits.
 */
import type { Db } from '../../db/client';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { paymentProviders } from '../payments/registry';
import { reconcilePayments } from '../payments/service';

export async function reconcilePendingPayments(deps: { db: Db; clock: Clock; config: Config; log: Logger }): Promise<{ checked: number; settled: number }> {
  const providers = await paymentProviders(deps);
  const result = await reconcilePayments({ db: deps.db, clock: deps.clock, providers, log: deps.log }, { afterMinutes: deps.config.PAYMENTS_RECONCILE_MINUTES });
  if (result.checked > 0) deps.log.info(result, 'payments reconciled');
  return result;
}
