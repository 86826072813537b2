/** The longer help texts of the command line (program.ts): descriptions and the lines after the options. */

export const SERVE_AFTER = `
Examples:
  v20sim serve
  v20sim serve --ticks eurusd.csv --speed max
  v20sim serve --ticks eurusd.csv --from 2024-03-04 --to 2024-03-09 --speed 60
      (one week at a minute a second; the ticks before it are the candles' past)
  v20sim serve --ticks eurusd.csv --clock manual --data-dir state

The first line printed is "listening <base URL>".
Exit codes: 0 stopped by a signal, 1 runtime failure, 2 invalid options or config, 3 a data dir whose
journals lost acknowledged transactions (start with --recover-truncated to keep what is sound).`;

export const BACKTEST_DESCRIPTION = `Runs a strategy (a .ts or .js module whose default export is a StrategyDefinition) over
recorded ticks in one simulated v20 account, and writes to the output folder:
  transactions.ndjson  every v20 transaction of the account, one per line
  trades.csv           every trade: entry, exit, P/L, financing, spread cost
  equity.csv           mark-to-market equity at a fixed simulated interval and at every fill
  report.json          net P/L, return, drawdown, Sharpe, Sortino, win rate, profit factor, ...
  report.html          a self-contained page with charts (opens offline)
Same inputs, same files, byte for byte.`;

export const BACKTEST_AFTER = `
Examples:
  v20sim backtest --strategy examples/strategies/ma-crossover.ts
  v20sim backtest --strategy examples/strategies/grid.ts --ticks data/*.zip --param levels=6
  v20sim backtest --strategy examples/strategies/grid.ts --ticks data/*.zip --from 2014-05-05 --to 2014-05-10
  v20sim backtest --strategy examples/strategies/ma-crossover.ts --param fast=5,10,20 --param slow=50,100 --rank sharpe
  v20sim backtest --strategy s.ts --ticks /shared/ticks/*.zip --param fast=5,10,20 --queue redis://10.0.0.5:6379/0

Exit codes: 0 done, 1 the run failed (strategy error, unreadable data), 2 invalid options.`;

export const SCENARIO_DESCRIPTION = `Runs scenario files (YAML or JSON): accounts, prices, requests to the v3 API and the
responses, transactions, state and stream lines they must produce.
Default files: scenarios/**/*.{yaml,yml,json}. A directory means every .yaml/.yml/.json below it.`;

export const SCENARIO_AFTER = `
The options of run (reporter, output file, jobs, golden updates): v20sim scenario run --help
Exit codes: 0 all passed, 1 a scenario failed, 2 an invalid file or bad usage.
Schema for editors: schema/scenario.schema.json (in the package)`;
