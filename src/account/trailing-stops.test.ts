import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trailingValue2, trailingValueText } from './placement.js';
import { emptyAccountState } from './state.js';
import { ACCOUNT_ID, CATALOGUE } from './test-helpers.js';
import { funded, given, placeOrder, quote, quoted, tradeOpened } from './testing/given.js';

describe('trailing stop levels in the journal', () => {
  const state = emptyAccountState(ACCOUNT_ID, CATALOGUE);

  it('a level is written at the display precision, with a 5 more when it lies half way, and read back exactly', () => {
    expect(trailingValueText(219_840, 5)).toBe('1.09920');
    expect(trailingValueText(220_231, 5)).toBe('1.101155');
    expect(trailingValue2(state, 'EUR_USD', '1.101155')).toBe(220_231);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.constantFrom(['EUR_USD', 5] as const, ['USD_JPY', 3] as const),
        (value2, [instrument, precision]) => {
          expect(trailingValue2(state, instrument, trailingValueText(value2, precision))).toBe(value2);
        },
      ),
    );
  });

  it('a level off the half grid is refused', () => {
    expect(() => trailingValue2(state, 'EUR_USD', '1.101154')).toThrow(/half grid/);
  });

  it('a new trailing stop takes its first level from the market in the batch that creates it', () => {
    // Long trade 4 at 1.10020; a stop 0.00300 below the bid, not below the (lower) open price minus distance.
    const placed = given(funded(), quoted(1.1, 1.1002), tradeOpened('10000', '1.10020'))
      .when(placeOrder({ type: 'TRAILING_STOP_LOSS', tradeID: '4', distance: '0.00300' }))
      .then({ id: '5', type: 'TRAILING_STOP_LOSS_ORDER' });
    expect(placed.account.state.orders.get(5)?.trailing?.value2).toBe(2 * 109_700);
    // A quote that moves it writes no transaction: the level is journal state, not a transaction.
    placed.when(quote(1.101, 1.1012)).then();
    expect(placed.account.state.orders.get(5)?.trailing?.value2).toBe(2 * 109_800);
  });
});
