// Renders UI inside a test session's provider, for page and shell tests.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SessionProvider } from '../../src/session/use-session';
import type { TestSession } from './session';

export function renderWithSession(t: Pick<TestSession, 'session'>, ui: ReactNode) {
  return render(<SessionProvider session={t.session}>{ui}</SessionProvider>);
}
