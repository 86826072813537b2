import { serveArgsOf } from './args.js';
import { ConfigError, loadConfigFile, type FileConfig } from './config.js';
import { resolveSettings } from './settings.js';
import { EXIT, parseArgv, usageMessage, type Parsed } from './program.js';
import { StartError, randomToken, startServe, type ServeHandle, type ServeIo } from './serve.js';

export interface CliResult {
  /** Set when the command finished (help, version, a refusal); a server keeps running instead. */
  readonly exitCode?: number;
  readonly server?: ServeHandle;
}

/** Runs the CLI on `argv` (without node and script) as far as `serve`. Never calls process.exit itself. */
export async function runCli(argv: readonly string[], io: ServeIo): Promise<CliResult> {
  const parsed = parseArgv(argv);
  if (parsed.kind === 'print') {
    (parsed.exitCode === 0 ? io.out : io.err)(parsed.text);
    return { exitCode: parsed.exitCode };
  }
  if (parsed.kind === 'usage') {
    io.err(usageMessage(parsed));
    return { exitCode: EXIT.usage };
  }
  if (parsed.command !== 'serve') {
    io.err(`v20sim: ${parsed.command} does not run through runCli`);
    return { exitCode: EXIT.usage };
  }
  return runServe(parsed, io);
}

/** `v20sim serve` with its parsed options: checks them, reads the config file and starts the server. */
export async function runServe(parsed: Extract<Parsed, { kind: 'run' }>, io: ServeIo): Promise<CliResult> {
  try {
    const args = serveArgsOf(parsed);
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
