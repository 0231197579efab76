// The floor the API is compared with: a bare node:http handler that answers each path with the exact
// status, headers and body captured from the real server (Node adds Date, Connection and Keep-Alive
// itself, as it does for the real one). No routing, no auth, no database, no logging.
//   node bench/lib/bare-server.mjs answers.json     (PORT and HOST from the environment)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const KEEP_ALIVE_TIMEOUT_MS = 65_000; // as the API server, so the Keep-Alive header is the same bytes too
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const file = process.argv[2];
if (!file) throw new Error('usage: bare-server.mjs answers.json');
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8'))).map(([p, a]) => {
    const headers = [];
    for (let i = 0; i < a.rawHeaders.length; i += 2) {
      if (!ADDED_BY_NODE.has(a.rawHeaders[i].toLowerCase())) headers.push(a.rawHeaders[i], a.rawHeaders[i + 1]);
    }
    return [p, { status: a.status, headers, body: Buffer.from(a.body, 'base64') }];
  }),
);
const notFound = Buffer.from('{"detail":"No such endpoint","code":"not_found"}');

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const answer = answers.get(q === -1 ? url : url.slice(0, q));
  if (!answer) {
    res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': notFound.length });
    res.end(notFound);
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
// The floor of the fair-share bench's floods: with EVENT_LOOP_REPORT=1, the API server's protocol
// (server/event-loop-report.ts): on SIGUSR2 one line with the event-loop delay since the last one.
if (process.env.EVENT_LOOP_REPORT === '1') {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () =>
    setTimeout(() => {
      const n = histogram.count;
      console.log(
        JSON.stringify({
          event_loop_delay_ms: { max: n ? ms(histogram.max) : 0, p99: n ? ms(histogram.percentile(99)) : 0, mean: n ? ms(histogram.mean) : 0, samples: n },
        }),
      );
      histogram.reset();
    }, 20),
  );
}
const host = process.env.HOST ?? '127.0.0.1';
server.listen(Number(process.env.PORT ?? 0), host, () => {
  const addr = server.address();
  console.log(`bare server listening on http://${host}:${typeof addr === 'object' && addr ? addr.port : '?'}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
