/**
 * The v20sim command: `node --import tsx src/cli/main.ts serve ...`, `npm start`, or bin/v20sim.js.
 * The only module that touches process.argv, signals and exit codes. Each command's module is
 * loaded when that command runs, so help and usage errors load nothing but the parser.
 */
import process from 'node:process';
import { EXIT, parseArgv, usageMessage, type Parsed } from './program.js';
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

/**
 * A signal the first Ctrl-C or SIGTERM aborts, for a command that stops cleanly (closes its file,
 * finishes or releases its work); a second signal exits at once with `exitCode`.
 */
function stopOnSignal(exitCode: number): { readonly signal: AbortSignal; release(): void } {
  const stop = new AbortController();
  const onSignal = (): void => (stop.signal.aborted ? process.exit(exitCode) : stop.abort());
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return { signal: stop.signal, release: () => void process.off('SIGINT', onSignal).off('SIGTERM', onSignal) };
}

const parsed = parseArgv(process.argv.slice(2));

if (parsed.kind === 'print') {
  // Help for a missing command (exit code 2) answers a usage error: stderr, as the other ones.
  (parsed.exitCode === 0 ? io.out : io.err)(parsed.text);
  // Not process.exit(): stdout may be an asynchronous pipe with lines still to write.
  process.exitCode = parsed.exitCode;
} else if (parsed.kind === 'usage') {
  io.err(usageMessage(parsed));
  process.exitCode = EXIT.usage;
} else if (parsed.command === 'backtest') {
  const { runParsedBacktest } = await import('./backtest-command.js');
  // A queued sweep catches the first Ctrl-C (or SIGTERM) to take its unstarted runs off the queue;
  // a second one, or any other backtest, ends the process at once as before.
  const stop = parsed.options['queue'] === undefined ? undefined : stopOnSignal(EXIT.interrupted);
  process.exitCode = await runParsedBacktest(parsed, {
    stdout: process.stdout,
    stderr: process.stderr,
    isTTY: process.stderr.isTTY === true,
    ...(stop === undefined ? {} : { stop: stop.signal }),
  });
  stop?.release();
  if (stop?.signal.aborted === true) process.exitCode = EXIT.interrupted;
} else if (parsed.command === 'download candles') {
  const { runParsedDownload } = await import('./download-command.js');
  process.exitCode = await runParsedDownload(parsed, { stderr: process.stderr, isTTY: process.stderr.isTTY === true, env: process.env });
} else if (parsed.command === 'record') {
  const { runParsedRecord } = await import('./record-command.js');
  // The first Ctrl-C (or SIGTERM) ends the recording cleanly: the file is closed and renamed.
  const stop = stopOnSignal(EXIT.failure);
  process.exitCode = await runParsedRecord(parsed, {
    stderr: process.stderr,
    isTTY: process.stderr.isTTY === true,
    env: process.env,
    stop: stop.signal,
  });
  stop.release();
} else if (parsed.command === 'worker') {
  const { runParsedWorker } = await import('./worker-command.js');
  const stop = stopOnSignal(EXIT.failure);
  process.exitCode = await runParsedWorker(parsed, { stdout: process.stdout, stderr: process.stderr, stop: stop.signal });
  // BullMQ's and ioredis's handles are closed; exit now rather than wait on a reconnect timer.
  process.exit(process.exitCode);
} else if (parsed.command === 'serve') {
  await serveMain(parsed);
} else if (parsed.command === 'report') {
  const { runParsedReport } = await import('./report-command.js');
  process.exitCode = runParsedReport(parsed, { stdout: process.stdout, stderr: process.stderr });
} else {
  const { runParsedScenario } = await import('./scenario-command.js');
  process.exitCode = await runParsedScenario(parsed, { stdout: process.stdout, stderr: process.stderr });
}

async function serveMain(command: Extract<Parsed, { kind: 'run' }>): Promise<void> {
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
  // A file grown past the size limit (ulimit -f) must fail its write with EFBIG, answered like any
  // other disk error, not end the process: Node ignores SIGXFSZ, but the lock library's
  // signal-exit turns it into an exit unless another listener is there.
  process.on('SIGXFSZ', () => undefined);

  const { runServe } = await import('./cli.js');
  const result = await runServe(command, io);
  if (result.exitCode !== undefined) {
    process.exitCode = result.exitCode;
  } else if (result.server !== undefined) {
    server = result.server;
    if (stopping !== undefined) shutdown(server);
  }
}
