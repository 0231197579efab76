// What the account page's sections share (sections.ts lists them; each imports this, never the list).
import type { AccountView } from '../../../contract/account';

/** A section gets the account as the server last answered it. */
export interface SectionProps {
  account: AccountView;
}

/** D15: focus a section's heading (`${id}-title`) after a change that takes away the control that had it. */
export const focusSection = (id: string) => document.getElementById(`${id}-title`)?.focus();
