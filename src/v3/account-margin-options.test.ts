import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { checkAccountConfig } from './account-config.js';

const CATALOGUE = buildCatalogue();
const ACCOUNT_ID = '101-004-1234567-001';

describe('account margin settings', () => {
  it('is checked with the other account settings (config file, POST /sim/accounts, scenario accounts)', () => {
    expect(checkAccountConfig({ id: ACCOUNT_ID, currency: 'USD', marginPreset: 'oanda-japan', marginCloseout: false }, CATALOGUE)).toEqual({
      id: ACCOUNT_ID,
      currency: 'USD',
      marginPreset: 'oanda-japan',
      marginCloseout: false,
    });
    expect(checkAccountConfig({ id: ACCOUNT_ID, currency: 'USD', marginPreset: 'mars' }, CATALOGUE)).toMatchObject({
      field: 'marginPreset',
    });
    expect(checkAccountConfig({ id: ACCOUNT_ID, currency: 'USD', marginCloseout: 'no' }, CATALOGUE)).toMatchObject({
      field: 'marginCloseout',
    });
  });
});
