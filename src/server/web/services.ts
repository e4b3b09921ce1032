/**
 * The services a request's handlers hand to the rules, bound to that request: one object that every
 * service's own dependencies (`ChatDeps`, `LikeDeps`, `PaymentDeps`, `DirectDebitDeps`, …) are a part
 * of, so a page or endpoint says `servicesFor(Astro.locals)` and passes it on, whatever it calls
 * (docs/decisions/075-one-layer-per-folder.md). Process-wide parts come from the app context; what
 * belongs to the request is the logger with its id and the notifications, which run in the background
 * once the answer has gone (a slow mail server never slows a like or a message) and link to the
 * request's own origin.
 */
import type { Db } from '../../db/client';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { smsProvider, type SmsProvider } from '../directdebit/sms';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { channelsFor, notify, type NotifyEvent } from '../notify/notify';
import { paymentProviders, type PaymentProviders } from '../payments/registry';
import type { PhotoStore } from '../photos/store';
import type { EventBus } from '../realtime/bus';
import type { SiteDirectory } from '../sites/directory';
import type { RequestContext } from './request-context';

export interface Services {
  db: Db;
  clock: Clock;
  bus: EventBus;
  log: Logger;
  config: Config;
  mailer: Mailer;
  photos: PhotoStore;
  sites: SiteDirectory;
  providers: PaymentProviders;
  sms: SmsProvider;
  /** Tells a member of an event by push and mail (their preferences apply), after the answer has gone. */
  notify(memberId: number, event: NotifyEvent): Promise<void>;
}

/**
 * The services of a request. The payment providers and the SMS sender are made on first use by this side
 * of the process (the Astro bundle), not by the runtime: their errors are caught here with `instanceof`,
 * which only holds for the same copy of the class. Both are kept per database after the first call.
 */
export async function servicesFor(ctx: Pick<RequestContext, 'app' | 'log' | 'linkOrigin' | 'responseDone'>): Promise<Services> {
  const { app } = ctx;
  return {
    db: app.db,
    clock: app.clock,
    bus: app.bus,
    log: ctx.log,
    config: app.config,
    mailer: app.mailer,
    photos: app.photos,
    sites: app.sites,
    providers: await paymentProviders(app),
    sms: smsProvider(app),
    // Not awaited: the task waits for the answer to have gone, and the caller waits for nothing.
    notify: async (memberId, event) => {
      void app.background.run(`notify ${event.type}`, () => notify(app, memberId, event, { origin: ctx.linkOrigin, channels: channelsFor(event) }), ctx.responseDone);
    },
  };
}
