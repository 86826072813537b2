import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { checkAccountConfig } from './account-config.js';

const catalogue = buildCatalogue();
const base = { id: '101-004-1234567-001', currency: 'USD' };

describe('account setting homeConversionFee', () => {
  it('accepts a decimal string in [0, 0.1) and keeps it', () => {
    expect(checkAccountConfig({ ...base, homeConversionFee: '0.01' }, catalogue)).toEqual({ ...base, homeConversionFee: '0.01' });
    expect(checkAccountConfig({ ...base, homeConversionFee: '0' }, catalogue)).toEqual({ ...base, homeConversionFee: '0' });
    expect(checkAccountConfig(base, catalogue)).toEqual(base);
  });

  it('refuses numbers, negatives and 10 % or more', () => {
    for (const homeConversionFee of [0.005, '-0.001', '0.1', 'half', '']) {
      expect(checkAccountConfig({ ...base, homeConversionFee }, catalogue)).toMatchObject({ field: 'homeConversionFee' });
    }
  });
});
