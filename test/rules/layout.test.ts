// SPEC §2 / §9 layout numbers, read through the real stylesheet at two window widths: the sidebar is
// 60 units (15rem) wide, under 1024px it is a drawer opened from a menu button, toasts sit top-right.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { NARROW_MAX_PX } from '../../src/shell/Shell';

// The login form's styles, then the rest, as the page applies them (src/lib/styles.ts).
const css = ['login.css', 'app.css'].map((f) => readFileSync(path.join(import.meta.dirname, '../../static', f), 'utf8')).join('\n');
type HappyWindow = Window & { happyDOM?: { setViewport(v: { width: number; height: number }): void } };

/** Lays out a skeleton of the shell at `width` (styles are computed afresh for the new width). */
function at(width: number) {
  (window as HappyWindow).happyDOM?.setViewport({ width, height: 800 });
  document.head.querySelector('style[data-app-css]')?.remove();
  const style = document.createElement('style');
  style.dataset.appCss = '';
  style.textContent = css;
  document.head.append(style);
  document.body.innerHTML = `
    <div class="shell">
      <aside class="sidebar" id="app-sidebar"></aside>
      <div class="shell-main"><header class="topbar"><button type="button" class="icon-btn menu-btn">Open menu</button></header></div>
    </div>
    <section class="toaster"></section>`;
  expect(window.innerWidth).toBe(width);
  const get = (selector: string) => getComputedStyle(document.querySelector(selector)!);
  return { get };
}

afterEach(() => {
  document.head.querySelector('style[data-app-css]')?.remove();
  document.body.innerHTML = '';
  (window as HappyWindow).happyDOM?.setViewport({ width: 1024, height: 768 });
});

describe('SPEC §2 / §9 layout', () => {
  test('SPEC §9 at 1024px and wider the sidebar is a 60-unit (15rem) column beside the page and there is no menu button', () => {
    for (const width of [1024, 1440]) {
      const { get } = at(width);
      expect(get('.shell').gridTemplateColumns.split(' ')[0], `${width}px`).toBe('15rem');
      expect(get('.sidebar').position, `${width}px`).not.toBe('fixed');
      expect(get('.menu-btn').display, `${width}px`).toBe('none');
    }
  });

  test('SPEC §9 under 1024px the sidebar is a drawer (hidden until opened) and the top bar has the menu button', () => {
    expect(NARROW_MAX_PX).toBeGreaterThanOrEqual(1023);
    expect(NARROW_MAX_PX).toBeLessThan(1024);
    const { get } = at(1023);
    expect(get('.shell').gridTemplateColumns).not.toMatch(/^15rem/);
    expect(get('.sidebar').position).toBe('fixed');
    expect(get('.sidebar').visibility).toBe('hidden');
    expect(get('.menu-btn').display).not.toBe('none');
  });

  test('D26 under 640px each customer is a stacked block: no table layout, no header row, labelled lines', () => {
    const table = `<table class="data-table"><thead><tr><th>Name</th><th>Email</th></tr></thead>
      <tbody><tr><td class="cell-name">Ann</td><td class="cell-email" data-label="Email">ann@example.com</td></tr></tbody></table>`;
    at(639);
    document.body.insertAdjacentHTML('beforeend', table);
    const style = (s: string) => getComputedStyle(document.querySelector(s)!);
    expect(style('.data-table tbody tr').display).toBe('block');
    expect(style('.data-table td').display).toBe('block');
    expect(style('.data-table thead').position).toBe('absolute'); // read by screen readers, not shown
    at(640);
    document.body.insertAdjacentHTML('beforeend', table);
    expect(style('.data-table tbody tr').display).not.toBe('block');
    expect(style('.data-table thead').position).not.toBe('absolute');
  });

  test('SPEC §9 toasts sit at the top right', () => {
    const { get } = at(1280);
    const toaster = get('.toaster');
    expect(toaster.position).toBe('fixed');
    expect(toaster.right).not.toBe('auto');
    expect(toaster.right).not.toBe('');
    expect(toaster.top).not.toBe('auto');
    expect(toaster.top).not.toBe('');
    expect(toaster.left === '' || toaster.left === 'auto').toBe(true);
    expect(toaster.bottom === '' || toaster.bottom === 'auto').toBe(true);
  });
});
