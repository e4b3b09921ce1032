/**
 * An open-loop load generator (issue 26): requests leave at a constant arrival rate whatever the server
 * does, and each one's latency is counted from the time it was SCHEDULED to leave, not from when it
 * left. A closed loop (autocannon's default) sends the next request only when an answer came back, so a
 * stalled server is asked less and its stall is counted once instead of for every request that should
 * have gone out meanwhile ("coordinated omission"). Here a request that waits for a free connection,
 * or for this process's event loop, has that wait in its latency: it is what a user arriving at that
 * moment would have waited.
 *
 * Connections: a keep-alive pool of at most `connections` sockets (opened during a warm-up at the same
 * rate, so the measured run does not pay their handshakes); when all are busy a request queues for one
 * and its latency grows, as it should.
 */
import { Agent, request } from 'node:http';

export interface OpenLoopResult {
  /** Requests per second asked for, and answered per second of the run. */
  rate: number;
  achieved: number;
  sent: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  errors: number;
  non2xx: number;
  /** The largest delay between a request's scheduled and actual send (this process's own lateness, ms). */
  maxSendLag: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `seconds` at `rate` requests a second against `url` and answers the latency figures. */
async function phase(url: URL, headers: Record<string, string>, rate: number, seconds: number, agent: Agent): Promise<OpenLoopResult> {
  const interval = 1000 / rate;
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  let maxSendLag = 0;
  let done = 0;
  const start = performance.now();
  let next = 0; // index of the next request to send
  return new Promise((resolve) => {
    const finish = () => {
      const elapsed = (performance.now() - start) / 1000;
      latencies.sort((a, b) => a - b);
      resolve({
        rate,
        achieved: latencies.length / elapsed,
        sent: total,
        p50: percentile(latencies, 50),
        p90: percentile(latencies, 90),
        p99: percentile(latencies, 99),
        p999: percentile(latencies, 99.9),
        max: latencies.at(-1) ?? NaN,
        errors,
        non2xx,
        maxSendLag,
      });
    };
    const send = (scheduled: number) => {
      maxSendLag = Math.max(maxSendLag, performance.now() - scheduled);
      const req = request(url, { agent, headers }, (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx++;
        res.on('data', () => {});
        res.on('end', () => {
          latencies.push(performance.now() - scheduled);
          if (++done === total) finish();
        });
      });
      req.on('error', () => {
        errors++;
        if (++done === total) finish();
      });
      req.end();
    };
    // Sends every request whose time has come, then sleeps until the next one's (timers are ~1 ms
    // coarse; a request sent late still counts from its scheduled time).
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) send(start + next++ * interval);
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    tick();
  });
}

/**
 * A warm-up of 2 s at the rate (sockets opened, the server's code hot), then the measured run.
 */
export async function openLoop(target: string, headers: Record<string, string>, rate: number, seconds: number, connections: number): Promise<OpenLoopResult> {
  const url = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: 'lifo' });
  try {
    await phase(url, headers, rate, 2, agent);
    return await phase(url, headers, rate, seconds, agent);
  } finally {
    agent.destroy();
  }
}
