// D24 D30 D32: what audit entries have in common when put into words, for the customer's timeline and
// the dashboard's latest activity (each page words its own sentences). Changes are as the server
// records them (server/audit.ts): updates as field → { from, to }, other entries as plain values.

/** D22's fields as a sentence names them. */
const FIELD_WORDS: Record<string, string> = { address_line: 'address', postal_code: 'postal code' };
export const fieldWord = (field: string): string => FIELD_WORDS[field] ?? field.replace(/_/g, ' ');

/** A status as the app shows it ('active' → 'Active', as STATUS_LABELS say), not as stored. */
export const valueWord = (field: string, value: unknown): string | undefined =>
  field === 'status' && typeof value === 'string' ? value.charAt(0).toUpperCase() + value.slice(1) : undefined;

/** A value as text: lists (tags) comma-separated, nothing as ''; a `field`'s value in the app's words. */
export function valueText(value: unknown, field?: string): string {
  if (value === null || value === undefined) return '';
  if (field && valueWord(field, value)) return valueWord(field, value)!;
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export interface FieldChange {
  field: string;
  from: string;
  to: string;
}

/** An update's changes (field → { from, to }) as text, in the order the server wrote them. */
export function fieldChanges(changes: Record<string, unknown>): FieldChange[] {
  return Object.entries(changes).flatMap(([field, c]) => {
    if (typeof c !== 'object' || c === null || !('from' in c) || !('to' in c)) return [];
    return [{ field, from: valueText(c.from, field), to: valueText(c.to, field) }];
  });
}

/** Who did it: the actor's name as it was, or "Someone" for the system. */
export const actorName = (entry: { actor: { name: string } | null }): string => entry.actor?.name || 'Someone';

/** "phone", "phone and status", "phone, city and status". */
export const wordList = (words: string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);
