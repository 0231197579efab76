// D35: holding password-hashing turns on purpose, so a test can fill the queue and count what is refused
// (the server under test runs in the same process and shares the queue).
import { boundedHashing, HashingBusyError } from '../../server/auth/passwords';

/** Turns held until release(): those that started wait on it, later ones pass straight through. */
export function holdHashing(count: number, address?: string) {
  let open = false;
  const releases: (() => void)[] = [];
  const settled = Array.from({ length: count }, () =>
    boundedHashing(() => (open ? Promise.resolve() : new Promise<void>((r) => releases.push(r))), address).then(
      () => 'ran' as const,
      (err: unknown) => (err instanceof HashingBusyError ? err.reason : 'error'),
    ),
  );
  return {
    settled: Promise.all(settled),
    release: () => {
      open = true;
      for (const r of releases.splice(0)) r();
    },
  };
}
