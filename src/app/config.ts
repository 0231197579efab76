// D1: runtime configuration written into the page by the server (no rebuild to change it).

import { DEFAULT_API_BASE, type AppConfig } from '../../contract/config';

export type { AppConfig };

declare global {
  interface Window {
    __APP_CONFIG__?: Partial<AppConfig>;
  }
}

export function appConfig(win: Window = window): AppConfig {
  const c = win.__APP_CONFIG__ ?? {};
  const apiBase = typeof c.apiBase === 'string' ? c.apiBase.replace(/\/+$/, '') : DEFAULT_API_BASE;
  return { apiBase, sentryDsn: typeof c.sentryDsn === 'string' && c.sentryDsn ? c.sentryDsn : null };
}
