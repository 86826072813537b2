import { describe, expect, it } from 'vitest';
import { LIMITS } from '../domain/limits.js';
import type { AccountCommand } from './commands.js';
import { Sim } from './test-helpers.js';

/**
 * v20's field limits: a client extension id, tag or comment and an account alias take at most 128
 * characters (LIMITS.clientExtensionFieldLength, LIMITS.aliasLength). One more is refused with the
 * field's TransactionRejectReason wherever the field is sent, nothing else changes, and the reject
 * echoes the value cut to the limit, so refused input never keeps an unbounded string.
 */

const MAX = LIMITS.clientExtensionFieldLength;
const ok = 'a'.repeat(MAX);
const long = 'b'.repeat(MAX + 1);

type Field = 'id' | 'tag' | 'comment';
const FIELDS: readonly Field[] = ['id', 'tag', 'comment'];
const REASON: Record<Field, string> = { id: 'ID_INVALID', tag: 'TAG_INVALID', comment: 'COMMENT_INVALID' };

/** A funded account with a quote, one open trade (4) and one pending LIMIT order (5). */
function sim(): Sim {
  const s = new Sim();
  s.quote('EUR_USD', 1.1, 1.1002);
  s.openTrade('EUR_USD', '100');
  s.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000' });
  return s;
}

/** Every place a client extension is sent: the command with the extension, the reason's prefix. */
const PLACES: readonly { name: string; prefix: string; command: (ce: Record<string, string>) => AccountCommand }[] = [
  {
    name: 'order clientExtensions',
    prefix: 'CLIENT_ORDER',
    command: (ce) => ({
      type: 'CREATE_ORDER',
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '1', clientExtensions: ce } as never,
    }),
  },
  {
    name: 'order tradeClientExtensions',
    prefix: 'CLIENT_TRADE',
    command: (ce) => ({
      type: 'CREATE_ORDER',
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '1', tradeClientExtensions: ce } as never,
    }),
  },
  {
    name: 'takeProfitOnFill clientExtensions',
    prefix: 'TAKE_PROFIT_ON_FILL_CLIENT_ORDER',
    command: (ce) => ({
      type: 'CREATE_ORDER',
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '1', takeProfitOnFill: { price: '1.20000', clientExtensions: ce } } as never,
    }),
  },
  {
    name: 'stopLossOnFill clientExtensions',
    prefix: 'STOP_LOSS_ON_FILL_CLIENT_ORDER',
    command: (ce) => ({
      type: 'CREATE_ORDER',
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '1', stopLossOnFill: { price: '1.00000', clientExtensions: ce } } as never,
    }),
  },
  {
    name: 'replacing order clientExtensions',
    prefix: 'CLIENT_ORDER',
    command: (ce) => ({
      type: 'REPLACE_ORDER',
      orderSpecifier: '5',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.04000', clientExtensions: ce } as never,
    }),
  },
  {
    name: 'PUT orders/{id}/clientExtensions',
    prefix: 'CLIENT_ORDER',
    command: (ce) => ({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '5', clientExtensions: ce }),
  },
  {
    name: 'PUT orders/{id}/clientExtensions tradeClientExtensions',
    prefix: 'CLIENT_TRADE',
    command: (ce) => ({ type: 'MODIFY_ORDER_CLIENT_EXTENSIONS', orderSpecifier: '5', tradeClientExtensions: ce }),
  },
  {
    name: 'PUT trades/{id}/clientExtensions',
    prefix: 'CLIENT_TRADE',
    command: (ce) => ({ type: 'MODIFY_TRADE_CLIENT_EXTENSIONS', tradeSpecifier: '4', clientExtensions: ce }),
  },
  {
    name: 'PUT positions/{instrument}/close longClientExtensions',
    prefix: 'CLIENT_ORDER',
    command: (ce) => ({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL', longClientExtensions: ce }),
  },
];

/** The strings anywhere in a value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(strings);
}

describe('client extension field limits', () => {
  for (const place of PLACES) {
    for (const field of FIELDS) {
      // A client ID must be new: 'a…' is free on every account here.
      it(`${place.name}: a ${field} of ${MAX} characters is taken, one more is ${place.prefix}_${REASON[field]}`, () => {
        const accepted = sim().exec(place.command({ [field]: ok }));
        expect(accepted.reject?.errorCode, JSON.stringify(accepted.response)).toBeUndefined();

        const s = sim();
        const before = JSON.stringify(s.account.state.orders.get(5));
        const lastBefore = s.lastId;
        const refused = s.exec(place.command({ [field]: long }));
        expect(refused.reject?.errorCode).toBe(`${place.prefix}_${REASON[field]}`);
        expect(refused.transactions.map((t) => t.type)).toEqual([expect.stringMatching(/_REJECT$/)]);
        expect(s.lastId).toBe(lastBefore + 1);
        expect(JSON.stringify(s.account.state.orders.get(5))).toBe(before);
        expect(s.account.state.orders.has(lastBefore + 1)).toBe(false);
        // The reject keeps no over-long string: a refused value is echoed cut to the limit, if at all.
        expect(Math.max(...strings(refused.transactions[0]).map((t) => t.length))).toBeLessThanOrEqual(MAX);
      });
    }
  }
});

describe('account alias limit', () => {
  it(`takes an alias of ${LIMITS.aliasLength} characters and refuses one more with CLIENT_CONFIGURE_REJECT ALIAS_INVALID, echoed cut`, () => {
    const s = sim();
    const alias = 'x'.repeat(LIMITS.aliasLength);
    expect(s.exec({ type: 'CONFIGURE', alias }).transactions[0]).toMatchObject({ type: 'CLIENT_CONFIGURE', alias });
    const refused = s.exec({ type: 'CONFIGURE', alias: 'y'.repeat(10_000) });
    expect(refused.reject?.errorCode).toBe('ALIAS_INVALID');
    expect(refused.transactions[0]).toMatchObject({
      type: 'CLIENT_CONFIGURE_REJECT',
      alias: 'y'.repeat(LIMITS.aliasLength),
      rejectReason: 'ALIAS_INVALID',
    });
    expect(s.account.state.alias).toBe(alias);
  });
});
