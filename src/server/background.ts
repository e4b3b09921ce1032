/**
 * Work a request starts but does not wait for (a reset mail, SEC-11): the answer must not depend on
 * how long it takes, or even on whether there is any. A task starts once `after` has settled (the
 * request's `responseDone`, so it does not compete with the answer for the database or the CPU), and
 * never before the next turn of the event loop; its failure is logged (never thrown at a request that
 * has already been answered), and the app waits for the tasks still running before it closes the
 * database. Tests await `idle()` instead of sleeping.
 */
import type { Logger } from './logger';

export class BackgroundTasks {
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly log: Pick<Logger, 'error'>) {}

  /**
   * Starts `task` once `after` has settled, and not before the next turn of the event loop, and returns
   * its outcome: the task's value, or `undefined` when it failed (the error is logged with `name`). The
   * returned promise never rejects.
   */
  run<T>(name: string, task: () => Promise<T>, after: Promise<unknown> = Promise.resolve()): Promise<T | undefined> {
    const done = after
      .catch(() => undefined)
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(task)
      .catch((err: unknown) => {
        this.log.error({ err, task: name }, 'background task failed');
        return undefined;
      });
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
    return done;
  }

  /** How many tasks are still running. */
  get size(): number {
    return this.running.size;
  }

  /** Resolves once every task started so far, and every task those started, has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
