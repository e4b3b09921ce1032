import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_REFRESH_DELAY_MS, PUSH_REFRESH_INTERVAL_MS, REFRESH_INTERVAL_MS, startPeriodicRefresh, type Clock, type RefreshTask } from './refresh';

const clock: Clock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('periodic refresh', () => {
  it('CLI-08 first run 5 s after start, then every 60 s', async () => {
    expect([FIRST_REFRESH_DELAY_MS, REFRESH_INTERVAL_MS, PUSH_REFRESH_INTERVAL_MS]).toEqual([5_000, 60_000, 300_000]);
    const task = vi.fn(async () => undefined);
    startPeriodicRefresh({ clock, tasks: [task], isPushSubscribed: () => false });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(task).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(3);
  });

  it('CLI-08 every 300 s while push is subscribed, checked before each next run', async () => {
    let push = true;
    const task = vi.fn(async () => undefined);
    startPeriodicRefresh({ clock, tasks: [task], isPushSubscribed: () => push });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(240_000);
    expect(task).toHaveBeenCalledTimes(2);
    push = false; // the run at 305 s already scheduled 300 s; the one after that uses 60 s
    await vi.advanceTimersByTimeAsync(300_000);
    expect(task).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(4);
  });

  it('CLI-08 runs user, chats and likes reloads; one failing does not stop the others or the schedule', async () => {
    const user = vi.fn(async () => {
      throw new Error('offline');
    });
    const chats = vi.fn((): Promise<unknown> => {
      throw new Error('sync failure');
    });
    const likes = vi.fn(async () => undefined);
    const errors: unknown[] = [];
    startPeriodicRefresh({ clock, tasks: [user, chats, likes], isPushSubscribed: () => false, onTaskError: (e) => errors.push(e) });
    await vi.advanceTimersByTimeAsync(5_000);
    expect([user, chats, likes].map((t) => t.mock.calls.length)).toEqual([1, 1, 1]);
    expect(errors).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect([user, chats, likes].map((t) => t.mock.calls.length)).toEqual([2, 2, 2]);
  });

  it('CLI-08 tasks added to the list later take part in the next run', async () => {
    const tasks: RefreshTask[] = [];
    const late = vi.fn(async () => undefined);
    startPeriodicRefresh({ clock, tasks, isPushSubscribed: () => false });
    await vi.advanceTimersByTimeAsync(5_000);
    tasks.push(late);
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('CLI-08 stop ends the schedule, before or after the first run', async () => {
    const early = vi.fn(async () => undefined);
    const stopEarly = startPeriodicRefresh({ clock, tasks: [early], isPushSubscribed: () => false });
    stopEarly();
    const later = vi.fn(async () => undefined);
    const stopLater = startPeriodicRefresh({ clock, tasks: [later], isPushSubscribed: () => false });
    await vi.advanceTimersByTimeAsync(5_000);
    stopLater();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(early).not.toHaveBeenCalled();
    expect(later).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('CLI-08 does not pile up runs while a slow run is still busy', async () => {
    let release: () => void = () => undefined;
    const slow = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    startPeriodicRefresh({ clock, tasks: [slow], isPushSubscribed: () => false });
    await vi.advanceTimersByTimeAsync(5_000 + 60_000);
    expect(slow).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(slow).toHaveBeenCalledTimes(2);
  });
});
