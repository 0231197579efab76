// ui/early-module.ts: a part's code whose import starts with the page's module, loaded once at a time;
// a failed load is said, and Retry asks again.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { earlyModule, useEarlyModule } from '../../src/ui/early-module';

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
});
