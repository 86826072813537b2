import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { instrumentView } from './views.js';

describe('instrument tags', () => {
  const catalogue = buildCatalogue([
    { name: 'XAU_USD', type: 'METAL', displayName: 'Gold', displayPrecision: 3, pipLocation: -2, marginRate: '0.05' },
    { name: 'DE30_EUR', type: 'CFD', displayName: 'Germany 30', displayPrecision: 1, pipLocation: 0, marginRate: '0.05' },
  ]);
  const tags = (name: string): unknown => instrumentView(catalogue.get(name) as never)['tags'];

  it('are the ones live servers list for the type: every currency pair, a metal', () => {
    for (const name of ['EUR_USD', 'USD_JPY', 'EUR_AUD'])
      expect(tags(name)).toEqual([
        { type: 'ASSET_CLASS', name: 'CURRENCY' },
        { type: 'BRAIN_ASSET_CLASS', name: 'FX' },
      ]);
    expect(tags('XAU_USD')).toEqual([
      { type: 'ASSET_CLASS', name: 'COMMODITY' },
      { type: 'KID_ASSET_CLASS', name: 'METAL' },
      { type: 'BRAIN_ASSET_CLASS', name: 'METAL' },
    ]);
  });

  it('are none for a CFD, whose class the catalogue does not know', () => {
    expect(tags('DE30_EUR')).toEqual([]);
  });
});
