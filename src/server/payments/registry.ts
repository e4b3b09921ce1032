/**
 * Which payment providers the app uses: PAY. when its keys are configured (then the simulated checkout
 * is off: its page lets anyone choose "paid"), otherwise the built-in simulated checkout.
 * One registry per database, made on first use.
 */
import type { Db } from '../../db/client';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { PaynlProvider } from './paynl';
import type { PaymentProvider } from './provider';
import { SimulatedProvider } from './simulated';

export interface PaymentProviders {
  /** The provider new payments go to. */
  current: PaymentProvider;
  /** The simulated checkout when it is the one in use, else null (its page answers 404). */
  simulated: SimulatedProvider | null;
  byName(name: string): PaymentProvider | null;
}

export function providersOf(list: PaymentProvider[]): PaymentProviders {
  const current = list[0]!;
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
      if (c.PAYNL_API_TOKEN && c.PAYNL_TOKEN_CODE && c.PAYNL_SERVICE_ID) {
        return providersOf([new PaynlProvider({ tokenCode: c.PAYNL_TOKEN_CODE, apiToken: c.PAYNL_API_TOKEN, serviceId: c.PAYNL_SERVICE_ID, apiUrl: c.PAYNL_API_URL })]);
      }
      if (c.production) app.log?.warn('payments: no provider configured, the simulated checkout is in use (demo only)');
      return providersOf([await SimulatedProvider.create({ db: app.db, log: app.log })]);
    })();
    registry.catch(() => registries.delete(app.db));
    registries.set(app.db, registry);
  }
  return registry;
}
