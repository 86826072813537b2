import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { formatPriceInt } from '../domain/price.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import { isTransaction } from '../domain/journal-entry.js';
import { freezeTransaction, transactionJson } from '../domain/transaction-json.js';
import type { Transaction } from '../domain/transactions.js';
import { Account } from './account.js';
import type { AccountCommand } from './commands.js';

/**
 * Every transaction the account core writes, serialized the moment it is recorded (as the journal
 * does), must be JSON.stringify of it byte for byte: random sessions with client extensions and
 * request IDs of any content, on-fill orders with GTD times, cancels by client ID, replacements,
 * closes and expiries.
 */
const CATALOGUE = buildCatalogue();
const T0: Micros = Date.UTC(2024, 4, 6, 12, 0, 0) * 1000;
const SECOND = 1_000_000;
const HOUR = 3600 * SECOND;

const text = fc.string({
  unit: fc.constantFrom('a', 'b', '1', '"', '\\', '\n', '\t', '\u0000', '\ud83d', '\ude00', '😀', 'é', ' '),
  minLength: 1,
  maxLength: 10,
});
const maybeExt = fc.option(fc.record({ id: text, tag: text, comment: text }, { requiredKeys: [] }), { nil: undefined, freq: 2 });

type Step =
  | { k: 'quote'; move: number; spread: number; dt: number }
  | {
      k: 'order';
      type: 'MARKET' | 'LIMIT' | 'STOP' | 'MARKET_IF_TOUCHED';
      sell: boolean;
      bound: number | null;
      units: number;
      offset: number;
      tp: number | null;
      sl: number | null;
      slDistance: boolean;
      tsl: number | null;
      tif: string | undefined;
      gtd: boolean;
      ext: object | undefined;
      tradeExt: object | undefined;
      tpExt: object | undefined;
      requestID: string | undefined;
    }
  | { k: 'cancel'; pick: number; byClient: boolean }
  | { k: 'replace'; pick: number; offset: number }
  | { k: 'closeTrade'; pick: number; half: boolean }
  | { k: 'closePosition'; long: boolean }
  | { k: 'extensions'; pick: number; trade: boolean; ext: object };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('quote' as const),
      move: fc.integer({ min: -40, max: 40 }),
      spread: fc.integer({ min: 1, max: 5 }),
      dt: fc.integer({ min: 0, max: 2 * HOUR }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('order' as const),
      type: fc.constantFrom('MARKET' as const, 'LIMIT' as const, 'STOP' as const, 'MARKET_IF_TOUCHED' as const),
      sell: fc.boolean(),
      bound: fc.option(fc.integer({ min: -5, max: 30 }), { nil: null, freq: 3 }),
      units: fc.integer({ min: 1, max: 5000 }),
      offset: fc.integer({ min: -30, max: 30 }),
      tp: fc.option(fc.integer({ min: 5, max: 60 }), { nil: null }),
      sl: fc.option(fc.integer({ min: 5, max: 60 }), { nil: null }),
      slDistance: fc.boolean(),
      tsl: fc.option(fc.integer({ min: 50, max: 300 }), { nil: null, freq: 3 }),
      tif: fc.constantFrom(undefined, 'GTC', 'GTD', 'GFD'),
      gtd: fc.boolean(),
      ext: maybeExt,
      tradeExt: maybeExt,
      tpExt: maybeExt,
      requestID: fc.option(text, { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), pick: fc.nat(), byClient: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('replace' as const), pick: fc.nat(), offset: fc.integer({ min: -30, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('closeTrade' as const), pick: fc.nat(), half: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closePosition' as const), long: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('extensions' as const),
      pick: fc.nat(),
      trade: fc.boolean(),
      ext: fc.record({ id: text, tag: text, comment: text }, { requiredKeys: [] }),
    }),
  },
);

function play(steps: readonly Step[], freeze = false): { lines: string[]; log: readonly Transaction[] } {
  const lines: string[] = [];
  let now = T0;
  const account = Account.open({ id: '101-004-7654321-001', currency: 'USD', balance: '100000' }, CATALOGUE, now, (txs) => {
    for (const tx of txs) if (isTransaction(tx)) lines.push(transactionJson(freeze ? freezeTransaction(tx) : tx));
  });
  let bid = 110_000;
  let ask = 110_002;
  const px = (points: number): string => formatPriceInt(points, 5);
  account.onQuote({ instrument: 'EUR_USD', time: now, bid: bid / 1e5, ask: ask / 1e5 });
  for (const s of steps) {
    now += SECOND;
    const exec = (command: AccountCommand, requestID?: string): void => void account.execute(command, now, requestID);
    switch (s.k) {
      case 'quote':
        now += s.dt;
        bid = Math.max(100_000, bid + s.move);
        ask = bid + s.spread;
        account.onQuote({ instrument: 'EUR_USD', time: now, bid: bid / 1e5, ask: ask / 1e5 });
        break;
      case 'order': {
        const dir = s.sell ? -1 : 1;
        const base = s.type === 'MARKET' ? (s.sell ? bid : ask) : bid + s.offset;
        const gtd = s.tif === 'GTD' || s.gtd ? { gtdTime: formatRfc3339(now + HOUR) } : {};
        const order: Record<string, unknown> = { type: s.type, instrument: 'EUR_USD', units: String(dir * s.units) };
        if (s.type !== 'MARKET') {
          order['price'] = px(base);
          if (s.tif !== undefined) order['timeInForce'] = s.tif;
          if (s.tif === 'GTD') Object.assign(order, gtd);
        }
        if (s.bound !== null && s.type !== 'LIMIT') order['priceBound'] = px(base + dir * s.bound);
        if (s.ext !== undefined) order['clientExtensions'] = s.ext;
        if (s.tradeExt !== undefined) order['tradeClientExtensions'] = s.tradeExt;
        if (s.tp !== null)
          order['takeProfitOnFill'] = {
            price: px(base + dir * s.tp),
            ...(s.tpExt === undefined ? {} : { clientExtensions: s.tpExt }),
            ...(s.gtd ? { timeInForce: 'GTD', ...gtd } : {}),
          };
        if (s.sl !== null) order['stopLossOnFill'] = s.slDistance ? { distance: px(s.sl) } : { price: px(base - dir * s.sl) };
        if (s.tsl !== null)
          order['trailingStopLossOnFill'] = { distance: px(s.tsl), ...(s.tpExt === undefined ? {} : { clientExtensions: { tag: 'tsl' } }) };
        exec({ type: 'CREATE_ORDER', order }, s.requestID);
        break;
      }
      case 'cancel': {
        const pending = [...account.state.orders.values()].filter((o) => o.state === 'PENDING');
        const order = pending[s.pick % (pending.length + 1)];
        const id = order?.clientExtensions?.id;
        exec({ type: 'CANCEL_ORDER', orderSpecifier: s.byClient && id !== undefined ? `@${id}` : String(order?.id ?? 999) });
        break;
      }
      case 'replace': {
        const pending = [...account.state.orders.values()].filter((o) => o.state === 'PENDING' && o.type === 'LIMIT');
        const order = pending[s.pick % (pending.length + 1)];
        if (order !== undefined)
          exec({
            type: 'REPLACE_ORDER',
            orderSpecifier: String(order.id),
            order: { type: 'LIMIT', instrument: 'EUR_USD', units: order.create.units, price: px(bid + s.offset) },
          });
        break;
      }
      case 'closeTrade': {
        const open = [...account.state.trades.values()].filter((t) => t.state === 'OPEN');
        const trade = open[s.pick % (open.length + 1)];
        if (trade !== undefined) exec({ type: 'CLOSE_TRADE', tradeSpecifier: String(trade.id), ...(s.half ? { units: '1' } : {}) });
        break;
      }
      case 'closePosition':
        exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', ...(s.long ? { longUnits: 'ALL' } : { shortUnits: 'ALL' }) });
        break;
      case 'extensions': {
        // A change of client extensions gives the order or trade new objects: the transactions
        // that carried the old ones must print as they did.
        if (s.trade) {
          const open = [...account.state.trades.values()].filter((t) => t.state === 'OPEN');
          const trade = open[s.pick % (open.length + 1)];
          exec({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: String(trade?.id ?? 999), clientExtensions: s.ext });
        } else {
          const pending = [...account.state.orders.values()].filter((o) => o.state === 'PENDING');
          const order = pending[s.pick % (pending.length + 1)];
          exec({
            type: 'MODIFY_ORDER_CLIENT_EXTENSIONS',
            orderSpecifier: String(order?.id ?? 999),
            clientExtensions: s.ext,
            tradeClientExtensions: s.ext,
          });
        }
        break;
      }
    }
  }
  return { lines, log: account.log.slice() };
}

describe('transaction lines', () => {
  // The lines are printed when recorded and compared with the log's objects at the end of the
  // session: so this also holds that a journaled transaction never changes (MemoryJournal prints
  // its lines when read).
  it('every recorded transaction serializes as JSON.stringify would print it, then and at the end', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 50 }), (steps) => {
        const { lines, log } = play(steps);
        expect(lines).toEqual(log.map((tx) => JSON.stringify(tx)));
      }),
      { numRuns: 300 },
    );
  });

  // A backtest freezes each transaction as it is journaled (backtest/run-journal.ts) before a
  // strategy sees it: the core must never write to one afterwards, and a shape's freezer must
  // reach every object the transaction holds, as deepFreeze would.
  it('a transaction frozen when recorded is frozen all the way down, and the session runs and prints the same', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 50 }), (steps) => {
        const frozen = play(steps, true);
        expect(frozen.lines).toEqual(play(steps).lines);
        for (const tx of frozen.log) expect(unfrozenPath(tx, tx.type)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

/** The path of the first object under `value` that is not frozen (undefined: none). */
function unfrozenPath(value: unknown, path: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Object.isFrozen(value)) return path;
  for (const [key, inner] of Object.entries(value)) {
    const found = unfrozenPath(inner, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('transaction lines of client objects JSON cannot print', () => {
  it('keep no line: the journal meets the same error JSON.stringify meets, after the batch', () => {
    // gtdTime is echoed as sent when the order is not GTD: a cyclic object reaches the transaction.
    const cyclic: Record<string, unknown> = { at: 'now' };
    cyclic['self'] = cyclic;
    const seen: string[] = [];
    const account = Account.open({ id: '101-004-7654321-001', currency: 'USD', balance: '100000' }, CATALOGUE, T0, (txs) => {
      for (const tx of txs) if (isTransaction(tx)) seen.push(transactionJson(tx));
    });
    account.onQuote({ instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1002 });
    expect(() =>
      account.execute(
        {
          type: 'CREATE_ORDER',
          order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000', timeInForce: 'GTC', gtdTime: cyclic },
        },
        T0,
      ),
    ).toThrow(TypeError);
    const create = account.log.at(-1) as Transaction;
    expect(create.type).toBe('LIMIT_ORDER');
    expect(() => transactionJson(create)).toThrow(TypeError);
    expect(() => JSON.stringify(create)).toThrow(TypeError);
  });
});
