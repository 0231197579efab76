// D51 D52 D54: the account page's sections, in order, each a chunk of its own loaded with the page
// (each ≤ 10 KB gzip), given the account (kit.ts).
import type { ComponentType } from 'react';
import type { SectionProps } from './kit';

export interface AccountSection {
  /** The section's heading id is `${id}-title` (focus goes there after a change that removes a row). */
  id: string;
  title: string;
  load: () => Promise<{ default: ComponentType<SectionProps> }>;
  /** The section draws its own card and heading (two-step sign-in, which also stands alone). */
  own?: true;
}

export const SECTIONS: readonly AccountSection[] = [
  { id: 'profile', title: 'Profile', load: () => import('./ProfileSection') },
  { id: 'password', title: 'Password', load: () => import('./PasswordSection') },
  { id: 'two-step', title: 'Two-step sign-in', load: () => import('./TwoStepSection'), own: true },
  { id: 'sessions', title: 'Sessions', load: () => import('./SessionsSection') },
  { id: 'theme', title: 'Theme', load: () => import('./ThemeSection') },
];
