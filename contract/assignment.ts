// D59: a customer assigned to a member of its organization, as the API takes and filters it.

/**
 * D59: POST and PATCH /v1/customers/ take `assigned_to` (a member's user id, or null for none). A member
 * whose role sees only assigned customers creates customers assigned to themselves and cannot assign
 * them to anyone else (400 naming `assigned_to`).
 */
export interface CustomerAssignInput {
  assigned_to: number | null;
}
/** D59: the list's `assigned` filter: the caller's own, nobody's, or one member's (their user id). */
export const ASSIGNED_ME = 'me';
export const ASSIGNED_NONE = 'none';
/** D59: GET /v1/customers/assignees/ (customers:view): `{ results: PersonRef[] }`, the members a customer may be assigned to, by name (only the caller when their role sees only their own). */
export const ASSIGNEES_PATH = '/v1/customers/assignees/';
export const ASSIGNED_FILTER = /^(me|none|[1-9][0-9]{0,9})$/;
