// STYLE: useParams() from the router. The app provides the matched route's :params to the screen it
// renders; a screen reads them instead of parsing the path again.
import { createContext, useContext } from 'react';
import type { Params } from './match';

export const ParamsContext = createContext<Params>({});

/** The current route's decoded :params ({ id: '42' } on /customers/42). */
export const useParams = (): Params => useContext(ParamsContext);

/** D12: an id parameter is a positive integer. */
export function isPositiveId(value: string | undefined): boolean {
  return value !== undefined && /^[1-9]\d{0,15}$/.test(value);
}
