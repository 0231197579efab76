// D30: the activity log, read-only: nothing in the API changes or deletes an entry.
import { defineRoute } from '../../route';
import { intText, optional, pageQuery, text } from '../../schema';
import { listAudit } from '../../audit';
import { scopeOf } from '../../customer-scope';

const list = defineRoute({
  method: 'GET',
  path: '/v1/audit/',
  access: 'org',
  permission: 'audit:view',
  query: {
    ...pageQuery,
    actor: optional(intText()),
    action: optional(text({ max: 60, pattern: /^[a-z_.]+$/, patternMessage: 'is not an action name' })),
    target_type: optional(text({ max: 30, pattern: /^[a-z_]+$/, patternMessage: 'is not a target type' })),
    target_id: optional(intText()),
  },
  handler: ({ tx, caller, query: q }) =>
    listAudit(tx, scopeOf(caller), { actorId: q.actor, action: q.action, targetType: q.target_type, targetId: q.target_id }, q.page, q.page_size),
});

export const auditRoutes = [list];
