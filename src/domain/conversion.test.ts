import { describe, expect, it } from 'vitest';
import { conversionPath, type QuotedPairs } from './conversion.js';

function pairs(...names: string[]): QuotedPairs {
  return { quoted: (n) => names.includes(n), pairName: (b, q) => `${b}_${q}`, quotedNames: () => [...names].sort() };
}

describe('conversionPath', () => {
  it('home to home needs no leg; one pair either way round is one leg', () => {
    expect(conversionPath('USD', 'USD', pairs())).toEqual([]);
    expect(conversionPath('EUR', 'USD', pairs('EUR_USD'))).toEqual([{ instrument: 'EUR_USD', inverse: false }]);
    expect(conversionPath('JPY', 'USD', pairs('USD_JPY'))).toEqual([{ instrument: 'USD_JPY', inverse: true }]);
  });

  it('through USD before any other chain of two', () => {
    // JPY -> EUR: EUR_JPY is not quoted; through USD (USD_JPY, EUR_USD) rather than through GBP
    const legs = conversionPath('JPY', 'EUR', pairs('GBP_JPY', 'EUR_GBP', 'USD_JPY', 'EUR_USD'));
    expect(legs).toEqual([
      { instrument: 'USD_JPY', inverse: true },
      { instrument: 'EUR_USD', inverse: true },
    ]);
  });

  it('else the shortest chain, neighbours taken in instrument-name order', () => {
    // GBP -> USD with no GBP_USD: GBP_JPY then USD_JPY inverted (the base of a GBP_JPY trade on a USD account)
    expect(conversionPath('GBP', 'USD', pairs('GBP_JPY', 'USD_JPY'))).toEqual([
      { instrument: 'GBP_JPY', inverse: false },
      { instrument: 'USD_JPY', inverse: true },
    ]);
    // AUD -> EUR: AUD_CAD and AUD_CHF both lead on; AUD_CAD comes first by name
    expect(conversionPath('AUD', 'EUR', pairs('AUD_CHF', 'AUD_CAD', 'EUR_CHF', 'EUR_CAD'))).toEqual([
      { instrument: 'AUD_CAD', inverse: false },
      { instrument: 'EUR_CAD', inverse: true },
    ]);
    // three legs
    expect(conversionPath('NZD', 'EUR', pairs('NZD_CAD', 'CAD_CHF', 'EUR_CHF'))).toHaveLength(3);
  });

  it('null when no chain of quoted pairs links the currencies', () => {
    expect(conversionPath('JPY', 'EUR', pairs('USD_JPY', 'GBP_CHF'))).toBeNull();
    expect(conversionPath('JPY', 'EUR', pairs())).toBeNull();
  });
});
