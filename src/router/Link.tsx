// STYLE (wouter): a real <a href>; plain left clicks navigate in-app, everything else is the browser's.
import { useLayoutEffect, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { navigate, useLocation } from './location';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
}

/** True when the click is one the browser should handle (new tab, download, other button…). */
export function isModifiedClick(e: MouseEvent<HTMLAnchorElement>): boolean {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}

export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const { pathname } = useLocation();
  const active = pathname === to || (to !== '/' && pathname.startsWith(to + '/'));
  return (
    <a
      aria-current={active ? 'page' : undefined} // a given aria-current wins: links apart only by their query
      {...rest}
      href={to}
      target={target}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || isModifiedClick(e) || (target && target !== '_self')) return;
        e.preventDefault();
        navigate(to, { replace });
      }}
    />
  );
}

/** Redirects on render (before paint, so the old screen never flashes). */
export function Navigate({ to, replace = true }: { to: string; replace?: boolean }) {
  useLayoutEffect(() => navigate(to, { replace }), [to, replace]);
  return null;
}
