// The app suite's faster copy of happy-dom's computed-style declarations (test/happy-dom-fast-clone.ts)
// gives what happy-dom's own copy gave, on declarations of every shape the app's styles use.
import CSSPropertyManager from 'happy-dom/lib/css/declaration/property-manager/CSSPropertyManager.js';
import { describe, expect, test } from 'vitest';
import { fastClone, isReplacedClone } from './happy-dom-fast-clone';

type Manager = {
  properties: Record<string, { value: string; important: boolean }>;
  definedPropertyNames: Record<string, boolean>;
  set(n: string, v: string, i: boolean): string[];
};
const Ctor = CSSPropertyManager as unknown as new () => Manager;

/** Shorthands that expand to many entries, custom properties, !important, and plain values. */
const DECLARATIONS: [string, string, boolean][] = [
  ['border', '1px solid red', false],
  ['border-top', '2px dashed #123', true],
  ['border-radius', '4px 8px', false],
  ['margin', '0 auto', false],
  ['padding', '1rem 2rem 3rem', true],
  ['font', 'italic bold 12px/30px Georgia, serif', false],
  ['background', 'url(x.png) no-repeat center / cover #fff', false],
  ['flex', '1 1 12rem', false],
  ['outline', '2px solid blue', false],
  ['inset', '0', false],
  ['display', 'none', true],
  ['visibility', 'hidden', false],
  ['color', 'rgb(1 2 3 / 0.5)', false],
  ['--accent', '#0a58ca', false],
];

function filled(): Manager {
  const m = new Ctor();
  for (const [name, value, important] of DECLARATIONS) m.set(name, value, important);
  return m;
}

describe('happy-dom computed-style copy (test speed, issue 21)', () => {
  test('the suite copies with fastClone, in place of the structuredClone it was written against', () => {
    // The worker installs it once; each file imports this module afresh, so compare the code.
    const { prototype } = CSSPropertyManager as unknown as { prototype: { clone: () => unknown; __fastClone?: true } };
    expect(prototype.__fastClone).toBe(true);
    expect(String(prototype.clone)).toBe(String(fastClone));
    expect(isReplacedClone('clone() { return structuredClone(this) }')).toBe(false);
  });

  test('every entry is a flat { value, important } pair (what the copy relies on)', () => {
    const m = filled();
    expect(Object.keys(m.properties).length).toBeGreaterThan(40); // the shorthands expanded
    for (const [name, entry] of Object.entries(m.properties)) {
      expect(Object.keys(entry).sort(), name).toEqual(['important', 'value']);
      expect(typeof entry.value, name).toBe('string');
      expect(typeof entry.important, name).toBe('boolean');
    }
  });

  test('the copy equals structuredClone’s and shares nothing with the original', () => {
    const m = filled();
    const copy = fastClone.call(m) as Manager;
    expect(copy).toBeInstanceOf(Ctor);
    expect(copy.properties).toEqual(structuredClone(m.properties));
    expect(copy.definedPropertyNames).toEqual(m.definedPropertyNames);
    copy.properties.color!.value = 'changed';
    copy.set('margin', '5px', false);
    copy.definedPropertyNames.extra = true;
    expect(m.properties.color!.value).toBe(filled().properties.color!.value);
    expect(m.properties['margin-top']).toEqual(filled().properties['margin-top']);
    expect(m.definedPropertyNames.extra).toBeUndefined();
  });

  test('computed styles still inherit and stay apart: a hidden parent, a child of its own', () => {
    document.body.innerHTML = '<div id="p" style="visibility: hidden; color: red; font-size: 20px"><span id="c" style="color: blue"></span><p id="b"></p></div>';
    const child = document.getElementById('c')!;
    expect(getComputedStyle(child).visibility).toBe('hidden');
    expect(getComputedStyle(child).color).toBe('blue');
    expect(getComputedStyle(document.getElementById('p')!).color).toBe('red');
    expect(getComputedStyle(document.getElementById('b')!).display).toBe('block');
    expect(getComputedStyle(document.getElementById('b')!).fontSize).toBe('20px');
    document.body.innerHTML = '';
  });
});
