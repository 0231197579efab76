// D41: forms reach the draft hook (use-draft.tsx) through the shell, which provides it
// (app/shell-screen.tsx): its code then loads once with the shell, not again in every form's chunk
// (each page chunk stays under its budget, test/app/chunks.test.ts). The hook is a constant, so every
// render of a form calls the same hooks.
import { createContext, useContext } from 'react';
import { isHttpError, type HttpError } from '../http/errors';
import type { DraftControl, DraftOptions } from './use-draft';

export type UseDraft = <T>(options: DraftOptions<T>) => DraftControl;

export const DraftsContext = createContext<UseDraft | null>(null);

/** D41: keeps what the person types into this form as a draft (use-draft.tsx). */
export function useDraft<T>(options: DraftOptions<T>): DraftControl {
  const hook = useContext(DraftsContext);
  if (!hook) throw new Error('useDraft needs a <DraftsContext.Provider> (the shell gives one)');
  return hook(options);
}

/** D29/D41: the server refused because the person's permissions changed under them. */
export const isPermissionDenied = (e: unknown): e is HttpError => isHttpError(e, 403) && e.code === 'permission_denied';
