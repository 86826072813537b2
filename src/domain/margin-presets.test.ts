import { describe, expect, it } from 'vitest';
import { buildCatalogue } from './instruments.js';
import { DEFAULT_MARGIN_PRESET, MARGIN_PRESET_NAMES, presetMarginRate } from './margin-presets.js';

const fx = (name: string) => ({ name, type: 'CURRENCY' });

describe('margin presets by division', () => {
  it.each([
    ['oanda-europe-esma', 'EUR_USD', '0.0333'],
    ['oanda-europe-esma', 'USD_JPY', '0.0333'],
    ['oanda-europe-esma', 'GBP_CHF', '0.0333'],
    ['oanda-europe-esma', 'AUD_USD', '0.05'],
    ['oanda-europe-esma', 'EUR_NZD', '0.05'],
    ['oanda-corporation-us', 'EUR_USD', '0.02'],
    ['oanda-corporation-us', 'AUD_NZD', '0.02'],
    ['oanda-corporation-us', 'USD_SEK', '0.02'],
    ['oanda-corporation-us', 'USD_MXN', '0.05'],
    ['oanda-australia-asic', 'GBP_USD', '0.0333'],
    ['oanda-australia-asic', 'NZD_USD', '0.05'],
    ['oanda-japan', 'EUR_USD', '0.04'],
    ['legacy', 'EUR_USD', '0.0333'],
    ['legacy', 'USD_JPY', '0.04'],
    ['legacy', 'GBP_USD', '0.05'],
  ] as const)('%s: %s at %s', (preset, name, rate) => {
    expect(presetMarginRate(preset, fx(name))).toBe(rate);
  });

  it('ESMA and ASIC: gold and major indices 20:1, other metals and CFDs 10:1', () => {
    expect(presetMarginRate('oanda-europe-esma', { name: 'XAU_USD', type: 'METAL' })).toBe('0.05');
    expect(presetMarginRate('oanda-europe-esma', { name: 'XAG_USD', type: 'METAL' })).toBe('0.1');
    expect(presetMarginRate('oanda-australia-asic', { name: 'DE30_EUR', type: 'CFD' })).toBe('0.05');
    expect(presetMarginRate('oanda-europe-esma', { name: 'WTICO_USD', type: 'CFD' })).toBe('0.1');
  });

  it('leaves what it does not classify to the catalogue', () => {
    expect(presetMarginRate('oanda-corporation-us', { name: 'XAU_USD', type: 'METAL' })).toBeUndefined();
    expect(presetMarginRate('oanda-japan', { name: 'DE30_EUR', type: 'CFD' })).toBeUndefined();
  });

  it('the catalogue carries the default division (OANDA Europe, ESMA) for every built-in pair', () => {
    expect(DEFAULT_MARGIN_PRESET).toBe('oanda-europe-esma');
    for (const spec of buildCatalogue().values()) expect(spec.marginRate).toBe(presetMarginRate(DEFAULT_MARGIN_PRESET, spec));
    expect(MARGIN_PRESET_NAMES).toContain(DEFAULT_MARGIN_PRESET);
  });

  it('an instrument override still sets its own rate', () => {
    expect(buildCatalogue([{ name: 'GBP_USD', marginRate: '0.1' }]).get('GBP_USD')?.marginRate).toBe('0.1');
  });
});
