// Renders UI inside a test session's provider, for page and shell tests; with D41's draft hook, which
// the shell gives its pages.
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { DraftsContext } from '../../src/drafts/context';
import { useDraft } from '../../src/drafts/use-draft';
import { SessionProvider } from '../../src/session/use-session';
import type { TestSession } from './session';

export function renderWithSession(t: Pick<TestSession, 'session'>, ui: ReactNode) {
  return render(
    <SessionProvider session={t.session}>
      <DraftsContext.Provider value={useDraft}>{ui}</DraftsContext.Provider>
    </SessionProvider>,
  );
}
