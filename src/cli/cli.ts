import { MAIN_USAGE, SERVE_USAGE, parseServeArgs } from './args.js';
import { ConfigError, loadConfigFile, resolveSettings, type FileConfig } from './config.js';
import { StartError, VERSION, randomToken, startServe, type ServeHandle, type ServeIo } from './serve.js';

/** Exit codes: 0 done, 1 runtime failure, 2 invalid options or config. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface CliResult {
  /** Set when the command finished (help, version, a refusal); a server keeps running instead. */
  readonly exitCode?: number;
  readonly server?: ServeHandle;
}

/** Runs the CLI on `argv` (without node and script). Never calls process.exit itself. */
export async function runCli(argv: readonly string[], io: ServeIo): Promise<CliResult> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.out(MAIN_USAGE);
    return { exitCode: command === undefined ? EXIT.usage : EXIT.ok };
  }
  if (command === '-v' || command === '--version') {
    io.out(VERSION);
    return { exitCode: EXIT.ok };
  }
  if (command !== 'serve') {
    io.err(`v20sim: unknown command ${JSON.stringify(command)}\n\n${MAIN_USAGE}`);
    return { exitCode: EXIT.usage };
  }
  try {
    const args = parseServeArgs(rest);
    if (args.help === true) {
      io.out(SERVE_USAGE);
      return { exitCode: EXIT.ok };
    }
    const file: FileConfig = args.config === undefined ? {} : loadConfigFile(args.config);
    const settings = resolveSettings(file, args, randomToken, args.config);
    const server = await startServe(settings, io);
    return { server };
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`v20sim: ${error.message}`);
      return { exitCode: EXIT.usage };
    }
    if (error instanceof StartError) {
      io.err(`v20sim: ${error.message}`);
      return { exitCode: error.exitCode };
    }
    throw error;
  }
}
