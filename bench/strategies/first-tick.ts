/**
 * A strategy that reports when its first tick arrives: milliseconds since its process started
 * (performance.now() counts from the process's time origin), on stderr. bench/startup.ts reads it.
 * It places no orders, so the rest of the run is the tick loop and the outputs.
 */
import type { StrategyDefinition } from '../../src/backtest/index.js';

let reported = false;

const strategy: StrategyDefinition<Record<string, never>> = {
  name: 'first-tick',
  params: {},
  create() {
    return {
      onTick() {
        if (reported) return;
        reported = true;
        process.stderr.write(`first tick at ${performance.now().toFixed(1)} ms\n`);
      },
    };
  },
};

export default strategy;
