// D24: a note's author may edit or delete it. The profile (SPEC §3) carries no user id, but the access
// token's subject is that id (D16 sub). It is read here, not through lib/jwt: a page chunk importing
// that first-bundle module must otherwise name it in ui/first-bundle.ts, or it becomes a file of its
// own before the login form (bench/bundle.mjs). Only what is offered depends on it; the server decides.
import { KEYS } from '../../../lib/storage';
import { useSessionActions } from '../../../session/use-session';

/** The `sub` of a JWT as a positive integer, or null for anything else. */
export function tokenSubject(token: string | null): number | null {
  const part = token?.split('.')[1];
  if (!part) return null;
  try {
    const sub: unknown = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))).sub;
    const id = Number(sub);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/** The signed-in person's user id, or null when it cannot be told. */
export function useUserId(): number | null {
  return tokenSubject(useSessionActions().storage.get(KEYS.accessToken));
}
