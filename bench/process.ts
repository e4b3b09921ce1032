/** What the benchmarks share: waiting for a child process (the app, the baseline) to print its address. */
import type { ChildProcess } from 'node:child_process';

/** Resolves with the first capture group (or the whole match) of the first stdout text matching `pattern`. */
export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = pattern.exec(buffer);
      if (m) {
        child.stdout?.off('data', onData);
        resolve(m[1] ?? m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before it was ready:\n${buffer.slice(-2000)}`)));
  });
}
