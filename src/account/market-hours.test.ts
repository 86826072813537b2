import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import { Account } from './account.js';
import { funded, given, limitOrder, placeOrder, quote, quoted, stopOrder, tradeOpened, until } from './testing/given.js';

const at = (text: string): Micros => parseDateTime(text) as Micros;
/** T0 of the given() helper is Monday 6 May 2024 (EDT): the week closes on Friday 10 May at 21:00 UTC. */
const FRIDAY_CLOSE = at('2024-05-10T21:00:00Z');
const SATURDAY = at('2024-05-11T12:00:00Z');
const SUNDAY_OPEN = at('2024-05-12T21:00:00Z');
const SECOND = 1_000_000;

describe('orders outside trading hours', () => {
  const week = given(funded(), quoted(1.1, 1.1002), limitOrder({ units: '10000', price: '1.09500' }));

  it('halts a MARKET order after the Friday close: created, then cancelled MARKET_HALTED', () => {
    week
      .when(until(SATURDAY))
      .when(placeOrder({ type: 'MARKET', units: '100' }))
      .then({ type: 'MARKET_ORDER', units: '100' }, { type: 'ORDER_CANCEL', orderID: '4', reason: 'MARKET_HALTED' });
  });

  it('halts it on Sunday after the reopening too, until the session has a quote of its own', () => {
    week
      .when(until(SUNDAY_OPEN + 10 * SECOND))
      .when(placeOrder({ type: 'MARKET', units: '100' }))
      .then({ type: 'MARKET_ORDER' }, { type: 'ORDER_CANCEL', reason: 'MARKET_HALTED' })
      .when(quote(1.0999, 1.1001))
      .then()
      .when(placeOrder({ type: 'MARKET', units: '100' }))
      .then({ type: 'MARKET_ORDER' }, { type: 'ORDER_FILL', price: '1.10010', reason: 'MARKET_ORDER' });
  });

  it('records a quote in closed hours without triggering, and fills on the reopening quote at its price', () => {
    week
      .when(until(SATURDAY))
      .when(quote(1.09, 1.0902))
      .then()
      .when(until(SUNDAY_OPEN - SECOND))
      .then()
      .when(quote(1.0948, 1.0949))
      .then({ type: 'ORDER_FILL', orderID: '3', price: '1.09490', reason: 'LIMIT_ORDER', time: '2024-05-12T21:00:00.000000000Z' });
  });

  it('keeps the closed-hours quote as the price to show, marked not tradeable', () => {
    const then = week.when(until(SATURDAY)).when(quote(1.09, 1.0902));
    const slot = then.state.prices.get('EUR_USD');
    expect(slot).toMatchObject({ bid: 109000, ask: 109020, tradeable: false });
  });

  it('lets a resting order be placed while closed, and a FOK limit is halted rather than expired', () => {
    week
      .when(until(SATURDAY))
      .when(placeOrder({ type: 'LIMIT', units: '100', price: '1.10500' }))
      .then({ type: 'LIMIT_ORDER', price: '1.10500' })
      .when(placeOrder({ type: 'LIMIT', units: '100', price: '1.10500', timeInForce: 'FOK' }))
      .then({ type: 'LIMIT_ORDER' }, { type: 'ORDER_CANCEL', reason: 'MARKET_HALTED' });
  });

  it('halts closing a trade after the Friday close: the close order is created and cancelled', () => {
    given(funded(), quoted(1.1, 1.1002), tradeOpened('10000', '1.10020'))
      .when(until(SATURDAY))
      .when({ type: 'CLOSE_TRADE', tradeSpecifier: '4', units: 'ALL' })
      .then({ type: 'MARKET_ORDER', units: '-10000' }, { type: 'ORDER_CANCEL', reason: 'MARKET_HALTED' });
  });

  it('does not let a stop loss fire on a quote in closed hours', () => {
    given(funded(), quoted(1.1, 1.1002), tradeOpened('10000', '1.10020'), stopOrder({ units: '-10000', price: '1.09000' }))
      .when(until(FRIDAY_CLOSE))
      .when(quote(1.08, 1.0802))
      .then();
  });
});

describe('the trading calendar of an instrument', () => {
  it('follows a holiday closure configured for the instrument', () => {
    const catalogue = buildCatalogue([
      { name: 'EUR_USD', marketHours: { closures: [{ from: '2024-05-07T00:00:00Z', to: '2024-05-07T06:00:00Z' }] } },
    ]);
    const account = Account.open({ id: '101-004-1234567-001', currency: 'USD', balance: '1000' }, catalogue, at('2024-05-06T12:00:00Z'));
    account.onQuote({ instrument: 'EUR_USD', time: at('2024-05-06T23:00:00Z'), bid: 1.1, ask: 1.1002 });
    account.execute(
      { type: 'CREATE_ORDER', order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.09000' } },
      at('2024-05-06T23:00:01Z'),
    );
    account.onQuote({ instrument: 'EUR_USD', time: at('2024-05-07T01:00:00Z'), bid: 1.08, ask: 1.0802 });
    expect(account.log.at(-1)?.type).toBe('LIMIT_ORDER');
    account.onQuote({ instrument: 'EUR_USD', time: at('2024-05-07T06:00:00Z'), bid: 1.085, ask: 1.0852 });
    expect(account.log.at(-1)).toMatchObject({ type: 'ORDER_FILL', price: '1.08520' });
  });
});
