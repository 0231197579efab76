// Code preloaded beside the session's calls (app/App.tsx preloadScreen) renders in the very render that first shows
// it (ui/preloaded.ts): a lazy screen that showed its fallback instead would be held by React for up to
// 300 ms after its code arrived, on a reload after the current-user call's answer.
import { render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { loadShell, preloadScreen } from '../../src/app/App';
import { keep, lazyLoaded } from '../../src/ui/preloaded';
import { ROUTES } from '../../src/shell/routes';

const Screen = () => <h1>Screen</h1>;
const inSuspense = (Lazy: ComponentType) =>
  render(
    <Suspense fallback={<p>loading</p>}>
      <Lazy />
    </Suspense>,
  );
/** Lets every promise settled so far run its callbacks. */
const settled = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  for (const l of document.head.querySelectorAll('link[rel=modulepreload]')) l.remove();
});

describe('preloaded screens render at once', () => {
  it('a screen whose code has loaded renders in the first render, with no fallback', async () => {
    const load = async () => ({ default: Screen });
    await keep(load);
    inSuspense(lazyLoaded(load, (m) => m.default));
    expect(screen.getByRole('heading', { name: 'Screen' })).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('a screen whose code has not loaded shows the fallback until it has', async () => {
    const load = async () => ({ default: Screen });
    inSuspense(lazyLoaded(load, (m) => m.default));
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Screen' })).toBeTruthy();
  });

  it('preloadScreen keeps the page at the path: its lazy page then renders in the first render', async () => {
    const route = ROUTES.find((r) => r.path === '/customers/:id')!;
    preloadScreen('/customers/7');
    await route.load();
    await settled();
    inSuspense(lazyLoaded(route.load, () => Screen));
    expect(screen.getByRole('heading', { name: 'Screen' })).toBeTruthy();
  });

  it("preloadScreen keeps the shell's code: App's lazy shell (loadShell) then renders in the first render", async () => {
    preloadScreen('/dashboard');
    await loadShell();
    await settled();
    inSuspense(lazyLoaded(loadShell, () => Screen));
    expect(screen.getByRole('heading', { name: 'Screen' })).toBeTruthy();
  });
});
