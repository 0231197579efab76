// D1: runtime configuration written into the page by the server (no rebuild to change it).

export interface AppConfig {
  apiBase: string;
  sentryDsn: string | null;
}

declare global {
  interface Window {
    __APP_CONFIG__?: Partial<AppConfig>;
  }
}

export function appConfig(win: Window = window): AppConfig {
  const c = win.__APP_CONFIG__ ?? {};
  const apiBase = typeof c.apiBase === 'string' ? c.apiBase.replace(/\/+$/, '') : '/api';
  return { apiBase, sentryDsn: typeof c.sentryDsn === 'string' && c.sentryDsn ? c.sentryDsn : null };
}
