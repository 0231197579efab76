// Operations: the load balancer's health check.
import { defineRoute } from '../../route';

/** GET /health/: 200 when this instance can reach its database (D2: answered even when the server is busy). */
const health = defineRoute({
  method: 'GET',
  path: '/health/',
  access: 'public',
  async handler({ ctx }) {
    await ctx.db.ping(); // D2: not queued behind requests, so a busy server still answers its health check
    return { status: 'ok' };
  },
});

export const systemRoutes = [health];
