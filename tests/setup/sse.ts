/**
 * Reads a text/event-stream answer (the live stream, /api/events.php) event by event, for the tests and
 * the chat benchmark: blocks end with a blank line; comment lines (heartbeats) and blocks without an
 * `event:` field are skipped; `data` is the raw text of the data line.
 */
import type { IncomingMessage } from 'node:http';

export interface SseEvent {
  id: string;
  event: string;
  data: string;
}

export function onSseEvents(res: IncomingMessage, handle: (event: SseEvent) => void): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((l) => !l.startsWith(':') && l.includes(': '))
          .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
      );
      if (fields.event) handle({ id: fields.id ?? '', event: fields.event, data: fields.data ?? '' });
    }
  });
}
