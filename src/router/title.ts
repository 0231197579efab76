// The document title of each screen ('Customers · CRM'). Apart from route-focus.tsx so the login form
// has it without the route announcer.
import { useLayoutEffect } from 'react';

export const APP_NAME = 'CRM';
export const documentTitle = (title: string): string => (title ? `${title} · ${APP_NAME}` : APP_NAME);

/** Sets the document title ('Customers · CRM'); before paint, so the announcer reads the new one. */
export function useDocumentTitle(title: string): void {
  useLayoutEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
