// D52: when a session was last used, and from where (the account page's sessions list), kept cheaply: at
// most one write per session per minute. This instance remembers when it last wrote each session, so
// the calls in between cost nothing (not even a statement); the statement's own condition keeps other
// instances on the same database within the same bound (an update that matches no row writes nothing).
import type { IncomingMessage } from 'node:http';
import { LAST_ACTIVE_WRITE_INTERVAL_MS } from '../../contract/account';
import type { Ctx } from '../context';
import { clientAddress } from '../http';
import type { TokenPrincipal } from './access';
import type { SessionOrigin } from './sessions';

/** The most sessions one instance remembers; beyond it the longest-unwritten go first (they may be written once more). */
export const MAX_REMEMBERED_SESSIONS = 50_000;
/** The longest User-Agent kept with a session (as the column allows, migration 12); the rest is dropped. */
export const USER_AGENT_MAX_CHARS = 512;

const written = new WeakMap<Ctx, Map<number, number>>();

function writtenOf(ctx: Ctx): Map<number, number> {
  let mine = written.get(ctx);
  if (!mine) written.set(ctx, (mine = new Map()));
  return mine;
}

/** Whether this instance should write the session's last activity now (and notes that it does). */
export function dueForWrite(ctx: Ctx, sessionId: number, nowMs: number): boolean {
  const seen = writtenOf(ctx);
  const last = seen.get(sessionId);
  if (last !== undefined && nowMs - last < LAST_ACTIVE_WRITE_INTERVAL_MS && nowMs >= last) return false;
  seen.delete(sessionId); // re-inserted last: Map order is the order of writes
  seen.set(sessionId, nowMs);
  for (const [id, at] of seen) {
    if (seen.size <= MAX_REMEMBERED_SESSIONS && nowMs - at < LAST_ACTIVE_WRITE_INTERVAL_MS) break;
    seen.delete(id);
  }
  return true;
}

/** D52 D63: the browser and address of a request, as a session records them. */
export function requestOrigin(ctx: Ctx, req: IncomingMessage): SessionOrigin {
  return { agent: req.headers['user-agent']?.slice(0, USER_AGENT_MAX_CHARS) ?? null, address: clientAddress(req, ctx.config.trustProxy).slice(0, 64) };
}

/**
 * D52: records the session's last activity, browser and address, at most once a minute. A failed write
 * fails no request.
 */
export async function touchSession(ctx: Ctx, req: IncomingMessage, who: TokenPrincipal): Promise<void> {
  const nowMs = ctx.now();
  if (!dueForWrite(ctx, who.sessionId, nowMs)) return;
  const { agent, address } = requestOrigin(ctx, req);
  const now = new Date(nowMs);
  await ctx.db
    .query(
      `update sessions set last_active_at = $3, user_agent = $4, address = $5
        where id = $1 and user_id = $2 and revoked_at is null and (last_active_at is null or last_active_at <= $6)`,
      [who.sessionId, who.userId, now, agent, address, new Date(nowMs - LAST_ACTIVE_WRITE_INTERVAL_MS)],
    )
    .catch(() => {}); // best effort: a busy database refuses it like any other call, and the next minute writes it
}
