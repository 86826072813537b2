/**
 * `v20sim backtest` in a process of its own, for the determinism test:
 * node --import tsx test/backtest/run-cli.ts --strategy ... --out ...
 */
import { runBacktestCommand } from '../../src/cli/backtest-command.js';

process.exitCode = await runBacktestCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, isTTY: false });
