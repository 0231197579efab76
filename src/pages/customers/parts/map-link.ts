// D46: a location's address as a map search, opened in a new tab. OpenStreetMap's search: no account, no
// key, and nothing of ours sent but the address the person chose to look up (docs/behaviour.md).
export const MAP_SEARCH = 'https://www.openstreetmap.org/search?query=';

/** The search for an address's lines, or null when there is no address to look for. */
export function mapHref(lines: string[]): string | null {
  const query = lines.join(', ').trim();
  return query ? MAP_SEARCH + encodeURIComponent(query) : null;
}
