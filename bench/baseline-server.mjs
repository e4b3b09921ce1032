// The baseline: a plain node:http server answering with fixed bytes and headers, nothing else.
//   node baseline-server.mjs <file> [content-type]      every path gets the file
//   node baseline-server.mjs <routes.json>              {"/path": {"file", "type", "encoding"?}, …}
// With "encoding" the bytes are sent as they are with that Content-Encoding (already compressed).
//
// As a yardstick for the harness itself (bench/members.ts), two settings make it do what the app's
// work costs, and nothing else:
//   BASELINE_CPU_MS=<ms>      each request first spends that much CPU, half before and half after one
//                             turn of the event loop (as a page that waits for one query)
//   BASELINE_PROCESSES=<n>    n processes share the port through node:cluster, as the app's do
// It prints its port once all its processes listen.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const cpuMs = Number(process.env.BASELINE_CPU_MS ?? 0);
const processes = Math.max(1, Number(process.env.BASELINE_PROCESSES ?? 1));

if (cluster.isPrimary && processes > 1) {
  let listening = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on('message', (port) => {
      if (++listening === processes) process.stdout.write(`${port}\n`);
    });
  }
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  serve();
}

function spend(ms) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function serve() {
  const routes = new Map();
  if (process.argv[2].endsWith('.json')) {
    for (const [path, route] of Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')))) {
      routes.set(path, { body: readFileSync(route.file), type: route.type, encoding: route.encoding });
    }
  } else {
    routes.set('*', { body: readFileSync(process.argv[2]), type: process.argv[3] ?? 'text/html; charset=utf-8' });
  }
  const answer = (req, res) => {
    const route = routes.get(req.url) ?? routes.get('*');
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const headers = { 'content-type': route.type, 'content-length': route.body.length };
    if (route.encoding) headers['content-encoding'] = route.encoding;
    res.writeHead(200, headers);
    res.end(route.body);
  };
  const server = createServer(
    cpuMs > 0
      ? (req, res) => {
          spend(cpuMs / 2);
          setImmediate(() => {
            spend(cpuMs / 2);
            answer(req, res);
          });
        }
      : answer,
  );
  // A worker's port 0 is the port the cluster shares (the first worker's choice).
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    if (cluster.isWorker) process.send(port);
    else process.stdout.write(`${port}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
