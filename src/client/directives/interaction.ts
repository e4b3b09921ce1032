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
 */
import type { ClientDirective } from 'astro';

export interface InteractionOptions {
  /** CSS selector of the controls that bring the island to life. */
  selector: string;
  /** Only arm while this media query matches. */
  media?: string;
}

/** The event an island using this directive dispatches (bubbling, from inside itself) once it listens. */
export const ISLAND_READY_EVENT = 'island-ready';

const WARM_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

const interaction: ClientDirective = (load, options, el) => {
  const { selector, media } = options.value as unknown as InteractionOptions;
  let started = false;
  let ready = false;
  let held: HTMLElement | null = null;

  const controlOf = (event: Event): HTMLElement | null => {
    const target = event.target;
    return target instanceof Element ? (target.closest(selector) as HTMLElement | null) : null;
  };

  const disarm = () => {
    for (const type of WARM_EVENTS) document.removeEventListener(type, onWarm, true);
    document.removeEventListener('click', onClick, true);
  };

  const replay = () => {
    const control = held;
    held = null;
    control?.click();
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
    if (controlOf(event)) start();
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
