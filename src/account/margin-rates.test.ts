import { describe, expect, it } from 'vitest';
import { Account } from './account.js';
import { instrumentsForAccount } from './margin-rates.js';
import { ACCOUNT_ID, CATALOGUE, SECOND, T0 } from './test-helpers.js';
import { valueAccount } from './valuation.js';

describe('an account with a margin preset', () => {
  it('takes the division rates for its instruments and leaves the shared catalogue alone', () => {
    const us = instrumentsForAccount(CATALOGUE, 'oanda-corporation-us');
    expect(us.get('EUR_USD')?.marginRate).toBe('0.02');
    expect(CATALOGUE.get('EUR_USD')?.marginRate).toBe('0.0333');
    expect(instrumentsForAccount(CATALOGUE, undefined)).toBe(CATALOGUE);
    expect(() => instrumentsForAccount(CATALOGUE, 'nowhere')).toThrow(/marginPreset must be one of/);
  });

  it('margins its trades at those rates (US 50:1: 10,000 EUR_USD at mid 1.10005 use 220.01)', () => {
    const account = Account.open({ id: ACCOUNT_ID, currency: 'USD', marginPreset: 'oanda-corporation-us' }, CATALOGUE, T0);
    account.onQuote({ instrument: 'EUR_USD', time: T0 + SECOND, bid: 1.1, ask: 1.1001 });
    account.execute({ type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '10000' } }, T0 + 2 * SECOND);
    expect(valueAccount(account.state).marginUsed.toFixed(4)).toBe('220.0100');
    const replayed = Account.replay(
      { id: ACCOUNT_ID, currency: 'USD', marginPreset: 'oanda-corporation-us' },
      CATALOGUE,
      account.log.slice(),
    );
    expect(replayed.state.instruments.get('EUR_USD')?.marginRate).toBe('0.02');
  });
});
