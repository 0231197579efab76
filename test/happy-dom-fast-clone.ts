// Imported by test/setup.ts. Test speed only (issue 21): the app suite's window is happy-dom, and
// computing an element's style there copies its parent's declarations for every element on the way
// down (CSSPropertyManager.clone). Role queries ask for the style of every element that makes up an
// accessible name (is it hidden? block or inline?), so that copy and the garbage it leaves were about
// a tenth of a worker's CPU. happy-dom copies with structuredClone; every entry is a flat
// { value, important } pair of a string and a boolean (happy-dom's CSSPropertySetParser makes them so),
// so copying each pair gives the same declarations for a fraction of the cost: about 5 % of the suite's
// CPU in five alternating runs (docs/development.md, 'Fast suites').
//
// When happy-dom's method is no longer the one replaced (an upgrade), the suite fails here rather than
// silently copying what it may no longer understand; happy-dom-fast-clone.test.ts compares the copy
// with structuredClone's on real declarations.
import CSSPropertyManager from 'happy-dom/lib/css/declaration/property-manager/CSSPropertyManager.js';

type Entry = { value: string; important: boolean };
type Manager = { properties: Record<string, Entry>; definedPropertyNames: Record<string, boolean> };
type Proto = { clone(this: Manager): Manager; __fastClone?: true };

/** happy-dom's clone(), as this file was written against (whitespace aside). */
const REPLACED =
  'clone(){const_class=this.constructor;constclone=new_class();clone.properties=structuredClone(this.properties);clone.definedPropertyNames=Object.assign({},this.definedPropertyNames);returnclone;}';

const proto = (CSSPropertyManager as unknown as { prototype: Proto }).prototype;

/** The copy: each { value, important } pair copied, the names of what was defined copied. */
export function fastClone(this: Manager): Manager {
  const clone = new (this.constructor as new () => Manager)();
  const properties: Record<string, Entry> = {};
  for (const name in this.properties) {
    const { value, important } = this.properties[name]!;
    properties[name] = { value, important };
  }
  clone.properties = properties;
  clone.definedPropertyNames = Object.assign({}, this.definedPropertyNames);
  return clone;
}

/** True when `source` (a function's text) is happy-dom's clone() as REPLACED has it. */
export const isReplacedClone = (source: string) => source.replace(/\s+/g, '') === REPLACED;

if (!proto.__fastClone) {
  if (!isReplacedClone(String(proto.clone))) {
    throw new Error('test/happy-dom-fast-clone.ts: happy-dom changed CSSPropertyManager.clone(); check that its entries are still flat pairs and update this file');
  }
  proto.clone = fastClone;
  proto.__fastClone = true;
}
