import { describe, expect, it } from 'vitest';
import { DEFAULT_INSTRUMENTS, baseCurrency, buildCatalogue, isInstrumentName, quoteCurrency, type InstrumentSpec } from './instruments.js';
import { isDecimalString } from './decimal.js';

const MAJORS = ['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'AUD', 'NZD', 'CAD'];

function spec(name: string, catalogue: ReadonlyMap<string, InstrumentSpec> = buildCatalogue()): InstrumentSpec {
  const found = catalogue.get(name);
  if (!found) throw new Error(`missing ${name}`);
  return found;
}

describe('DEFAULT_INSTRUMENTS', () => {
  it('holds the 28 pairs of the 8 majors, each pair once, names unique', () => {
    expect(DEFAULT_INSTRUMENTS).toHaveLength(28);
    const names = DEFAULT_INSTRUMENTS.map((s) => s.name);
    expect(new Set(names).size).toBe(28);
    const pairs = new Set(DEFAULT_INSTRUMENTS.map((s) => [baseCurrency(s.name), quoteCurrency(s.name)].sort().join('/')));
    expect(pairs.size).toBe(28); // no pair listed in both directions
    for (const s of DEFAULT_INSTRUMENTS) {
      expect(MAJORS).toContain(baseCurrency(s.name));
      expect(MAJORS).toContain(quoteCurrency(s.name));
      expect(baseCurrency(s.name)).not.toBe(quoteCurrency(s.name));
    }
  });

  it('gives JPY-quoted pairs precision 3 and pip -2, the others 5 and -4', () => {
    for (const s of DEFAULT_INSTRUMENTS) {
      const jpy = quoteCurrency(s.name) === 'JPY';
      expect([s.name, s.displayPrecision, s.pipLocation]).toEqual([s.name, jpy ? 3 : 5, jpy ? -2 : -4]);
    }
    expect(DEFAULT_INSTRUMENTS.filter((s) => quoteCurrency(s.name) === 'JPY')).toHaveLength(7);
    expect(spec('USD_JPY').displayPrecision).toBe(3);
    expect(spec('EUR_USD').displayPrecision).toBe(5);
  });

  it('has well-formed v20 fields', () => {
    for (const s of DEFAULT_INSTRUMENTS) {
      expect(isInstrumentName(s.name)).toBe(true);
      expect(s.type).toBe('CURRENCY');
      expect(s.displayName).toBe(s.name.replace('_', '/'));
      expect(s.tradeUnitsPrecision).toBe(0);
      for (const value of [
        s.minimumTradeSize,
        s.maximumTrailingStopDistance,
        s.minimumTrailingStopDistance,
        s.maximumPositionSize,
        s.maximumOrderUnits,
        s.marginRate,
        s.financing.longRate,
        s.financing.shortRate,
      ]) {
        expect(isDecimalString(value)).toBe(true);
      }
      expect(Number(s.marginRate)).toBeGreaterThan(0);
      expect(Number(s.marginRate)).toBeLessThanOrEqual(1);
      expect(s.financing.financingDaysOfWeek).toHaveLength(7);
      const charged = s.financing.financingDaysOfWeek.reduce((sum, day) => sum + day.daysCharged, 0);
      expect(charged).toBe(7); // Wednesday carries the weekend
    }
    expect(spec('EUR_USD').marginRate).toBe('0.0333');
  });
});

describe('isInstrumentName, baseCurrency, quoteCurrency', () => {
  it('checks the BASE_QUOTE shape', () => {
    expect(isInstrumentName('EUR_USD')).toBe(true);
    expect(isInstrumentName('DE30_EUR')).toBe(true);
    expect(isInstrumentName('XAU_USD')).toBe(true);
    for (const bad of ['eur_usd', 'EURUSD', 'EUR-USD', 'E_USD', 'EUR_', '_USD', 'EUR_USD_X', ' EUR_USD', 'ABCDEFGHIJK_USD', '']) {
      expect(isInstrumentName(bad)).toBe(false);
    }
    expect(isInstrumentName(42)).toBe(false);
    expect(isInstrumentName(undefined)).toBe(false);
  });

  it('splits names', () => {
    expect(baseCurrency('EUR_USD')).toBe('EUR');
    expect(quoteCurrency('EUR_USD')).toBe('USD');
    expect(baseCurrency('DE30_EUR')).toBe('DE30');
    expect(quoteCurrency('DE30_EUR')).toBe('EUR');
  });
});

describe('buildCatalogue', () => {
  it('without overrides holds the defaults in their order', () => {
    const catalogue = buildCatalogue();
    expect([...catalogue.keys()]).toEqual(DEFAULT_INSTRUMENTS.map((s) => s.name));
    expect(spec('GBP_JPY', catalogue)).toBe(DEFAULT_INSTRUMENTS.find((s) => s.name === 'GBP_JPY'));
  });

  it('merges an override field by field into an existing instrument', () => {
    const before = spec('EUR_USD');
    const catalogue = buildCatalogue([{ name: 'EUR_USD', marginRate: '0.02', minimumTradeSize: '1000' }]);
    const eurUsd = spec('EUR_USD', catalogue);
    expect(eurUsd).toEqual({ ...before, marginRate: '0.02', minimumTradeSize: '1000' });
    expect(catalogue.size).toBe(28);
    // The defaults are not mutated.
    expect(spec('EUR_USD')).toEqual(before);
    expect(DEFAULT_INSTRUMENTS.find((s) => s.name === 'EUR_USD')?.marginRate).toBe('0.0333');
  });

  it('applies later overrides of the same instrument on top of earlier ones', () => {
    const catalogue = buildCatalogue([
      { name: 'EUR_USD', marginRate: '0.02' },
      { name: 'EUR_USD', displayPrecision: 4 },
    ]);
    expect(spec('EUR_USD', catalogue)).toMatchObject({ marginRate: '0.02', displayPrecision: 4, pipLocation: -4 });
  });

  it('adds a new instrument from an FX-like template', () => {
    const catalogue = buildCatalogue([
      { name: 'XAU_USD', type: 'METAL', displayName: 'Gold', displayPrecision: 3, pipLocation: -2, marginRate: '0.05' },
    ]);
    expect(catalogue.size).toBe(29);
    const gold = spec('XAU_USD', catalogue);
    expect(gold).toMatchObject({
      name: 'XAU_USD',
      type: 'METAL',
      displayName: 'Gold',
      displayPrecision: 3,
      pipLocation: -2,
      marginRate: '0.05',
    });
    expect(gold.tradeUnitsPrecision).toBe(0);
    expect(gold.financing.longRate).toBe('0');
    expect(gold.financing.shortRate).toBe('0');
    expect(gold.financing.financingDaysOfWeek).toHaveLength(7);
    expect([...catalogue.keys()].at(-1)).toBe('XAU_USD');
  });

  it('defaults the margin rate of a new instrument to 0.05', () => {
    const catalogue = buildCatalogue([{ name: 'USD_SEK', displayPrecision: 5, pipLocation: -4 }]);
    expect(spec('USD_SEK', catalogue)).toMatchObject({ marginRate: '0.05', displayName: 'USD/SEK', type: 'CURRENCY' });
  });

  it('builds on a given base instead of the defaults', () => {
    const base = [spec('EUR_USD')];
    const catalogue = buildCatalogue([{ name: 'EUR_USD', marginRate: '0.5' }], base);
    expect([...catalogue.keys()]).toEqual(['EUR_USD']);
    expect(spec('EUR_USD', catalogue).marginRate).toBe('0.5');
  });

  it.each(['eur_usd', 'EURUSD', 'EUR/USD', ''])('throws for the invalid name %j', (name) => {
    expect(() => buildCatalogue([{ name }])).toThrow(/BASE_QUOTE/);
  });
});
