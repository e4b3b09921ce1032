/**
 * CLI-08: for a signed-in member the user, chats and likes are reloaded periodically: first 5 s after
 * start, then every 60 s, or every 300 s while push is subscribed (pushes bring the news then).
 */

/** The timer functions the schedule uses; inject a fake in tests. Call them as methods of the object. */
export interface Clock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** One reload step (user refresh, chats reload, likes reload). */
export type RefreshTask = () => Promise<unknown>;

export const FIRST_REFRESH_DELAY_MS = 5_000;
export const REFRESH_INTERVAL_MS = 60_000;
export const PUSH_REFRESH_INTERVAL_MS = 300_000;

export interface PeriodicRefreshOptions {
  clock: Clock;
  /** Read at every run, so tasks pushed into the same array later take part from then on. */
  tasks: readonly RefreshTask[];
  /** Asked before each next run is scheduled: true → 300 s, false → 60 s. */
  isPushSubscribed: () => boolean;
  /** Told about a task that failed; the other tasks and the schedule go on regardless. */
  onTaskError?: (error: unknown) => void;
}

/** The pause before the next run, by push state. */
export function refreshInterval(pushSubscribed: boolean): number {
  return pushSubscribed ? PUSH_REFRESH_INTERVAL_MS : REFRESH_INTERVAL_MS;
}

/**
 * Starts the schedule and returns the function that stops it. The next run is scheduled when a run
 * starts, so the pace stays even however long the requests take; a run whose predecessor is still
 * busy is skipped rather than piled up. Tasks of one run go in parallel; one failing (throwing or
 * rejecting) does not stop the others.
 */
export function startPeriodicRefresh(options: PeriodicRefreshOptions): () => void {
  const { clock, tasks, isPushSubscribed, onTaskError } = options;
  let handle: unknown;
  let stopped = false;
  let busy = false;

  const schedule = (ms: number) => {
    handle = clock.setTimeout(run, ms);
  };

  function run(): void {
    if (stopped) return;
    schedule(refreshInterval(isPushSubscribed()));
    if (busy) return;
    busy = true;
    const runs = tasks.map((task) => Promise.resolve().then(task));
    void Promise.allSettled(runs).then((results) => {
      busy = false;
      for (const result of results) if (result.status === 'rejected') onTaskError?.(result.reason);
    });
  }

  schedule(FIRST_REFRESH_DELAY_MS);
  return () => {
    stopped = true;
    clock.clearTimeout(handle);
  };
}
