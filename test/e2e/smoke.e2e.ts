import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launch, newContext, newTab, skipReason } from './browser';

describe.skipIf(skipReason)('smoke', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => browser?.close());

  test('the login screen renders', async () => {
    const ctx = await newContext(browser);
    const { page, errors } = await newTab(ctx);
    await page.goto('/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Login' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
