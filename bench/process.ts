/** What the benchmarks share: waiting for a child process (the app, the baseline) to print its address, and the CPU processes used. */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import postgres from 'postgres';

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

/**
 * CPU time (user + system, ms) used so far by `pid` and its descendants, from /proc (Linux); null where
 * /proc is not there. Under a load the machine shares with its load generator and database, latency
 * moves with whatever else runs; the CPU a request costs does not, so the benchmarks print both.
 */
export function treeCpuMs(rootPids: readonly number[]): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const parents = new Map<number, number>();
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields start after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      times.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++) if (rootPids.includes(p)) return true;
    return false;
  };
  let total = 0;
  for (const [pid, ms] of times) if (inTree(pid)) total += ms;
  return total;
}

/** The PostgreSQL server's main process when it runs on this machine (its backends are its children); null otherwise. */
export async function localPostgresPid(url: string): Promise<number | null> {
  if (!/^postgres(ql)?:/.test(url) || !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) return null;
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await client<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const stat = readFileSync(`/proc/${row!.pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

/** CPU time (user + system, ms) used so far by one process, from /proc (Linux); null where it is not readable (gone, or no /proc). */
export function pidCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return null;
  }
}
