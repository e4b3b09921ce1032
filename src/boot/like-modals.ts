/**
 * LIK-03: asks `GET /api/auto-like.php` for a like not yet shown and shows it in the 'New like' / 'It's a
 * match' modal (photo, name, fictional label, 'start a conversation'); a click closes it; the likes are
 * reloaded 500 ms after it opens (SPEC §9). LIK-04: with `?t=N` in the address, the like pop-up appears
 * after N seconds with the newest like, `t` is removed from the address, and pressing the pop-up opens
 * that profile.
 * UX-01: a match made while the page is open comes as a live 'match' event (the stream, or the swipe
 * game's answer in this tab) and is shown at once: `auto-like.php?member=` claims that member's like, so
 * it is shown once, in one tab, and not again on the next page. One modal at a time.
 * LAY-02: none of it opens while the entry warning is on the page (entry-warning.ts).
 */
import { api } from '../client/api';
import { afterEntryWarning } from '../client/entry-warning';
import { onLiveEvent } from '../client/live';
import { loadLikes, type Likes } from '../stores/likes';

export const LIKES_RELOAD_DELAY_MS = 500;
/** The longest `t` honoured (an hour); anything else is ignored. */
const MAX_POPUP_DELAY_S = 3600;

/** The pop-up delay in ms from the query `t` (whole seconds), or null when absent or not a sane number. */
export function popupDelay(search: string): number | null {
  const value = new URLSearchParams(search).get('t');
  if (value === null || !/^\d{1,4}$/.test(value)) return null;
  const seconds = Number(value);
  return seconds <= MAX_POPUP_DELAY_S ? seconds * 1000 : null;
}

/** The address without the `t` parameter (path, remaining query and hash). */
export function withoutDelayParam(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('t');
  return url.pathname + url.search + url.hash;
}

/** The like the pop-up shows: the newest new like, else the newest like; null when none. */
export function popupLike(likes: Pick<Likes, 'profiles'> | null): Likes['profiles'][number] | null {
  const profiles = likes?.profiles ?? [];
  return profiles.find((p) => p.like_new) ?? profiles[0] ?? null;
}

/** `{name}` in a rendered text template replaced by the member's name. */
export function fill(template: string | undefined, name: string): string {
  return (template ?? '').replace('{name}', name);
}

const $ = <T extends Element>(root: ParentNode, selector: string) => root.querySelector<T>(selector);

/** Shows the next like not yet shown, or `from`'s like (a live match), when there is one. */
async function showAutoLike(win: Window, dialog: HTMLDialogElement, from?: number): Promise<void> {
  const { data } = await api.GET('/api/auto-like.php', from === undefined ? {} : { params: { query: { member: String(from) } } });
  if (!data) return;
  const kind = data.match ? 'match' : 'like';
  $<HTMLElement>(dialog, '[data-like-title]')!.textContent = dialog.dataset[kind === 'match' ? 'titleMatch' : 'titleLike'] ?? '';
  $<HTMLElement>(dialog, '[data-like-text]')!.textContent = fill(dialog.dataset[kind === 'match' ? 'textMatch' : 'textLike'], data.name);
  $<HTMLElement>(dialog, '[data-like-fictional]')!.hidden = !data.fictional;
  const photo = $<HTMLImageElement>(dialog, '[data-like-photo]')!;
  photo.src = data.main_image ? data.main_image.match : '/no-photo.svg';
  photo.alt = data.name;
  $<HTMLAnchorElement>(dialog, '[data-like-chat]')!.href = `/members/${data.id}/chat`;
  $<HTMLAnchorElement>(dialog, '[data-like-profile]')!.href = `/likes/m/${data.id}`;
  dialog.dataset.kind = kind;
  dialog.showModal();
  win.setTimeout(() => void loadLikes(), LIKES_RELOAD_DELAY_MS);
}

/** Resolves once `dialog` is closed (at once when it is). */
const closed = (dialog: HTMLDialogElement) => new Promise<void>((done) => (dialog.open ? dialog.addEventListener('close', () => done(), { once: true }) : done()));

function schedulePopup(win: Window, popup: HTMLElement): void {
  const delay = popupDelay(win.location.search);
  if (delay === null) return;
  win.setTimeout(async () => {
    win.history.replaceState(win.history.state, '', withoutDelayParam(win.location.href));
    const like = popupLike(await loadLikes());
    if (!like) return;
    $<HTMLAnchorElement>(popup, '[data-like-popup-open]')!.href = `/likes/m/${like.id}`;
    const text = $<HTMLElement>(popup, '[data-like-popup-text]')!;
    text.textContent = fill(text.dataset.template, like.name);
    popup.hidden = false;
  }, delay);
}

export function startLikeModals(win: Window): void {
  const dialog = $<HTMLDialogElement>(win.document, '[data-like-modal]');
  const popup = $<HTMLElement>(win.document, '[data-like-popup]');
  afterEntryWarning(win.document, () => {
    if (popup) schedulePopup(win, popup);
    if (!dialog) return;
    // A click anywhere but on a link closes the modal (LIK-03).
    dialog.addEventListener('click', (event) => {
      if (!(event.target as Element).closest('a')) dialog.close();
    });
    let queue = Promise.resolve();
    const show = (from?: number) => {
      queue = queue
        .then(() => closed(dialog))
        .then(() => showAutoLike(win, dialog, from))
        .catch(() => undefined);
    };
    // The page was rendered with a like waiting to be shown.
    if (dialog.dataset.autoLike !== undefined) show();
    onLiveEvent((event) => {
      const member = event.data.member;
      if (event.type === 'match' && typeof member === 'number') show(member);
    });
  });
}
