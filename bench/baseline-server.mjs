// The baseline: a plain node:http server answering with fixed bytes and headers, nothing else.
//   node baseline-server.mjs <file> [content-type]      every path gets the file
//   node baseline-server.mjs <routes.json>              {"/path": {"file", "type", "encoding"?}, …}
// With "encoding" the bytes are sent as they are with that Content-Encoding (already compressed).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const routes = new Map();
if (process.argv[2].endsWith('.json')) {
  for (const [path, route] of Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')))) {
    routes.set(path, { body: readFileSync(route.file), type: route.type, encoding: route.encoding });
  }
} else {
  routes.set('*', { body: readFileSync(process.argv[2]), type: process.argv[3] ?? 'text/html; charset=utf-8' });
}
const server = createServer((req, res) => {
  const route = routes.get(req.url) ?? routes.get('*');
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const headers = { 'content-type': route.type, 'content-length': route.body.length };
  if (route.encoding) headers['content-encoding'] = route.encoding;
  res.writeHead(200, headers);
  res.end(route.body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
