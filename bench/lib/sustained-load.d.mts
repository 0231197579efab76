// Types of sustained-load.mjs for the resilience suite (test/resilience/load.test.ts), which imports it.

export const UNANSWERED_AFTER_MS: number;
export const HEALTH_EVERY_MS: number;
export const HEALTH_BUDGET_MS: number;
export const RSS_GROWTH_BUDGET: number;
export const RSS_WARMUP_BUDGET: number;
export const WEIGHTS: Record<string, number>;
export const KINDS: string[];

export interface Check {
  what: string;
  figure: string | number;
  budget: string;
  ok: boolean;
  /** A budget on a duration: printed by the benchmark, not asserted by the resilience suite. */
  timed?: boolean;
  /** Memory judged only on runs long enough to be past the warm-up (the benchmark's), not the suite's 15 s. */
  warmup?: boolean;
}

export interface Outcomes {
  ok: number;
  busy: number;
  conflict: number;
  expired: number;
  error: number;
}

export interface KindFigures {
  kind: string;
  count: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  slow: number;
  statuses: Record<string, number>;
  codes: Record<string, number>;
  errorKinds: Record<string, number>;
  outcomes: Outcomes;
}

export interface SustainedLoadReport {
  backend: string;
  clients: number;
  sessions: number;
  durationS: number;
  loadBefore: number;
  loadAfter: number;
  seconds: number;
  byKind: KindFigures[];
  all: Omit<KindFigures, 'kind' | 'outcomes'>;
  errors: number;
  errorSamples: { label: string; at: number; status: number; code: string | null; error: string | null; ms: number }[];
  busy: number;
  conflicts: number;
  writesAcked: number;
  writesSent: number;
  unanswered: number;
  health: { count: number; bad: number; unanswered: number; p50: number; max: number; badSamples: string[] };
  revoked: number;
  rss: { start: number; middle: number; end: number; growth: number; flat: 'flat' | 'warming up' | 'growing'; after: number; peak: number; series: number[] };
  verified: { records: number; checked: number; unsure: number; mismatches: number; samples: string[] };
  secrets: string[];
  serverErrors: number;
  serverAlive: boolean;
  checks: Check[];
  /** Every token handed out (logins and refreshes). */
  tokens: string[];
  /** Bodies of answers with status ≥ 400, at most 20 per call, status and code. */
  errorBodies: string[];
  /** The server's whole output, from its start to its stop. */
  serverLog: string;
}

export interface SustainedLoadOptions {
  backend: string;
  dataDir?: string | null;
  databaseUrl?: string | null;
  durationS: number;
  clients: number;
  sessions: number;
  weights?: Record<string, number>;
  log?: (line: string) => void;
  keepLog?: string | null;
  /** More environment variables for the server (e.g. JWT_SECRET). */
  env?: Record<string, string>;
  /** Run against the started server before the sessions log in (the resilience suite's two-step journey, D54). */
  beforeRun?: ((url: string) => Promise<void>) | null;
}

export function runSustainedLoad(opts: SustainedLoadOptions): Promise<SustainedLoadReport>;
export function buildProduct(): Promise<void>;
export function secretsInLog(output: string, tokens: string[], password: string): string[];
export function printSustainedLoad(
  report: SustainedLoadReport,
  verdicts?: { figure(figure: string, value: string, budget: string, ok: boolean | null): string } | null,
  print?: (line: string) => void,
): void;
