// D26 D32: the list's 'Added since' (`created_since`) as the server and the list's URL both read it; a
// file of its own, so only the list's chunk carries it.

/** A day (its start, UTC) or an instant as toISOString() writes it. */
export function isInstant(s: string): boolean {
  const t = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/.test(s) ? Date.parse(s) : Number.NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s.slice(0, 10));
}
