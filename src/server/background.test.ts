/** Background work after the answer (SEC-11): starts after the current turn, failures are logged, idle() waits. */
import { describe, expect, it } from 'vitest';
import { BackgroundTasks } from './background';

describe('BackgroundTasks', () => {
  it('SEC-11 a task starts after the current turn, its failure is logged and never thrown, and idle() waits for all', async () => {
    const logged: unknown[] = [];
    const tasks = new BackgroundTasks({ error: (obj: unknown) => void logged.push(obj) } as never);
    const order: string[] = [];
    const ok = tasks.run('ok', async () => {
      order.push('ok');
      return 42;
    });
    const failing = tasks.run('failing', async () => {
      order.push('failing');
      throw new Error('smtp down');
    });
    order.push('answered');
    expect(tasks.size).toBe(2);
    await tasks.idle();
    expect(order).toEqual(['answered', 'ok', 'failing']);
    expect(await ok).toBe(42);
    expect(await failing).toBeUndefined();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ task: 'failing' });
    expect(tasks.size).toBe(0);
  });

  it('SEC-11 a task waits for the answer to have gone out (`after`)', async () => {
    const tasks = new BackgroundTasks({ error: () => undefined } as never);
    let sent!: () => void;
    const responseDone = new Promise<void>((resolve) => (sent = resolve));
    const order: string[] = [];
    const task = tasks.run('mail', async () => void order.push('mail'), responseDone);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    order.push('answer sent');
    sent();
    await task;
    expect(order).toEqual(['answer sent', 'mail']);
  });
});
