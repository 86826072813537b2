import { describe, expect, it } from 'vitest';
import { reportJson, runBacktest, type BacktestOptions } from '../../src/backtest/index.js';
import { quotes, strategyOf } from './helpers.js';

const TICKS = quotes([
  [1.1, 1.1002],
  [1.1001, 1.1003],
]);
const run = (account: BacktestOptions['account']) =>
  runBacktest({ strategy: strategyOf({ onTick() {} }), ticks: TICKS, ...(account === undefined ? {} : { account }) });

describe('report.json: the account a run was made with', () => {
  it('shows hedging always and the margin settings that were set', () => {
    expect(reportJson(run(undefined)).run.account).toEqual({ hedgingEnabled: false });
    const set = { hedgingEnabled: true, marginPreset: 'oanda-corporation-us', marginCloseout: false, homeConversionFee: '0.01' };
    expect(reportJson(run(set)).run.account).toEqual(set);
  });

  it('gives runs that differ in any account setting different config digests, and the defaults the digest they had', () => {
    const digests = [
      undefined,
      { marginPreset: 'oanda-corporation-us' },
      { marginCloseout: false },
      { homeConversionFee: '0.01' },
      { hedgingEnabled: true },
    ].map((account) => run(account).configDigest);
    expect(new Set(digests).size).toBe(digests.length);
    // Spelling the defaults out is the same configuration as leaving them out.
    expect(run({ hedgingEnabled: false }).configDigest).toBe(digests[0]);
  });
});
