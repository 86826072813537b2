import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClientExtensions } from '../domain/transactions.js';
import { Account } from './account.js';
import type { AccountCommand } from './commands.js';
import type { AccountState } from './state.js';
import { ACCOUNT_ID, CATALOGUE } from './test-helpers.js';
import { funded, givenAccount, limitOrder, quoted, tradeOpened, type AccountSettings } from './testing/given.js';
import { accountView, orderView, tradeView } from './views.js';

/**
 * Any client extensions sent to an account tied to a third-party terminal (MT4), in any of the
 * places a client can send them, are refused: one *_REJECT transaction with a client extension
 * reason, and nothing else of the account changes; the same request on an ordinary account is
 * accepted, so the extensions alone are what the MT4 account refuses. Folding the journal gives
 * the live account (the setting is the account's, not journaled).
 */

/** A pending LIMIT (3) and an open trade (5, by MARKET order 4) under EUR_USD 1.10000 / 1.10020. */
const book = (settings: AccountSettings) =>
  givenAccount(settings, funded(), quoted(1.1, 1.1002), limitOrder({ units: '1000', price: '1.09000' }), tradeOpened('1000', '1.10020'));
const MT4 = { mt4AccountID: 5012345 };

/** Well-formed client extensions: any mix of the three fields (v20's ClientExtensions), the empty object too. */
const extensions: fc.Arbitrary<ClientExtensions> = fc.record(
  {
    id: fc.string({ minLength: 1, maxLength: 16 }).filter((s) => !s.startsWith('@')),
    tag: fc.string({ maxLength: 16 }),
    comment: fc.string({ maxLength: 16 }),
  },
  { requiredKeys: [] },
);

const market = (fields: Record<string, unknown>): AccountCommand => ({
  type: 'CREATE_ORDER',
  order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', ...fields },
});

/** Every place a client can send client extensions, each in an otherwise valid request. */
const PLACES: readonly ((ce: ClientExtensions) => AccountCommand)[] = [
  (ce) => market({ clientExtensions: ce }),
  (ce) => market({ tradeClientExtensions: ce }),
  (ce) => market({ takeProfitOnFill: { price: '1.20000', clientExtensions: ce } }),
  (ce) => market({ stopLossOnFill: { distance: '0.01000', clientExtensions: ce } }),
  (ce) => market({ trailingStopLossOnFill: { distance: '0.01000', clientExtensions: ce } }),
  (ce) => ({ type: 'CREATE_ORDER', order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.08000', clientExtensions: ce } }),
  (ce) => ({
    type: 'CREATE_ORDER',
    order: { type: 'STOP', instrument: 'EUR_USD', units: '100', price: '1.20000', tradeClientExtensions: ce },
  }),
  (ce) => ({ type: 'CREATE_ORDER', order: { type: 'TAKE_PROFIT', tradeID: '5', price: '1.20000', clientExtensions: ce } }),
  (ce) => ({
    type: 'REPLACE_ORDER',
    orderSpecifier: '3',
    order: { type: 'LIMIT', instrument: 'EUR_USD', units: '500', price: '1.08000', clientExtensions: ce },
  }),
  (ce) => ({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', clientExtensions: ce }),
  (ce) => ({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '3', tradeClientExtensions: ce }),
  (ce) => ({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '5', clientExtensions: ce }),
  (ce) => ({ type: 'SET_TRADE_ORDERS', tradeSpecifier: '5', stopLoss: { price: '1.05000', clientExtensions: ce } }),
];

/** What a client can see of the account but the last transaction ID, and the client ID maps. */
function clientView(state: AccountState): unknown {
  const account = { ...(accountView(state) as Record<string, unknown>) };
  delete account['lastTransactionID'];
  return JSON.parse(
    JSON.stringify({
      account,
      orders: [...state.orders.values()].map((o) => orderView(state, o)),
      trades: [...state.trades.values()].map((t) => tradeView(state, t)),
      clientOrderIds: [...state.clientOrderIds],
      clientTradeIds: [...state.clientTradeIds],
      pendingCount: state.pendingCount,
    }),
  );
}

const REASON = /^((TAKE_PROFIT|STOP_LOSS|TRAILING_STOP_LOSS)_ON_FILL_)?CLIENT_(ORDER|TRADE)_(ID|TAG|COMMENT)_INVALID$/;

describe('client extensions on an MT4 account (property)', () => {
  it('are refused wherever they are sent: one reject, nothing else changes; an ordinary account accepts them', () => {
    fc.assert(
      fc.property(fc.nat({ max: PLACES.length - 1 }), extensions, (place, ce) => {
        const command = (PLACES[place] as (ce: ClientExtensions) => AccountCommand)(ce);
        const mt4 = book(MT4).play();
        const before = clientView(mt4.state);
        const after = mt4.when(command);
        expect(after.transactions).toHaveLength(1);
        const tx = after.transactions[0] as { type: string; rejectReason?: string };
        expect(tx.type).toMatch(/_REJECT$/);
        expect(tx.rejectReason).toMatch(REASON);
        expect(after.outcome?.reject?.errorCode).toBe(tx.rejectReason);
        expect(clientView(after.state)).toEqual(before);
        // The journal folds into the same account (quotes are not journaled: the last one again).
        const replayed = Account.replay({ id: ACCOUNT_ID, currency: 'USD', ...MT4 }, CATALOGUE, after.account.log.slice());
        replayed.onQuote({ instrument: 'EUR_USD', time: after.account.now, bid: 1.1, ask: 1.1002 });
        expect(clientView(replayed.state)).toEqual(before);

        const ordinary = book({}).play().when(command);
        expect(ordinary.outcome?.reject).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
