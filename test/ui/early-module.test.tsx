// ui/early-module.ts: a part's code whose import starts with the page's module, loaded once at a time;
// a failed load is said, and Retry asks again. A part shown on a person's action (lazyPart) loads once the
// browser is idle, and from then on renders in the same commit as what asks for it.
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { type ComponentType, Suspense, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_FALLBACK_MS } from '../../src/lib/idle';
import { earlyModule, lazyPart, useEarlyModule, usePreloadWhenIdle } from '../../src/ui/early-module';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Shows `Part` under a Suspense boundary and waits for the dialog it renders. */
async function showsItsDialog(Part: ComponentType) {
  render(
    <Suspense fallback={<p>loading</p>}>
      <Part />
    </Suspense>,
  );
  expect(await screen.findByRole('dialog', { name: 'Question' })).toBeTruthy();
}

describe('early module', () => {
  it('starts importing at once, imports once however many ask, and is there for a later reader at first render', async () => {
    let calls = 0;
    const early = earlyModule(async () => (calls++, { answer: 42 }));
    expect(calls).toBe(1);
    const { result } = renderHook(() => useEarlyModule(early));
    await waitFor(() => expect(result.current.mod).toEqual({ answer: 42 }));
    expect(renderHook(() => useEarlyModule(early)).result.current.mod).toEqual({ answer: 42 });
    expect(calls).toBe(1);
  });

  it('a failed load is an error until Retry, which imports again', async () => {
    let calls = 0;
    const early = earlyModule(async () => {
      calls++;
      if (calls === 1) throw new Error('chunk failed');
      return { ok: true };
    });
    const { result } = renderHook(() => useEarlyModule(early)); // joins the first import, which fails
    await waitFor(() => expect(result.current.error).toBeInstanceOf(Error));
    expect(calls).toBe(1);
    expect(result.current.mod).toBeNull();
    act(() => result.current.retry());
    await waitFor(() => expect(result.current.mod).toEqual({ ok: true }));
    expect(result.current.error).toBeNull();
    expect(calls).toBe(2);
  });

  it("lazyPart: the part's code loads once the browser is idle after the page, only where it is offered, once", async () => {
    vi.useFakeTimers(); // happy-dom has no requestIdleCallback: whenIdle's fallback timer
    let calls = 0;
    const Part = lazyPart(
      async () => (calls++, { Dialog: () => null }),
      (m) => m.Dialog,
    );
    const parts = [Part];
    renderHook(() => usePreloadWhenIdle(false, parts));
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS);
    expect(calls).toBe(0); // not offered: never asked for
    renderHook(() => usePreloadWhenIdle(true, parts));
    renderHook(() => usePreloadWhenIdle(true, parts));
    expect(calls).toBe(0);
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_MS);
    expect(calls).toBe(1);
  });

  it('lazyPart: offline at idle, nothing is asked for; the part is asked for when shown', async () => {
    let calls = 0;
    const Part = lazyPart(
      async () => (calls++, { Dialog: () => <p role="dialog" aria-label="Question" /> }),
      (m) => m.Dialog,
    );
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    Part.preload();
    expect(calls).toBe(0);
    vi.restoreAllMocks();
    await showsItsDialog(Part);
    expect(calls).toBe(1);
  });

  it('lazyPart: once loaded, the part is shown in the commit that asks for it, never its fallback (React holds a shown fallback 300 ms)', async () => {
    const Part = lazyPart(
      async () => ({ Dialog: () => <p role="dialog" aria-label="Question" /> }),
      (m) => m.Dialog,
    );
    Part.preload();
    await act(async () => {}); // the import has answered
    let ask = () => {};
    function Page() {
      const [open, setOpen] = useState(false);
      ask = () => setOpen(true);
      return <Suspense fallback={<p>loading</p>}>{open && <Part />}</Suspense>;
    }
    render(<Page />);
    act(() => ask());
    expect(screen.queryByText('loading')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Question' })).toBeTruthy();
  });

  it('lazyPart: a preload that failed leaves nothing behind: the showing asks for the code again', async () => {
    let calls = 0;
    const Part = lazyPart(
      async () => {
        calls++;
        if (calls === 1) throw new Error('chunk failed');
        return { Dialog: () => <p role="dialog" aria-label="Question" /> };
      },
      (m) => m.Dialog,
    );
    Part.preload(); // fails at idle, unseen
    await act(async () => {});
    expect(calls).toBe(1);
    await showsItsDialog(Part);
    expect(calls).toBe(2);
  });
});
