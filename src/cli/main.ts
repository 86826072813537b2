/**
 * The v20sim command: `node --import tsx src/cli/main.ts serve ...`, `npm start`, or bin/v20sim.js.
 * The only module that touches process.argv, signals and exit codes.
 */
import process from 'node:process';
import { EXIT, runCli } from './cli.js';
import type { ServeHandle, ServeIo } from './serve.js';

const io: ServeIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  fatal: (message) => {
    process.stderr.write(`${message}\n`);
    // Synchronous exit: nothing after this point (no response) runs.
    process.exit(EXIT.failure);
  },
};

const argv = process.argv.slice(2);
const command = argv[0];

if (command === 'backtest') {
  // Loaded on demand: serve does not pay for the backtest's modules, nor the other way round.
  const { runBacktestCommand } = await import('./backtest-command.js');
  process.exitCode = await runBacktestCommand(argv.slice(1), { stdout: process.stdout, stderr: process.stderr, isTTY: process.stderr.isTTY === true });
} else if (command === 'scenario') {
  const { runScenarioCommand } = await import('./scenario-command.js');
  process.exitCode = await runScenarioCommand(argv.slice(1), { stdout: process.stdout, stderr: process.stderr });
} else {
  await serveMain();
}

async function serveMain(): Promise<void> {
  process.on('uncaughtException', (error) => io.fatal(`v20sim: internal error: ${error.stack ?? String(error)}`));
  process.on('unhandledRejection', (error) => io.fatal(`v20sim: internal error: ${(error as Error).stack ?? String(error)}`));

  // Signals are handled from the start: one that arrives while the server starts stops it once it is up.
  let server: ServeHandle | undefined;
  let stopping: NodeJS.Signals | undefined;
  const shutdown = (handle: ServeHandle): void => {
    handle.close().then(
      () => process.exit(EXIT.ok),
      (error: unknown) => io.fatal(`v20sim: shutdown failed: ${(error as Error).message}`),
    );
  };
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping !== undefined) {
      io.err(`v20sim: ${signal} again, exiting now`);
      process.exit(EXIT.failure);
    }
    stopping = signal;
    io.err(`v20sim: ${signal}, shutting down`);
    if (server !== undefined) shutdown(server);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const result = await runCli(argv, io);
  if (result.exitCode !== undefined) {
    // Not process.exit(): stdout may be an asynchronous pipe with lines still to write.
    process.exitCode = result.exitCode;
  } else if (result.server !== undefined) {
    server = result.server;
    if (stopping !== undefined) shutdown(server);
  }
}
