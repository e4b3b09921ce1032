/**
 * Browser side of the warning banners (ALR-02, ALR-04, ACT-02), loaded for signed-in members only:
 * - registers the push service worker and works out the push state (PUSH-01); the push alert shows
 *   while push is available, not subscribed and not denied, and its button turns push on;
 * - dismiss buttons become JSON calls that hide the banner in place (the form post stays the fallback);
 * - the activation reminder's "send again" becomes a JSON call showing the outcome in place, and its
 *   modal (after signup) opens as a modal dialog from 768 px; below that the alert shows instead.
 */
import { api } from '../../client/api';
import { $push, $pushOffer, initPush, subscribePush, unsubscribePush } from '../../stores/push';
import { afterEntryWarning } from '../../client/entry-warning';

/** From this width the activation reminder after signup is a modal; narrower screens are smartphones. */
export const MODAL_QUERY = '(min-width: 768px)';

type AlertKey = 'enrich' | 'push' | 'notifications_disabled' | 'time_bonus';

function hideAlert(element: HTMLElement): void {
  element.hidden = true;
  element.dataset.dismissed = 'true';
}

async function dismiss(form: HTMLFormElement): Promise<void> {
  const alert = (form.elements.namedItem('alert') as HTMLInputElement | null)?.value as AlertKey | undefined;
  const banner = form.closest<HTMLElement>('[data-alert]');
  if (!alert || !banner) return form.submit();
  try {
    const { response } = await api.POST('/api/alert-dismiss.php', { body: { alert } });
    if (!response.ok) return form.submit();
    hideAlert(banner);
  } catch {
    form.submit();
  }
}

async function resendActivation(form: HTMLFormElement): Promise<void> {
  const status = form.closest('[data-activation-alert], [data-activation-modal]')?.querySelector<HTMLElement>('[data-activation-status]');
  const button = form.querySelector<HTMLButtonElement>('button');
  if (button) button.disabled = true;
  try {
    const { error, response } = await api.POST('/api/activation-mail.php', { body: {} });
    if (!status) return;
    status.classList.toggle('text-danger', !response.ok);
    if (response.ok) status.textContent = status.dataset.textSent ?? '';
    else status.textContent = (error as { message?: string } | undefined)?.message ?? status.dataset.textFailed ?? '';
  } catch {
    if (status) {
      status.classList.add('text-danger');
      status.textContent = status.dataset.textFailed ?? '';
    }
  } finally {
    if (button) button.disabled = false;
  }
}

function openActivationModal(doc: Document, win: Window): void {
  const dialog = doc.querySelector<HTMLDialogElement>('dialog[data-activation-modal]');
  if (!dialog) return;
  const alertBox = doc.querySelector<HTMLElement>('[data-activation-alert]');
  // Once closed, the plain reminder takes its place. (The close event of the switch from the open
  // dialog to the modal below arrives later too: by then the dialog is open again.)
  dialog.addEventListener('close', () => {
    if (!dialog.open) alertBox?.classList.remove('activation-alert-phone');
  });
  if (dialog.open) dialog.close();
  if (win.matchMedia(MODAL_QUERY).matches && typeof dialog.showModal === 'function') dialog.showModal();
  // The modal belongs to the moment of signup: a reload shows the alert.
  const url = new URL(win.location.href);
  if (url.searchParams.has('api_signup_complete')) {
    url.searchParams.delete('api_signup_complete');
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
  }
}

function bindPush(root: HTMLElement, doc: Document): void {
  const userId = Number(root.dataset.userId);
  const publicKey = root.dataset.pushKey || null;
  const banner = doc.querySelector<HTMLElement>('[data-alert="push"]');
  if (banner) {
    $pushOffer.subscribe((offer) => {
      if (banner.dataset.dismissed !== 'true') banner.hidden = !offer;
    });
    banner.querySelector<HTMLButtonElement>('[data-push-enable]')?.addEventListener('click', (event) => {
      const button = event.currentTarget as HTMLButtonElement;
      button.disabled = true;
      void subscribePush({ publicKey }).finally(() => (button.disabled = false));
    });
  }
  void initPush(Number.isFinite(userId) ? { userId } : {});
}

/** The banners of the section, in their order of priority (activation, time bonus, push, photo, notifications). */
const BANNERS = ':scope > :is([data-activation-alert], [data-time-bonus], [data-alert])';

/** The banners the member can see now (not hidden, not dismissed), highest priority first. */
export function shownBanners(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(BANNERS)].filter((banner) => !banner.hidden);
}

/**
 * One banner at a time on a phone (issue 25, decision 076): CSS shows the first one shown; this keeps
 * the "n more" button's count current (push shows late, a dismissed or expired banner leaves) and opens
 * the others on a press. From 768 px the banners stack and CSS hides the button.
 */
export function bindBannerQueue(root: HTMLElement, lang: string): void {
  const button = root.querySelector<HTMLButtonElement>('[data-banner-more]');
  if (!button) return;
  const labels = JSON.parse(button.dataset.labels ?? '{}') as Record<string, string>;
  const update = () => {
    const more = shownBanners(root).length - 1;
    const expanded = root.hasAttribute('data-expanded');
    // Only real changes: setting an attribute, even to its value, is a mutation the observer sees.
    const hidden = more < 1 || expanded;
    if (button.hidden !== hidden) button.hidden = hidden;
    if (more >= 1) {
      const text = (labels[new Intl.PluralRules(lang).select(more)] ?? labels.other ?? '').replace('{count}', String(more));
      if (button.textContent !== text) button.textContent = text;
    }
  };
  button.addEventListener('click', () => {
    root.setAttribute('data-expanded', '');
    button.setAttribute('aria-expanded', 'true');
    update();
    shownBanners(root)[1]?.querySelector<HTMLElement>('a[href], button')?.focus();
  });
  new MutationObserver(update).observe(root, { attributes: true, attributeFilter: ['hidden'], subtree: true, childList: true });
  update();
}

/** Wires the banners of the page (no-op without the `[data-alerts]` section). */
export function startAlerts(doc: Document, win: Window): void {
  const root = doc.querySelector<HTMLElement>('[data-alerts]');
  if (!root) return;
  doc.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.matches('form[data-alert-dismiss]')) {
      event.preventDefault();
      void dismiss(form);
    } else if (form.matches('form[data-activation-resend]')) {
      event.preventDefault();
      void resendActivation(form);
    }
  });
  // Never over the entry warning (LAY-02): until it is accepted the reminder stays in the page.
  afterEntryWarning(doc, () => openActivationModal(doc, win));
  bindPush(root, doc);
  bindBannerQueue(root, doc.documentElement.lang || 'en');
  bindLogout(doc);
}

/**
 * Logging out ends this browser's push subscription first, so the next person using the browser does
 * not receive the member's notifications. The logout form (a POST, SEC-12) is held back until the push
 * service has answered, then sent as it was; logging out goes ahead whatever the push service answers.
 */
export function bindLogout(doc: Pick<Document, 'addEventListener'>, unsubscribe: () => Promise<unknown> = unsubscribePush): void {
  doc.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement | null;
    if (!form?.matches?.('form[data-logout]') || $push.get().status !== 'subscribed') return;
    event.preventDefault();
    // form.submit() sends the form without a second submit event.
    const go = () => form.submit();
    void unsubscribe().then(go, go);
  });
}
