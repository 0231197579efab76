// SPEC §4 reload: the current-user call that src/boot/preload.js sends from the page itself while the
// first bundle is still on the wire. The session's load then takes that answer instead of sending the
// same call again, so `me` no longer waits for the app's code. Only the client's first call may take it,
// and only when that call is exactly the one sent early: the same address and headers (token,
// organization), written as preload.js writes them; otherwise it is dropped and the call goes out as
// usual. A stale answer can never serve another call or another person.

/** What preload.js leaves on the window: the call's address and headers, and its answer on the way (never rejecting unseen). */
export interface EarlyCall {
  key: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __earlyMe?: EarlyCall;
  }
}

/** A GET's address and headers as one text (a call with a body has other headers: its content type). */
export const callKey = (url: string, headers: unknown) => url + JSON.stringify(headers);

/** `fetch` whose first call is answered by the early one when it is that call; `real()` is looked up at call time. */
export function withEarlyCall(real: () => typeof fetch, win: Pick<Window, '__earlyMe'> = window): typeof fetch {
  return (input, init) => {
    const early = win.__earlyMe;
    win.__earlyMe = undefined; // one chance
    return early && callKey(String(input), init?.headers) === early.key ? early.response : real()(input, init);
  };
}
