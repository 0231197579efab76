// D30: the activity log keeps its filters (person, action, target type) and page in the URL, so a
// reload, Back and a shared link show the same entries. Anything malformed falls back to its default.
import { AUDIT_PAGE_SIZE, type AuditParams } from '../../api/team';

export const ACTIVITY_PATH = '/activity';

export interface ActivityState {
  /** The actor's user id, or null for anyone. */
  actor: number | null;
  action: string;
  targetType: string;
  page: number;
}

export const DEFAULT_ACTIVITY: ActivityState = { actor: null, action: '', targetType: '', page: 1 };

// The shapes the server accepts (server/features/audit/routes.ts): a bad value never reaches it.
const ID = /^[1-9]\d{0,9}$/;
const ACTION = /^[a-z_.]{1,60}$/;
const TARGET = /^[a-z_]{1,30}$/;
const PAGE = /^[1-9]\d{0,5}$/;

export function readActivityParams(search: string): ActivityState {
  const p = new URLSearchParams(search);
  const take = (name: string, shape: RegExp) => {
    const v = p.get(name) ?? '';
    return shape.test(v) ? v : '';
  };
  const actor = take('actor', ID);
  const page = take('page', PAGE);
  return { actor: actor ? Number(actor) : null, action: take('action', ACTION), targetType: take('target_type', TARGET), page: page ? Number(page) : 1 };
}

/** The log's URL; defaults are left out, so the plain log stays /activity. */
export function activityHref(s: ActivityState): string {
  const p = new URLSearchParams();
  if (s.actor !== null) p.set('actor', String(s.actor));
  if (s.action) p.set('action', s.action);
  if (s.targetType) p.set('target_type', s.targetType);
  if (s.page !== 1) p.set('page', String(s.page));
  const q = p.toString();
  return q ? `${ACTIVITY_PATH}?${q}` : ACTIVITY_PATH;
}

export const isFiltered = (s: ActivityState): boolean => s.actor !== null || Boolean(s.action || s.targetType);

/** What GET /v1/audit/ is asked. */
export const auditParams = (s: ActivityState): AuditParams => ({
  actor: s.actor ?? undefined,
  action: s.action || undefined,
  target_type: s.targetType || undefined,
  page: s.page,
  page_size: AUDIT_PAGE_SIZE,
});
