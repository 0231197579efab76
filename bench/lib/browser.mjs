// Chromium for the browser benchmarks: launched through playwright-core, each page in a new (cold)
// context under a mobile profile like DevTools' "Slow 4G": 150 ms round trip, 1.6 Mbps down, 750 kbps
// up (CDP Network.emulateNetworkConditions), CPU 4× slower (Emulation.setCPUThrottlingRate).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const PROFILE = { latencyMs: 150, downKbps: 1600, upKbps: 750, cpuSlowdown: 4 };
export const TIMEOUT_MS = 60_000;

export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

export const profileLine = () =>
  `mobile profile: ${PROFILE.latencyMs} ms RTT, ${PROFILE.downKbps / 1000} Mbps down, ${PROFILE.upKbps} kbps up, CPU ${PROFILE.cpuSlowdown}× slower`;

/**
 * A new page in a new (cold) context: no HTTP cache, no code cache, no open connections; the mobile
 * profile applied before it navigates, `initScript` run in every document before the page's own scripts.
 */
export async function coldPage(browser, baseURL, initScript = '') {
  const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PROFILE.latencyMs,
    downloadThroughput: (PROFILE.downKbps * 1000) / 8,
    uploadThroughput: (PROFILE.upKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpuSlowdown });
  page.setDefaultTimeout(TIMEOUT_MS);
  return { context, page };
}
