import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario, ScenarioInvalid } from '../../src/scenario/load.js';

/** The per-account options scenario files share with the config file and POST /sim/accounts. */
const dir = mkdtempSync(join(tmpdir(), 'v20sim-account-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function load(account: string) {
  n += 1;
  const file = join(dir, `s${n}.yaml`);
  writeFileSync(file, `name: t\nconfig:\n  start: 2024-01-02T12:00:00Z\n  accounts:\n    - ${account}\nsteps:\n  - advance: T+1s\n`);
  return loadScenario(file, dir);
}

function problems(account: string): string[] {
  try {
    load(account);
  } catch (err) {
    if (err instanceof ScenarioInvalid) return err.problems.map((p) => p.message);
    throw err;
  }
  throw new Error('expected the scenario to be invalid');
}

describe('scenario account options', () => {
  it('copies marginCloseout, marginPreset and homeConversionFee into the account config', () => {
    const s = load('{ id: 101-004-1234567-001, marginCloseout: false, marginPreset: oanda-japan, homeConversionFee: "0.01" }');
    expect(s.config.accounts).toEqual([
      { id: '101-004-1234567-001', currency: 'USD', marginCloseout: false, marginPreset: 'oanda-japan', homeConversionFee: '0.01' },
    ]);
  });

  it('leaves them out when not given (the account takes the defaults)', () => {
    expect(load('{ id: 101-004-1234567-001 }').config.accounts).toEqual([{ id: '101-004-1234567-001', currency: 'USD' }]);
  });

  it('accepts a fee of 0 and of just under 0.1', () => {
    expect(load('{ id: 101-004-1234567-001, homeConversionFee: "0" }').config.accounts[0]?.homeConversionFee).toBe('0');
    expect(load('{ id: 101-004-1234567-001, homeConversionFee: "0.0999" }').config.accounts[0]?.homeConversionFee).toBe('0.0999');
  });

  it.each(['"0.1"', '"-0.001"', '"1"', '"half"'])('refuses homeConversionFee %s', (fee) => {
    expect(problems(`{ id: 101-004-1234567-001, homeConversionFee: ${fee} }`)).toEqual([
      `config.accounts[0].homeConversionFee: must be a decimal string in [0, 0.1), e.g. "0.005", got ${fee}`,
    ]);
  });

  it('refuses a fee given as a number (decimals are strings, as in v20)', () => {
    expect(problems('{ id: 101-004-1234567-001, homeConversionFee: 0.005 }')).toEqual([
      'config.accounts[0].homeConversionFee: must be string, got 0.005',
    ]);
  });

  it('refuses an unknown marginPreset and a non-boolean marginCloseout', () => {
    expect(problems('{ id: 101-004-1234567-001, marginPreset: nowhere }')).toEqual([
      'config.accounts[0].marginPreset: must be one of "oanda-europe-esma", "oanda-corporation-us", "oanda-australia-asic", "oanda-japan", "legacy", got "nowhere"',
    ]);
    expect(problems('{ id: 101-004-1234567-001, marginCloseout: "no" }')).toEqual([
      'config.accounts[0].marginCloseout: must be boolean, got "no"',
    ]);
  });

  it('copies mt4AccountID (an account tied to MT4) and refuses one that is not a positive integer', () => {
    expect(load('{ id: 101-004-1234567-001, mt4AccountID: 5012345 }').config.accounts).toEqual([
      { id: '101-004-1234567-001', currency: 'USD', mt4AccountID: 5012345 },
    ]);
    expect(problems('{ id: 101-004-1234567-001, mt4AccountID: 0 }')).toHaveLength(1);
    expect(problems('{ id: 101-004-1234567-001, mt4AccountID: "5012345" }')).toHaveLength(1);
  });
});
