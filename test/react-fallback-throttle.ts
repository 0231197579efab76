// Imported first by test/setup.ts, before anything loads React DOM.
//
// React keeps a Suspense fallback it has shown for at least 300 ms before revealing what replaces it
// (FALLBACK_THROTTLE_MS in react-dom: a visual throttle, so content does not pop in right after a
// spinner). In a test every lazy dialog, section and error card suspends the first time a file opens it
// (each file imports the app afresh), so a test opening one waited 300 ms on a timer: 49 tests waited
// 15 s between them, half of the app suite's time on one worker (issue 21). No test is about that hold,
// so the test build of React DOM goes without it, as fake timers would let it. What is revealed is the
// same, sooner; parts that arrive within 300 ms of each other may be revealed one by one where React would
// reveal them together. The app in a browser keeps React's hold.
//
// React DOM is CommonJS, loaded once per test worker through Node's own loader; its source is changed
// as it is compiled. When React's source no longer has the line (an upgrade), the suite fails here
// rather than silently waiting again.
import Module from 'node:module';

const FILE = /react-dom[\\/]cjs[\\/]react-dom-client\.development\.js$/;
const HOLD = 'FALLBACK_THROTTLE_MS = 300,';

type Compile = (this: unknown, content: string, filename: string, ...rest: unknown[]) => unknown;
const proto = (Module as unknown as { prototype: { _compile: Compile } }).prototype;
const state = globalThis as { __reactFallbackThrottle?: 'hooked' | 'removed' };

if (!state.__reactFallbackThrottle) {
  state.__reactFallbackThrottle = 'hooked';
  const compile = proto._compile;
  proto._compile = function (content, filename, ...rest) {
    if (FILE.test(filename)) {
      if (!content.includes(HOLD)) throw new Error(`test/react-fallback-throttle.ts: '${HOLD}' is not in ${filename}; React changed, update this file`);
      content = content.replace(HOLD, 'FALLBACK_THROTTLE_MS = 0,');
      state.__reactFallbackThrottle = 'removed';
    }
    return compile.call(this, content, filename, ...rest);
  };
}

/** Throws unless the React DOM this worker loaded went through the hook above. */
export function assertFallbackThrottleRemoved(): void {
  if (state.__reactFallbackThrottle !== 'removed') throw new Error('React DOM was loaded before test/react-fallback-throttle.ts could remove its fallback hold');
}
