/**
 * A countdown in whole seconds (TB-01: the time bonus ticks every second), without the DOM: the server
 * renders its first text with formatCountdown, the browser's script (src/client/time-bonus.ts) ticks
 * with startCountdown, and the unit tests drive it with fake timers.
 */
/** SPEC §9: the time bonus ticks every second. */
export const TICK_MS = 1000;

/** What the countdown needs of the browser; tests pass fake timers. */
export interface CountdownTimers {
  now(): number;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
}

export interface Countdown {
  /** Whole seconds left now. */
  left(): number;
  /** Stops ticking without calling onEnd. */
  stop(): void;
}

/** `h:mm:ss` (hours unpadded: the bonus lasts at most 4 hours), e.g. 3:59:58, 0:00:09. */
export function formatCountdown(totalSeconds: number): string {
  const total = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/**
 * Counts `secondsLeft` down to zero: `onTick(left)` at once and then every second, `onEnd()` once at
 * zero, after which nothing ticks any more. The time left is worked out from the deadline on every tick,
 * so late timers (a background tab) never make it drift.
 */
export function startCountdown(options: { secondsLeft: number; timers: CountdownTimers; onTick: (left: number) => void; onEnd: () => void }): Countdown {
  const { timers, onTick, onEnd } = options;
  const deadline = timers.now() + Math.max(0, options.secondsLeft) * 1000;
  const left = () => Math.max(0, Math.ceil((deadline - timers.now()) / 1000));
  let id: unknown = null;
  let done = false;
  const stop = () => {
    if (id !== null) timers.clearInterval(id);
    id = null;
    done = true;
  };
  const tick = () => {
    if (done) return;
    const now = left();
    onTick(now);
    if (now === 0) {
      stop();
      onEnd();
    }
  };
  tick();
  if (!done) id = timers.setInterval(tick, TICK_MS);
  return { left, stop };
}
