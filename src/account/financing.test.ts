import { balanceOf } from './state.js';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { Decimal } from '../domain/decimal.js';
import { Account } from './account.js';
import { rolloverWeekday } from './financing.js';

const instruments = buildCatalogue();
const ID = '101-004-1234567-001';
// Tuesday 6 May 2014, 12:00 UTC; New York is on EDT (UTC-4), so rollover is at 21:00 UTC.
const TUE_NOON = Date.UTC(2014, 4, 6, 12) * 1000;
const HOUR = 3_600_000_000;

function openLong(units: string): Account {
  const account = Account.open({ id: ID, currency: 'USD', balance: '100000' }, instruments, TUE_NOON);
  account.onQuote({ instrument: 'EUR_USD', time: TUE_NOON + 1, bid: 1.39, ask: 1.3901 });
  const out = account.execute({ type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units } }, TUE_NOON + 2);
  expect(out.response['orderFillTransaction']?.type).toBe('ORDER_FILL');
  return account;
}

describe('daily financing', () => {
  it('names the New York trading day a rollover closes', () => {
    expect(rolloverWeekday(Date.UTC(2014, 4, 6, 21) * 1000)).toBe('TUESDAY');
    expect(rolloverWeekday(Date.UTC(2014, 4, 7, 21) * 1000)).toBe('WEDNESDAY');
    expect(rolloverWeekday(Date.UTC(2014, 0, 8, 22) * 1000)).toBe('WEDNESDAY'); // EST: 22:00 UTC
  });

  it('charges a long trade the long rate for one day at the Tuesday rollover, stamped at 17:00 New York', () => {
    const account = openLong('10000');
    account.onQuote({ instrument: 'EUR_USD', time: TUE_NOON + 10 * HOUR, bid: 1.392, ask: 1.3921 });
    const financing = account.log.find((t) => t.type === 'DAILY_FINANCING');
    // 10000 × mid 1.39005 (the last quote before 21:00 UTC) × −0.0566 / 365 = −2.1556
    const expected = new Decimal(10000).times('1.39005').times('-0.0566').dividedBy(365).toFixed(4);
    expect(financing).toMatchObject({
      type: 'DAILY_FINANCING',
      financing: expected,
      accountBalance: new Decimal('100000').plus(expected).toFixed(4),
      accountFinancingMode: 'DAILY',
      time: '2014-05-06T21:00:00.000000000Z',
      positionFinancings: [
        {
          instrument: 'EUR_USD',
          financing: expected,
          openTradeFinancings: [{ tradeID: '4', financing: expected, financingRate: '-0.0566' }],
        },
      ],
    });
    // The trade, the position and the account all carry it; the balance moved by it.
    expect(balanceOf(account.state).toFixed(4)).toBe(new Decimal('100000').plus(expected).toFixed(4));
    expect(account.state.trades.get(4)?.financing.toFixed(4)).toBe(expected);
    expect(account.state.financing.toFixed(4)).toBe(expected);
  });

  it('charges three days on Wednesday and nothing on Saturday', () => {
    const account = openLong('-10000');
    const wednesdayNight = Date.UTC(2014, 4, 8, 1) * 1000; // past Tuesday's and Wednesday's rollovers
    account.advance(wednesdayNight);
    const charges = account.log.filter((t) => t.type === 'DAILY_FINANCING');
    expect(charges).toHaveLength(2);
    const [tuesday, wednesday] = charges.map((t) => new Decimal((t as { financing: string }).financing));
    // Short trades earn the short rate (+0.0336 for EUR_USD here): three times as much on Wednesday.
    expect(tuesday?.isPositive()).toBe(true);
    expect(wednesday?.toFixed(4)).toBe(new Decimal(10000).times('1.39005').times('0.0336').times(3).dividedBy(365).toFixed(4));
    account.advance(Date.UTC(2014, 4, 11, 1) * 1000); // through Thursday, Friday and Saturday rollovers
    const later = account.log.filter((t) => t.type === 'DAILY_FINANCING');
    expect(later.map((t) => t.time)).toEqual([
      '2014-05-06T21:00:00.000000000Z',
      '2014-05-07T21:00:00.000000000Z',
      '2014-05-08T21:00:00.000000000Z',
      '2014-05-09T21:00:00.000000000Z',
    ]);
  });

  it('writes nothing when no trade is open, and replays to the same balance', () => {
    const flat = Account.open({ id: ID, currency: 'USD' }, instruments, TUE_NOON);
    flat.advance(TUE_NOON + 48 * HOUR);
    expect(flat.log.some((t) => t.type === 'DAILY_FINANCING')).toBe(false);
    const account = openLong('10000');
    account.advance(TUE_NOON + 30 * HOUR);
    const replayed = Account.replay({ id: ID, currency: 'USD' }, instruments, JSON.parse(JSON.stringify(account.log)));
    expect(balanceOf(replayed.state).toFixed(4)).toBe(balanceOf(account.state).toFixed(4));
    expect(replayed.state.trades.get(4)?.financing.toFixed(4)).toBe(account.state.trades.get(4)?.financing.toFixed(4));
  });

  it('USD_JPY on a USD account: the JPY charge converts with the fee, and each position carries base, quote and factors', () => {
    const account = Account.open({ id: ID, currency: 'USD', balance: '100000' }, instruments, TUE_NOON);
    account.onQuote({ instrument: 'USD_JPY', time: TUE_NOON + 1, bid: 102, ask: 102.02 });
    account.execute({ type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'USD_JPY', units: '-10000' } }, TUE_NOON + 2); // trade 4
    account.advance(TUE_NOON + 10 * HOUR);
    const financing = account.log.find((t) => t.type === 'DAILY_FINANCING');
    // A short pays -0.0612 a year: 10000 USD x -0.0612 / 365 in base units, x mid 102.01 in JPY,
    // a loss converted at 1 / 102.01 x 1.005.
    const base = new Decimal(10000).times('-0.0612').dividedBy(365);
    const quote = base.times('102.01');
    const home = quote.dividedBy('102.01').times('1.005').toFixed(4);
    expect(financing).toMatchObject({
      financing: home,
      positionFinancings: [
        {
          instrument: 'USD_JPY',
          financing: home,
          baseFinancing: base.toFixed(14),
          quoteFinancing: quote.toFixed(14),
          homeConversionFactors: {
            gainQuoteHome: { factor: new Decimal(1).dividedBy('102.01').times('0.995').toFixed(8) },
            lossQuoteHome: { factor: new Decimal(1).dividedBy('102.01').times('1.005').toFixed(8) },
            gainBaseHome: { factor: '1' },
            lossBaseHome: { factor: '1' },
          },
          openTradeFinancings: [
            { tradeID: '4', financing: home, baseFinancing: base.toFixed(14), quoteFinancing: quote.toFixed(14), financingRate: '-0.0612' },
          ],
          accountFinancingMode: 'DAILY',
        },
      ],
    });
    expect(financing).not.toHaveProperty('requestID');
  });
});
