import { describe, expect, it } from 'vitest';
import { Account } from '../account/account.js';
import { buildCatalogue } from '../domain/instruments.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import { accountQuote, clientPrice } from './price.js';

const at = (text: string): Micros => parseDateTime(text) as Micros;

describe('ClientPrice.tradeable and the market hours', () => {
  // An account per test: quotes may not go back in time, whichever test runs first.
  const open = (): Account => Account.open({ id: '101-004-1234567-001', currency: 'USD' }, buildCatalogue(), at('2024-01-05T12:00:00Z'));

  it('is tradeable in the session it was quoted in, and no longer once the market has closed', () => {
    const account = open();
    account.onQuote({ instrument: 'EUR_USD', time: at('2024-01-05T21:59:00Z'), bid: 1.1, ask: 1.1002 });
    const friday = accountQuote(account.state, 'EUR_USD');
    if (friday === undefined) throw new Error('no quote');
    expect(clientPrice(friday)).toMatchObject({ tradeable: true, status: 'tradeable' });
    expect(clientPrice(friday, 'RFC3339', at('2024-01-05T21:59:59Z'))).toMatchObject({ tradeable: true });
    expect(clientPrice(friday, 'RFC3339', at('2024-01-06T12:00:00Z'))).toMatchObject({ tradeable: false, status: 'non-tradeable' });
  });

  it('is not tradeable when quoted in closed hours, though it is the price shown', () => {
    const account = open();
    account.onQuote({ instrument: 'EUR_USD', time: at('2024-01-06T12:00:00Z'), bid: 1.09, ask: 1.0902 });
    const saturday = accountQuote(account.state, 'EUR_USD');
    if (saturday === undefined) throw new Error('no quote');
    expect(clientPrice(saturday)).toMatchObject({
      tradeable: false,
      status: 'non-tradeable',
      bids: [{ price: '1.09000' }],
      asks: [{ price: '1.09020' }],
    });
  });

  it('stays tradeable for a quote that carries no session (a source without calendars)', () => {
    const quote = { instrument: 'EUR_USD', time: 0, precision: 5, bid: 110000, ask: 110020, closeoutBid: 110000, closeoutAsk: 110020 };
    expect(clientPrice(quote, 'RFC3339', at('2024-01-06T12:00:00Z'))).toMatchObject({ tradeable: true });
  });
});
