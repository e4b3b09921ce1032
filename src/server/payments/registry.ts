/**
 * Which payment provider the app uses (SEC-14, docs/decisions/060-no-payments-without-a-provider.md): the
 * one `config.paymentsProvider` names — PAY. with its keys, or the simulated checkout when chosen
 * explicitly (the demo and the tests) — or none, and then every purchase is refused with
 * `payments_unavailable`. There is no fallback: a server without a provider never gives credits away.
 * One registry per database, made on first use.
 */
import type { Db } from '../../db/client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { PaynlProvider } from './paynl';
import type { PaymentProvider } from './provider';
import { SimulatedProvider } from './simulated';

export interface PaymentProviders {
  /** The provider new payments go to; null when none is configured (purchases are refused). */
  current: PaymentProvider | null;
  /** The simulated checkout when it is the one in use, else null (its page answers 404). */
  simulated: SimulatedProvider | null;
  byName(name: string): PaymentProvider | null;
}

export function providersOf(list: PaymentProvider[]): PaymentProviders {
  const current = list[0] ?? null;
  return {
    current,
    simulated: current instanceof SimulatedProvider ? current : null,
    byName: (name) => list.find((p) => p.name === name) ?? null,
  };
}

const registries = new WeakMap<object, Promise<PaymentProviders>>();

export function paymentProviders(app: { db: Db; config: Config; log?: Logger }): Promise<PaymentProviders> {
  let registry = registries.get(app.db);
  if (!registry) {
    registry = (async () => {
      const c = app.config;
      if (c.paymentsProvider === 'paynl') {
        return providersOf([new PaynlProvider({ tokenCode: c.PAYNL_TOKEN_CODE!, apiToken: c.PAYNL_API_TOKEN!, serviceId: c.PAYNL_SERVICE_ID!, apiUrl: c.PAYNL_API_URL })]);
      }
      if (c.paymentsProvider === 'simulated') return providersOf([await SimulatedProvider.create({ db: app.db, log: app.log })]);
      return providersOf([]);
    })();
    registry.catch(() => registries.delete(app.db));
    registries.set(app.db, registry);
  }
  return registry;
}

/** What the process says at start about payments: an error when nobody can buy, a warning for the simulated checkout. */
export function logPaymentsChoice(config: Pick<Config, 'paymentsProvider' | 'production'>, log: Logger): void {
  if (config.paymentsProvider === null) {
    log.error('payments: no provider configured (PAYMENTS_PROVIDER, or the PAYNL_ keys): every purchase is refused with payments_unavailable');
  } else if (config.paymentsProvider === 'simulated' && config.production) {
    log.warn('payments: the simulated checkout is in use (DEMO_MODE): the payer picks "paid" without paying; nothing is really sold');
  }
}
