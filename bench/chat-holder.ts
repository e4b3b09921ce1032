/**
 * A client process of the chat benchmark (bench/chat.ts): holds idle live streams open the way a browser
 * does (GET /api/events.php with the member's session cookie, one socket each) and does nothing else, so
 * the client side costs little. Run by plain `node` (type stripping), forked with an IPC channel:
 *
 *   parent → { type: 'open', port, host, tokens, until }   opens one stream per token, `CONCURRENCY` at a
 *                                                   time, each counted once its 'ready' event arrived;
 *                                                   none started after `until` (epoch ms)
 *   child  → { type: 'opened', opened, failed, reasons }
 *   parent → { type: 'close' }                      ends every stream and exits
 */
import { request, type ClientRequest } from 'node:http';

const CONCURRENCY = 48;
const held: ClientRequest[] = [];

interface Open {
  type: 'open';
  port: number;
  host: string;
  tokens: string[];
  until: number;
}

function openOne(port: number, host: string, token: string): Promise<string | null> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (why: string | null) => {
      if (settled) return;
      settled = true;
      resolve(why);
    };
    const req = request({ host: '127.0.0.1', port, path: '/api/events.php', agent: false, headers: { host, cookie: `lang=en; session=${token}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        done(`HTTP ${res.statusCode}`);
        res.resume();
        return;
      }
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString('latin1');
        if (seen.includes('event: ready')) {
          // From here on the stream is idle: its bytes (heartbeats, counters) are read and dropped.
          res.off('data', onData);
          res.resume();
          seen = '';
          done(null);
        }
      };
      res.on('data', onData);
      res.on('end', () => done('ended before ready'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    req.end();
    held.push(req);
  });
}

async function openAll(message: Open): Promise<void> {
  let next = 0;
  let opened = 0;
  let failed = 0;
  const reasons: Record<string, number> = {};
  const worker = async () => {
    while (next < message.tokens.length && Date.now() < message.until) {
      const token = message.tokens[next++]!;
      const why = await openOne(message.port, message.host, token);
      if (why === null) opened++;
      else {
        failed++;
        reasons[why] = (reasons[why] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const late = message.tokens.length - opened - failed;
  if (late > 0) reasons['not started: the time for opening was up'] = late;
  process.send?.({ type: 'opened', opened, failed, reasons });
}

process.on('message', (message: Open | { type: 'close' }) => {
  if (message.type === 'open') void openAll(message);
  if (message.type === 'close') {
    for (const req of held) req.destroy();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
