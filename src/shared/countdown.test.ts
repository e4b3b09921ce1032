import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown, startCountdown, TICK_MS, type CountdownTimers } from './countdown';

const fakeTimers = (): CountdownTimers => ({
  now: () => Date.now(),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
});

describe('time bonus countdown (TB-01)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-25T12:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('TB-01 shows the time left as h:mm:ss', () => {
    expect(formatCountdown(4 * 3600)).toBe('4:00:00');
    expect(formatCountdown(4 * 3600 - 2)).toBe('3:59:58');
    expect(formatCountdown(61)).toBe('0:01:01');
    expect(formatCountdown(9)).toBe('0:00:09');
    expect(formatCountdown(0)).toBe('0:00:00');
    expect(formatCountdown(-5)).toBe('0:00:00');
    expect(formatCountdown(12.9)).toBe('0:00:12');
  });

  it('TB-01 ticks at once and then every second, one second less each time', () => {
    const ticks: number[] = [];
    const onEnd = vi.fn();
    startCountdown({ secondsLeft: 3 * 3600, timers: fakeTimers(), onTick: (left) => ticks.push(left), onEnd });
    expect(ticks).toEqual([10_800]);
    vi.advanceTimersByTime(TICK_MS);
    expect(ticks).toEqual([10_800, 10_799]);
    vi.advanceTimersByTime(5 * TICK_MS);
    expect(ticks.slice(-1)).toEqual([10_794]);
    expect(ticks).toHaveLength(7);
    expect(onEnd).not.toHaveBeenCalled();
  });

  it('TB-01 clears at zero: onEnd once, and no tick after it', () => {
    const ticks: number[] = [];
    const onEnd = vi.fn();
    startCountdown({ secondsLeft: 3, timers: fakeTimers(), onTick: (left) => ticks.push(left), onEnd });
    vi.advanceTimersByTime(3 * TICK_MS);
    expect(ticks).toEqual([3, 2, 1, 0]);
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60 * TICK_MS);
    expect(ticks).toEqual([3, 2, 1, 0]);
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('TB-01 counts from the deadline, so a late timer (a background tab) does not drift', () => {
    const ticks: number[] = [];
    const timers = fakeTimers();
    let run: (() => void) | null = null;
    // A timer that fires only when told: the browser throttled it.
    startCountdown({ secondsLeft: 100, timers: { ...timers, setInterval: (fn) => ((run = fn), 1), clearInterval: () => undefined }, onTick: (left) => ticks.push(left), onEnd: () => undefined });
    vi.setSystemTime(Date.now() + 61_500);
    run!();
    expect(ticks).toEqual([100, 39]);
  });

  it('TB-01 nothing left: ends at once and never starts a timer', () => {
    const onTick = vi.fn();
    const onEnd = vi.fn();
    startCountdown({ secondsLeft: 0, timers: fakeTimers(), onTick, onEnd });
    expect(onTick).toHaveBeenCalledWith(0);
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('TB-01 stop() ends the ticking without calling onEnd', () => {
    const onTick = vi.fn();
    const onEnd = vi.fn();
    const countdown = startCountdown({ secondsLeft: 10, timers: fakeTimers(), onTick, onEnd });
    vi.advanceTimersByTime(2 * TICK_MS);
    expect(countdown.left()).toBe(8);
    countdown.stop();
    vi.advanceTimersByTime(20 * TICK_MS);
    expect(onTick).toHaveBeenCalledTimes(3);
    expect(onEnd).not.toHaveBeenCalled();
  });
});
