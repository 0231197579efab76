// `npm run dev` (DEV_RELOAD=1): GET /esbuild is an event stream that says `change` whenever the app is
// rebuilt (build.mjs rewrites dist/meta.json); the dev page reloads itself on it.
import { unwatchFile, watchFile } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { BASE_SECURITY_HEADERS } from './http';

export const DEV_RELOAD_PATH = '/esbuild';
const POLL_MS = 250;
const KEEPALIVE_MS = 15_000;

export function createDevReload(distDir: string) {
  const clients = new Set<ServerResponse>();
  const meta = path.join(distDir, 'meta.json');
  const onChange = (now: { mtimeMs: number }, before: { mtimeMs: number }) => {
    if (now.mtimeMs === before.mtimeMs) return;
    for (const res of clients) res.write('event: change\ndata: {}\n\n');
  };
  watchFile(meta, { interval: POLL_MS }, onChange);
  const keepalive = setInterval(() => {
    for (const res of clients) res.write(': keepalive\n\n');
  }, KEEPALIVE_MS).unref();

  return {
    handle(req: IncomingMessage, res: ServerResponse): void {
      res.writeHead(200, {
        ...BASE_SECURITY_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    close(): void {
      unwatchFile(meta, onChange);
      clearInterval(keepalive);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
