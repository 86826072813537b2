import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import { Sim, fillTx, cancelTx } from './test-helpers.js';
import { unitsAvailable, type UnitsAvailable } from './units-available.js';
import { valueAccount } from './valuation.js';

function available(sim: Sim, instrument = 'EUR_USD'): UnitsAvailable {
  const state = sim.account.state;
  return unitsAvailable(state, instrument, valueAccount(state).marginAvailable);
}

function texts(ua: UnitsAvailable): Record<string, [string, string]> {
  const out: Record<string, [string, string]> = {};
  for (const key of ['default', 'reduceFirst', 'reduceOnly', 'openOnly'] as const)
    out[key] = [ua[key].long.toString(), ua[key].short.toString()];
  return out;
}

/** Whether a MARKET order of these units fills, or why it is cancelled (the account is left as it was only on a cancel). */
function tryOrder(sim: Sim, units: string, positionFill = 'DEFAULT', instrument = 'EUR_USD'): string {
  const out = sim.order({ type: 'MARKET', instrument, units, positionFill });
  if (out.response['orderFillTransaction'] !== undefined) return `filled ${fillTx(out).units}`;
  return cancelTx(out).reason;
}

describe('unitsAvailable (ClientPrice.unitsAvailable)', () => {
  it('is margin available over the per-unit margin at mid, rounded down; a flat account has nothing to reduce', () => {
    const sim = new Sim({ balance: '1000' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    // EUR_USD margin rate 0.0333 for this account: 1000 / (1.1001 x 0.0333) = 27297.3...
    expect(texts(available(sim))).toEqual({
      default: ['27297', '27297'],
      reduceFirst: ['27297', '27297'],
      reduceOnly: ['0', '0'],
      openOnly: ['27297', '27297'],
    });
  });

  it('gives exactly the units the fill margin check lets through: one unit more is INSUFFICIENT_MARGIN', () => {
    for (const [balance, bid, ask] of [
      ['1000', 1.1, 1.1002],
      ['2500.5', 1.23456, 1.23471],
      ['77', 0.99999, 1.00001],
    ] as const) {
      const sim = new Sim({ balance });
      sim.quote('EUR_USD', bid, ask);
      const long = available(sim).default.long;
      expect(tryOrder(sim, long.plus(1).toString())).toBe('INSUFFICIENT_MARGIN');
      expect(tryOrder(sim, `-${long.plus(1).toString()}`)).toBe('INSUFFICIENT_MARGIN');
      expect(tryOrder(sim, long.toString())).toBe(`filled ${long.toString()}`);
    }
  });

  it('on a netting account counts the position: reduceFirst reduces it and reopens with the margin it frees, openOnly cannot go against it', () => {
    const sim = new Sim({ balance: '1000' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '10000');
    const ua = available(sim);
    const open = ua.openOnly.long;
    expect(ua.reduceOnly.long.toString()).toBe('0');
    expect(ua.reduceOnly.short.toString()).toBe('10000');
    expect(ua.openOnly.short.toString()).toBe('0');
    expect(ua.default).toEqual(ua.reduceFirst);
    // Selling first closes the 10,000 long (releasing its margin), then opens a short with what is free.
    expect(ua.reduceFirst.short.greaterThan(open.plus(10000 * 2 - 1))).toBe(true);
    expect(tryOrder(sim, `-${ua.reduceFirst.short.plus(1).toString()}`)).toBe('INSUFFICIENT_MARGIN');
    expect(tryOrder(sim, `-${ua.reduceFirst.short.toString()}`)).toBe(`filled -${ua.reduceFirst.short.toString()}`);
  });

  it('on a hedging account opens both ways whatever the position holds (DEFAULT is OPEN_ONLY there)', () => {
    const sim = new Sim({ balance: '1000', hedgingEnabled: true });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '10000');
    const ua = available(sim);
    expect(ua.default).toEqual(ua.openOnly);
    expect(ua.openOnly.short).toEqual(ua.openOnly.long);
    expect(ua.reduceOnly.short.toString()).toBe('10000');
  });

  it('converts the margin of a quote currency other than home, and is 0 without a conversion or a price', () => {
    const sim = new Sim({ balance: '1000' });
    sim.quote('USD_JPY', 150, 150.02);
    // Quote JPY into USD at 1 / 150.01: margin per unit 150.01 x (1 / 150.01) x 0.0333 (the account's rate) = 0.0333 USD.
    expect(available(sim, 'USD_JPY').openOnly.long.toString()).toBe('30030');
    expect(tryOrder(sim, '30031', 'DEFAULT', 'USD_JPY')).toBe('INSUFFICIENT_MARGIN');
    expect(tryOrder(sim, '30030', 'DEFAULT', 'USD_JPY')).toBe('filled 30030');
    // EUR_GBP: no price of its own yet, and GBP does not convert.
    expect(texts(available(sim, 'EUR_GBP')).default).toEqual(['0', '0']);
  });

  it('is capped at the instrument maximumOrderUnits', () => {
    const sim = new Sim({ balance: '100000000000' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    expect(available(sim).default.long).toEqual(new Decimal('100000000'));
  });
});
