// D1: the runtime configuration the server writes into the page as window.__APP_CONFIG__.

export interface AppConfig {
  apiBase: string;
  sentryDsn: string | null;
}

export const DEFAULT_API_BASE = '/api';
