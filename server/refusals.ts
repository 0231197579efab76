// D34, D35: a flood's refusals answered a batch per turn of the event loop. A flood's requests arrive
// together and Node reads them all in one turn; answering each at once (its write to the socket, the
// access-log line) would add 700 answers to that turn. Queued here, at most REFUSALS_PER_TURN are
// written per turn, so timers and every other client's requests run between batches. Each refusal
// still gets its own answer, unchanged, in the order it was decided.

/** Answers written per turn of the event loop. */
export const REFUSALS_PER_TURN = 32;

const queue: (() => void)[] = [];
let scheduled = false;

function drain(): void {
  const batch = queue.splice(0, REFUSALS_PER_TURN);
  if (queue.length > 0)
    setImmediate(drain); // the next turn: timers and other sockets first
  else scheduled = false;
  for (const answer of batch) answer();
}

/** Runs `answer` (writes a refusal) in this turn's batch, or a later turn's once this one is full. */
export function answerRefusal(answer: () => void): void {
  queue.push(answer);
  if (!scheduled) {
    scheduled = true;
    setImmediate(drain);
  }
}

/** For tests: refusals waiting for their turn. */
export const waitingRefusals = () => queue.length;
