/**
 * The time bonus in the browser (TB-01, TB-02), loaded only on pages whose server rendered the banner
 * (src/components/members/TimeBonusBanner.astro, TimeBonusModal.astro): the server decides whether there is a bonus and how many
 * seconds are left; this script only counts them down.
 * - Every second the banner's (and the modal's) timer shows the time left; at zero both are cleared.
 * - The modal, when the page carries it (credits 0, never dismissed), opens 40 s after the member entered
 *   the members area: the entry time is kept per member in sessionStorage, so moving between members
 *   pages does not start the 40 s again. Closing it (button, Escape, backdrop) stores the dismissal
 *   (`POST /api/alert-dismiss.php {alert: 'time_bonus'}`); its "use the discount" button is a form post
 *   to the same endpoint that goes on to /credits, so it works without this script too.
 * - Every 60 s it asks `GET /api/discountcode.php`: a bonus that ended elsewhere (paid in another tab) is
 *   cleared here too, and a logged-out session logs the page out (CLI-02).
 * - Screen readers are not told every second: the timers are `role="timer"` with `aria-live="off"`.
 */
import { api } from './api';
import { afterEntryWarning } from './entry-warning';
import { formatCountdown, startCountdown, type Countdown } from '../shared/countdown';

/** SPEC §9: the modal opens 40 s after entering the members area. */
export const MODAL_DELAY_MS = 40_000;
/** How often the page asks the server whether the bonus still holds (the periodic refresh's pace, CLI-08). */
export const RECHECK_MS = 60_000;

/** When the member entered the members area: the stored time, else `now` (stored). Storage may be absent or refuse. */
export function enteredAt(storage: Pick<Storage, 'getItem' | 'setItem'> | null, key: string, now: number): number {
  try {
    const stored = Number(storage?.getItem(key) ?? NaN);
    if (Number.isFinite(stored) && stored > 0 && stored <= now) return stored;
    storage?.setItem(key, String(now));
  } catch {
    // Storage switched off (private mode, policy): count from this page.
  }
  return now;
}

/** How long until the modal opens: 40 s after entering, at once when that has passed. */
export function modalDelay(entered: number, now: number, delay = MODAL_DELAY_MS): number {
  return Math.max(0, entered + delay - now);
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Opens the modal: the page behind is inert (showModal), Tab wraps inside, focus goes back on closing. */
function openModal(doc: Document, dialog: HTMLDialogElement): void {
  if (dialog.open || typeof dialog.showModal !== 'function') return;
  const opener = doc.activeElement instanceof HTMLElement ? doc.activeElement : null;
  dialog.addEventListener('close', () => opener?.isConnected && opener.focus(), { once: true });
  dialog.showModal();
}

function bindModal(doc: Document, dialog: HTMLDialogElement, isExpired: () => boolean): void {
  let leaving = false;
  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) return;
    const index = focusable.indexOf(doc.activeElement as HTMLElement);
    const last = focusable.length - 1;
    const next = index < 0 ? (event.shiftKey ? last : 0) : event.shiftKey ? (index === 0 ? last : index - 1) : index === last ? 0 : index + 1;
    event.preventDefault();
    focusable[next]!.focus();
  });
  // A click on the backdrop (the dialog element itself, outside its box) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  // The "use the discount" form stores the dismissal itself on its way to /credits.
  dialog.querySelector('form[data-time-bonus-use]')?.addEventListener('submit', () => (leaving = true));
  dialog.addEventListener('close', () => {
    if (leaving || isExpired()) return;
    void api.POST('/api/alert-dismiss.php', { body: { alert: 'time_bonus' } }).catch(() => undefined);
  });
}

/** Wires the banner and modal of the page; does nothing on a page without `[data-time-bonus]`. */
export function startTimeBonus(win: Window): void {
  const doc = win.document;
  const banner = doc.querySelector<HTMLElement>('[data-time-bonus]');
  const secondsLeft = Number(banner?.dataset.secondsLeft);
  if (!banner || !Number.isFinite(secondsLeft) || secondsLeft <= 0) return;
  const dialog = doc.querySelector<HTMLDialogElement>('dialog[data-time-bonus-modal]');
  const timerTexts = [...doc.querySelectorAll<HTMLElement>('[data-time-bonus-timer]')];
  let expired = false;
  let opening: number | undefined;
  let recheck: number | undefined;
  let countdown: Countdown | undefined;
  // Cleared at zero, and when the server no longer has the bonus (paid or logged out in another tab).
  const clear = () => {
    expired = true;
    banner.hidden = true;
    win.clearTimeout(opening);
    win.clearInterval(recheck);
    countdown?.stop();
    if (dialog?.open) dialog.close();
  };
  countdown = startCountdown({
    secondsLeft,
    timers: { now: () => Date.now(), setInterval: (run, ms) => win.setInterval(run, ms), clearInterval: (id) => win.clearInterval(id as number) },
    onTick: (left) => {
      const text = formatCountdown(left);
      for (const element of timerTexts) if (element.textContent !== text) element.textContent = text;
    },
    onEnd: () => clear(),
  });
  if (expired) return;
  // SPEC §6: the time bonus is reloaded periodically like the chats and likes (a 403 logs out, CLI-02).
  recheck = win.setInterval(() => {
    api.GET('/api/discountcode.php').then(
      ({ data }) => data && data.discount?.kind !== 'time_bonus' && clear(),
      () => undefined,
    );
  }, RECHECK_MS);
  // Entering the members area is counted on any page with the banner, modal or not (credits may run out later).
  let storage: Storage | null;
  try {
    storage = win.sessionStorage;
  } catch {
    storage = null;
  }
  const now = Date.now();
  const entered = enteredAt(storage, `time-bonus-entered:${banner.dataset.member ?? ''}`, now);
  if (!dialog) return;
  bindModal(doc, dialog, () => expired);
  // Never over the entry warning (LAY-02): it waits until the warning is accepted.
  opening = win.setTimeout(() => afterEntryWarning(doc, () => expired || openModal(doc, dialog)), modalDelay(entered, now));
}
