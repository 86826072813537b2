import type { Engine } from '../../src/engine/engine.js';
import type { Tick } from '../../src/domain/tick.js';

export interface RestingGridOptions {
  /** Pending orders the grid tops up to. */
  readonly resting: number;
  /** Place a pair of orders every this many ticks. */
  readonly every: number;
  readonly units: string;
}

/**
 * A fixed, deterministic strategy used by the determinism test and the end-to-end benchmark:
 * it keeps about `resting` LIMIT orders on both sides of the market at 5..50 pips, each with a
 * take profit and a stop loss on fill, and cancels its oldest order now and then. Orders near the
 * market fill regularly; the rest rest.
 */
export function restingGrid(engine: Engine, accountId: string, options: RestingGridOptions): (tick: Tick) => void {
  const account = engine.account(accountId);
  if (account === undefined) throw new Error(`no account ${accountId}`);
  let count = 0;
  let step = 0;
  const placed: string[] = [];
  return (tick: Tick): void => {
    count += 1;
    if (tick.instrument !== 'EUR_USD' || count % options.every !== 0) return;
    step += 1;
    const mid = Math.round(((tick.bid + tick.ask) / 2) * 100000);
    if (account.state.pendingCount < options.resting) {
      const offset = 50 + ((step * 37) % 451); // 5.0 .. 50.0 pips in points
      const buy = mid - offset;
      const sell = mid + offset;
      const fmt = (points: number): string => (points / 100000).toFixed(5);
      for (const [units, price, tp, sl] of [
        [options.units, buy, buy + 100, buy - 100],
        [`-${options.units}`, sell, sell - 100, sell + 100],
      ] as const) {
        const outcome = engine.execute(accountId, {
          type: 'CREATE_ORDER',
          order: {
            type: 'LIMIT',
            instrument: 'EUR_USD',
            units,
            price: fmt(price),
            takeProfitOnFill: { price: fmt(tp) },
            stopLossOnFill: { price: fmt(sl) },
          },
        });
        const created = outcome.response['orderCreateTransaction'];
        if (created !== undefined && outcome.response['orderFillTransaction'] === undefined) placed.push(created.id);
      }
    }
    if (step % 7 === 0 && placed.length > 0) {
      const oldest = placed.shift() as string;
      engine.execute(accountId, { type: 'CANCEL_ORDER', orderSpecifier: oldest });
    }
  };
}
