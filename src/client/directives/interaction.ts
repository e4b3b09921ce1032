/**
 * `client:interaction` (PERF-02, docs/decisions/021-render-cache-and-lazy-islands.md): an island whose
 * code — React and all — loads only when the visitor first reaches for one of its controls, instead of
 * on idle. Used by the signup modal: on the landing page that keeps ~66 kB (gzip) of React off every
 * visit that never opens it.
 *
 *   <SignupModal client:interaction={{ selector: 'a[data-signup-entry]', media: '(min-width: 992px)' }} />
 *
 * - Loading starts on the first pointer over, pointer down, touch or focus on a control matching
 *   `selector` (the pointer usually rests on a button for 100–300 ms before the click).
 * - A click that comes before the island is ready is held (its default action prevented) and played
 *   again on the same control once the island said it listens: the island dispatches a bubbling
 *   `island-ready` event from inside itself. So the first click opens the modal, never a lost click.
 * - Clicks with a modifier or another button keep their default (open in a new tab).
 * - If the code cannot be loaded, the held click is played again without the hold: the control's own
 *   default (a link to /signup) happens, as it does without JavaScript.
 * - With `media`, nothing is armed while the query does not match (phones follow the plain link).
 * - With `warm`, loading starts on the first pointer, touch or focus on anything matching it (the held
 *   click stays limited to `selector`).
 * - With `press`, a drag begun on a matching element before the island listened is handed over to it
 *   if the pointer is still down (a synthetic `pointerdown` where the press began).
 */
import type { ClientDirective } from 'astro';
import { ISLAND_READY_EVENT } from '../../shared/island-ready';

export interface InteractionOptions {
  /** CSS selector of the controls that bring the island to life; a click on one is held until it listens. */
  selector: string;
  /**
   * CSS selector of what starts loading when reached (default: `selector`). The tinderswipe deck warms on
   * the first pointer, touch or focus anywhere on the page (`body`), so the code is there by the time
   * the visitor's finger reaches the card, and a page nobody touches loads none of it.
   */
  warm?: string;
  /**
   * CSS selector of what a press may start a gesture on (the swipe card's drag). A pointer that went
   * down on one before the island listened, and is still down when it does, is handed to it: the
   * island gets a `pointerdown` at the spot where the press began, so the drag goes on under the finger
   * instead of being lost.
   */
  press?: string;
  /** Only arm while this media query matches. */
  media?: string;
}

/** The event an island using this directive dispatches (bubbling, from inside itself) once it listens. */
export { ISLAND_READY_EVENT };

const WARM_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;
const PRESS_END_EVENTS = ['pointerup', 'pointercancel'] as const;

const interaction: ClientDirective = (load, options, el) => {
  const { selector, media, warm = selector, press } = options.value as unknown as InteractionOptions;
  let started = false;
  let ready = false;
  let held: HTMLElement | null = null;
  let pressed: { target: Element; init: PointerEventInit } | null = null;

  const matching = (event: Event, which: string): HTMLElement | null => {
    const target = event.target;
    return target instanceof Element ? (target.closest(which) as HTMLElement | null) : null;
  };
  const controlOf = (event: Event) => matching(event, selector);

  const disarm = () => {
    for (const type of WARM_EVENTS) document.removeEventListener(type, onWarm, true);
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('pointerdown', onPress, true);
    for (const type of PRESS_END_EVENTS) document.removeEventListener(type, onPressEnd, true);
  };

  const replay = () => {
    const control = held;
    held = null;
    control?.click();
    const press = pressed;
    pressed = null;
    if (press?.target.isConnected) press.target.dispatchEvent(new PointerEvent('pointerdown', press.init));
  };

  const start = () => {
    if (started) return;
    started = true;
    load()
      .then((hydrate) => hydrate())
      .catch(() => {
        disarm();
        replay();
      });
  };

  function onWarm(event: Event) {
    if (matching(event, warm)) start();
  }

  function onPress(event: PointerEvent) {
    const target = event.target;
    if (ready || !press || !(target instanceof Element) || !target.closest(press)) return;
    const { pointerId, pointerType, isPrimary, clientX, clientY, screenX, screenY, button, buttons } = event;
    pressed = { target, init: { pointerId, pointerType, isPrimary, clientX, clientY, screenX, screenY, button, buttons, bubbles: true, cancelable: true, composed: true } };
  }

  function onPressEnd(event: PointerEvent) {
    if (pressed?.init.pointerId === event.pointerId) pressed = null;
  }

  function onClick(event: MouseEvent) {
    const control = controlOf(event);
    if (!control || ready || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // The island is not listening yet: hold the click and play it again once it is.
    event.preventDefault();
    held = control;
    start();
  }

  el.addEventListener(
    ISLAND_READY_EVENT,
    () => {
      ready = true;
      disarm();
      replay();
    },
    { once: true },
  );

  const arm = () => {
    for (const type of WARM_EVENTS) document.addEventListener(type, onWarm, { capture: true, passive: true });
    document.addEventListener('click', onClick, true);
    if (press) {
      document.addEventListener('pointerdown', onPress, { capture: true, passive: true });
      for (const type of PRESS_END_EVENTS) document.addEventListener(type, onPressEnd, { capture: true, passive: true });
    }
  };

  if (!media || window.matchMedia(media).matches) {
    arm();
    return;
  }
  const query = window.matchMedia(media);
  const onChange = () => {
    if (!query.matches) return;
    query.removeEventListener('change', onChange);
    arm();
  };
  query.addEventListener('change', onChange);
};

export default interaction;
