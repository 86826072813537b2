import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strategyFrame } from './strategy-frame.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function thrown(frames: string[]): Error {
  const error = new Error('boom');
  error.stack = ['Error: boom', ...frames.map((f) => `    at ${f}`)].join('\n');
  return error;
}

describe('strategyFrame', () => {
  it("names the first frame outside v20sim's code and Node's, file URLs as paths", () => {
    const error = thrown([
      `Decimal.plus (${root}node_modules/decimal.js/decimal.mjs:10:3)`,
      `check (${root}dist/bundle/chunk-X.js:5:1)`,
      'Object.onTick (file:///home/me/my%20strategies/s.ts:13:34)',
      `StrategyHooks.tick (${root}src/backtest/hooks.ts:133:29)`,
    ]);
    expect(strategyFrame(error)).toBe('/home/me/my strategies/s.ts:13:34');
    expect(strategyFrame(thrown(['node:internal/x:1:1', '/srv/helper.js:2:5']))).toBe('/srv/helper.js:2:5');
  });

  it('is undefined when no frame is the strategy’s, or for something thrown that is not an Error', () => {
    expect(strategyFrame(thrown([`run (${root}src/backtest/run.ts:1:1)`, 'node:internal/modules:2:2']))).toBeUndefined();
    expect(strategyFrame('a string')).toBeUndefined();
  });
});
