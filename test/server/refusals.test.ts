// D34, D35: a flood's refusals are written a batch per turn of the event loop, in order, so other work
// (another client's work) runs between batches. Order and counts only.
import { describe, expect, test } from 'vitest';
import { answerRefusal, REFUSALS_PER_TURN, waitingRefusals } from '../../server/refusals';

const nextTurn = () => new Promise((r) => setImmediate(r));

describe('D35 refusals answered in batches', () => {
  test('D35 at most REFUSALS_PER_TURN refusals are written per loop turn, in the order they were decided, none lost', async () => {
    const written: number[] = [];
    const n = 3 * REFUSALS_PER_TURN + 5;
    for (let i = 0; i < n; i++) answerRefusal(() => written.push(i));
    expect(written).toEqual([]); // not in the turn that decided them
    await nextTurn();
    expect(written).toHaveLength(REFUSALS_PER_TURN);
    await nextTurn();
    expect(written).toHaveLength(2 * REFUSALS_PER_TURN);
    while (waitingRefusals() > 0) await nextTurn();
    await nextTurn();
    expect(written).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  test("D34 other work queued meanwhile runs before a long flood's last refusal is written", async () => {
    const order: string[] = [];
    const n = 20 * REFUSALS_PER_TURN;
    for (let i = 0; i < n; i++) answerRefusal(() => i === n - 1 && order.push('last refusal'));
    setImmediate(() => order.push('other work')); // another client's callback, due after the first batch
    while (order.length < 2) await nextTurn();
    expect(order).toEqual(['other work', 'last refusal']);
  });
});
