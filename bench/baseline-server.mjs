// The baseline: a plain node:http server answering every request with the same bytes and headers.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const type = process.argv[3] ?? 'text/html; charset=utf-8';
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
