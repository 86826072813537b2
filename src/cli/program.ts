/**
 * The v20sim command line: every command, option and help text, parsed by commander. This module
 * only parses; it imports nothing of the simulator, so `v20sim --help` loads no more than this.
 * Each command's module is loaded when that command runs (main.ts) and checks the values.
 */
import { Command, CommanderError, Option } from 'commander';
// options.ts alone, not the feeds' index: it names the formats and imports nothing.
import { FEED_FORMATS } from '../engine/feeds/options.js';
import { downloadCommand, recordCommand } from './program-remote.js';
import { reportCommand } from './program-report.js';
import { BACKTEST_AFTER, BACKTEST_DESCRIPTION, SCENARIO_AFTER, SCENARIO_DESCRIPTION, SERVE_AFTER } from './program-help.js';
import { workerCommand } from './program-worker.js';
import { VERSION } from './version.js';

export type CommandName = 'serve' | 'backtest' | 'scenario run' | 'scenario check' | 'report' | 'download candles' | 'record' | 'worker';

/** What the command line asks for. */
export type Parsed =
  /**
   * Help or the version: print `text` and exit with `exitCode`. Exit code 2 is help shown for a
   * missing command (`v20sim`, `v20sim scenario`): a usage error, so it goes to stderr.
   */
  | { readonly kind: 'print'; readonly text: string; readonly exitCode: 0 | 2 }
  /** Bad usage: `flag` (an option or an argument; '' for none) and why; exit code 2. */
  | { readonly kind: 'usage'; readonly command: string; readonly flag: string; readonly why: string }
  | {
      readonly kind: 'run';
      readonly command: CommandName;
      readonly options: Readonly<Record<string, unknown>>;
      readonly operands: readonly string[];
      /** The options on the command line (long form), e.g. to tell --generator from --no-generator. */
      readonly given: ReadonlySet<string>;
    };

const HELP_WIDTH = 100;

/** The tick file formats, as the --ticks help lists them. */
const TICK_FORMATS = FEED_FORMATS.join(', ');

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function serveCommand(): Command {
  return new Command('serve')
    .summary('run the v20 paper-trading server')
    .description(
      `Starts an OANDA v20 compatible paper-trading server (REST and streams on one port).
With no options: two demo accounts (USD, EUR), a printed token, seeded prices for the
major pairs paced in real time, on http://127.0.0.1:8080.`,
    )
    .option('--config <file>', 'JSON or YAML config: accounts, tokens, instruments, prices, clock, ...')
    .option('--host <host>', 'interface to listen on (default 127.0.0.1)')
    .option('--port <n>', 'port (default 8080; 0 picks a free one)')
    .option('--data-dir <dir>', 'journal every transaction to DIR and restore from it on start')
    .option('--fsync', 'fdatasync each journal write (survives power loss, slower)')
    .option('--recover-truncated', 'start even if a journal lost acknowledged transactions: keep what is sound, record the loss')
    .option('--ticks <files...>', `replay recorded ticks (${TICK_FORMATS}; .gz/.zip)`)
    .option('--format <fmt>', 'format of the --ticks files (default: detected)')
    .option('--instrument <name>', 'instrument of --ticks files whose lines do not name one')
    .option('--generator <seed>', 'seeded generated prices (default in live mode: seed 1, major pairs)')
    .addOption(new Option('--no-generator', 'live mode without generated prices (push ticks via /sim/ticks)'))
    .option(
      '--clock <mode>',
      'live (wall clock), replay (tick times at --speed), or manual (only /sim/clock/advance and /sim/ticks move time); default: replay with --ticks, else live',
    )
    .option('--speed <n|max>', 'replay speed factor (default 1 = real time)')
    .option('--seed <seed>', 'run seed, recorded with the run (default 1)')
    .option('--start <datetime>', 'simulated start time for replay/manual (RFC3339)')
    .option('--from <datetime>', 'replay the --ticks files from this time (inclusive; RFC3339 with a zone, YYYY-MM-DD or UNIX seconds)')
    .option('--to <datetime>', 'replay the --ticks files up to this time (exclusive; same forms); they are read no further')
    .option('--token <token>', 'API token for every account (default: configured or random)')
    .option('--admin-token <token>', 'token of the /sim control API (default: configured or random)')
    .option(
      '--enum-spelling <s>',
      'how Order resources spell DEFAULT values: interface (POSITION_DEFAULT, TRIGGER_DEFAULT, DEFAULT_FILL; the default) or documented (DEFAULT)',
    )
    .option(
      '--price-stream-throttle-ms <ms>',
      'pricing stream: at most one price per instrument per this many simulated ms, the latest (default 250 as v20; 0 = every price)',
    )
    .option('--base-url <url>', 'http(s)://host[:port] used in Location and Link URLs (default: the Host asked for, if it is ours)')
    .option(
      '--allowed-hosts <names>',
      'comma-separated Host names answered besides localhost, the listen address and --base-url; * for any',
    )
    .option(
      '--limit <name=value>',
      'a limit (repeatable): requestsPerSecondPerConnection, newConnectionsPerSecond, newConnectionsBurst, streamsPerAccount, maxConnections, headersTimeoutMs, requestTimeoutMs, idleTimeoutMs; 0 = none',
      collect,
    )
    .addOption(new Option('--no-limits', 'no rate, connection, stream or timeout limits'))
    .addHelpText('after', SERVE_AFTER);
}

function backtestCommand(): Command {
  return new Command('backtest')
    .summary('run a strategy over tick files')
    .usage('--strategy FILE [--ticks FILE...] [options]')
    .description(BACKTEST_DESCRIPTION)
    .option('--strategy <file>', 'strategy module (TypeScript runs without a build step)')
    .option(
      '--ticks <files...>',
      `tick files, merged by time (${TICK_FORMATS}; plain, .gz or .zip). Default: the shipped sample (EUR_USD and USD_JPY, 2-5 January 2024, generated)`,
    )
    .option('--format <fmt>', 'format of the tick files (default: detected per file)')
    .option('--instrument <name>', 'instrument of tick files whose lines do not name one')
    .option('--from <datetime>', 'only ticks at or after this time (RFC3339 with a zone, YYYY-MM-DD for midnight UTC, or UNIX seconds)')
    .option('--to <datetime>', 'only ticks before this time (exclusive; same forms); the files are read no further')
    .option(
      '--config <file>',
      'JSON with any of: strategy, ticks, format, instrument, from, to, params, out, accountCurrency, balance, hedging, marginPreset, marginCloseout, homeConversionFee, equityInterval, rank, workers (paths relative to the file; options given here win)',
    )
    .option(
      '--param <name=value>',
      'a strategy parameter (repeatable, once per name). Several values (a,b,c) or a range (start:stop:step) make a sweep over every combination',
      collect,
    )
    .option('--out <dir>', 'output folder (default backtest-out)')
    .option('--account-currency <cur>', 'home currency of the account (default USD)')
    .option('--balance <n>', 'opening balance (default 100000)')
    .option('--hedging', 'a hedging account (long and short trades side by side)')
    .option('--equity-interval <dur>', 'mark-to-market interval: 30s, 1m, 1h, 1d (default 1m)')
    .option(
      '--rank <metric>',
      'sweep ranking: sharpe (default), sortino, netPL, return, maxDrawdown, profitFactor, winRate, expectancy, trades, ...',
    )
    .option('--workers <n>', 'threads for a sweep, this one included (default: chosen from the amount of work, at most one per core)')
    .option(
      '--queue <url>',
      'run the sweep on `v20sim worker`s through Redis (redis://HOST:PORT/DB) instead of threads here (a sweep only)',
    )
    .addOption(new Option('--queue-timeout <s>', 'give up when Redis does not answer for this long (default 60)').hideHelp())
    .addHelpText('after', BACKTEST_AFTER);
}

function scenarioRunOptions(): Option[] {
  return [
    new Option('-u, --update', 'rewrite golden transaction logs instead of comparing them'),
    new Option('-r, --reporter <name>', 'pretty (default), junit or tap'),
    new Option('-o, --output <file>', 'write the report to FILE (the pretty log still goes to stdout)'),
    new Option(
      '-j, --jobs <n>',
      'threads, this one included (default: chosen from the amount of work, at most one per core; 1 runs every file in this process)',
    ),
    new Option('-q, --quiet', 'pretty: list the steps of failing scenarios only'),
    new Option('--color', 'ANSI colours even when stdout is not a terminal'),
    new Option('--no-color', 'no ANSI colours'),
  ];
}

function scenarioCommand(): Command {
  const scenario = new Command('scenario')
    .summary('run or check scenario files')
    .usage('run|check [PATHS or GLOBS...] [options]')
    .description(SCENARIO_DESCRIPTION)
    .addHelpText('after', SCENARIO_AFTER);
  const run = scenario
    .command('run')
    .description('Runs the scenario files and reports the results.')
    .argument('[paths...]', 'scenario files, directories or globs');
  const check = scenario
    .command('check')
    .description('Validates the files against the schema and the references (tick files, marks, variables) without running them.')
    .argument('[paths...]', 'scenario files, directories or globs');
  // check takes run's options too (and ignores them), so a run command line checks as it is.
  for (const [command, hidden] of [
    [run, false],
    [check, true],
  ] as const) {
    for (const option of scenarioRunOptions()) command.addOption(hidden ? option.hideHelp() : option);
  }
  return scenario;
}

/** The commands that only group subcommands (scenario run, download candles). */
const GROUPS: ReadonlySet<string> = new Set(['scenario', 'download']);

/** Options that may be given more than once (everywhere, or in one command); every other long option only once. */
const REPEATABLE = new Set(['--param', '--ticks backtest', '--limit', '--instrument download candles', '--instrument record']);

function buildProgram(onRun: (command: Command, name: CommandName) => void): Command {
  const program = new Command('v20sim')
    .usage('<command> [options]')
    .version(VERSION, '-v, --version', 'print the version')
    .helpCommand(true);
  for (const command of [
    serveCommand(),
    backtestCommand(),
    scenarioCommand(),
    reportCommand(),
    downloadCommand(),
    recordCommand(),
    workerCommand(),
  ])
    program.addCommand(command);
  const leaves: [Command, CommandName][] = [];
  for (const command of program.commands) {
    if (command.commands.length === 0) leaves.push([command, command.name() as CommandName]);
    for (const sub of command.commands) leaves.push([sub, `${command.name()} ${sub.name()}` as CommandName]);
  }
  for (const [command, name] of leaves) {
    // Unknown options and stray arguments come back as operands, so the message can name them.
    command
      .allowUnknownOption()
      .allowExcessArguments()
      .action(() => onRun(command, name));
  }
  const configure = (command: Command): void => {
    command
      .helpOption('-h, --help', 'this help')
      .exitOverride()
      .configureHelp({ helpWidth: HELP_WIDTH, showGlobalOptions: false })
      .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined });
    command.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/** How often each long option of `command` appears in `argv` (as --flag or --flag=value). */
function countGiven(command: Command, argv: readonly string[]): Map<string, number> {
  const given = new Map<string, number>();
  for (const option of command.options) {
    const flag = option.long;
    if (flag === undefined) continue;
    const count = argv.filter((arg) => arg === flag || arg.startsWith(`${flag}=`)).length;
    if (count > 0) given.set(flag, count);
  }
  return given;
}

/** The help of a command (or of the program), as `--help` prints it. */
function helpText(path: readonly string[] = []): string {
  let command = buildProgram(() => undefined);
  for (const name of path) command = command.commands.find((c) => c.name() === name) ?? command;
  return command.helpInformation().trimEnd();
}

/**
 * `v20sim help [command [subcommand]]`: that command's help, or an unknown name as a usage error
 * (commander's own help command prints nothing for an unknown name, and exits 0).
 */
function helpOf(names: readonly string[]): Parsed {
  let command = buildProgram(() => undefined);
  for (const [i, name] of names.entries()) {
    const sub = command.commands.find((c) => c.name() === name);
    if (sub === undefined) {
      const group = names.slice(0, i).join(' ');
      // Under a group, the group's own message; under a command that has none, the whole path.
      if (GROUPS.has(group)) return { kind: 'usage', command: group, flag: '', why: `unknown command ${JSON.stringify(name)}` };
      return { kind: 'usage', command: '', flag: '', why: `unknown command ${JSON.stringify(names.slice(0, i + 1).join(' '))}` };
    }
    command = sub;
  }
  return { kind: 'print', text: command.helpInformation().trimEnd(), exitCode: 0 };
}

function usageFromError(error: CommanderError, argv: readonly string[]): Parsed {
  const command = argv[0] ?? '';
  // Commander names the option as declared ("option '--port <n>' argument missing").
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'commander.optionMissingArgument':
      return { kind: 'usage', command, flag: option, why: option === '--ticks' ? 'needs at least one file' : 'needs a value' };
    case 'commander.unknownOption':
      // Before any command (v20sim --bogus) or after a group (v20sim scenario --bogus): a leaf
      // command allows unknown options and names them itself (checkRun).
      return { kind: 'usage', command: GROUPS.has(command) ? command : '', flag: option, why: 'unknown option' };
    case 'commander.unknownCommand':
      return {
        kind: 'usage',
        command: GROUPS.has(command) ? command : '',
        flag: '',
        why: `unknown command ${JSON.stringify(/unknown command '([^']*)'/.exec(error.message)?.[1] ?? '')}`,
      };
    default:
      return { kind: 'usage', command, flag: option, why: error.message.replace(/^error: /, '') };
  }
}

/** Parses the arguments after `v20sim`. Never prints, never exits. */
export function parseArgv(argv: readonly string[]): Parsed {
  if (argv.length === 0) return { kind: 'print', text: helpText(), exitCode: 2 };
  // A group without its subcommand is missing a command, as `v20sim` alone is.
  if (argv.length === 1 && GROUPS.has(argv[0] as string)) return { kind: 'print', text: helpText([argv[0] as string]), exitCode: 2 };
  if (argv[0] === 'help') return helpOf(argv.slice(1));
  let out = '';
  let run: Parsed | undefined;
  const program = buildProgram((command, name) => {
    run = checkRun(command, name, countGiven(command, argv));
  });
  const capture = (command: Command): void => {
    command.configureOutput({ writeOut: (text) => void (out += text), writeErr: () => undefined, outputError: () => undefined });
    command.commands.forEach(capture);
  };
  capture(program);
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
      return { kind: 'print', text: out.trimEnd(), exitCode: 0 };
    }
    return usageFromError(error, argv);
  }
  return run ?? { kind: 'print', text: helpText(), exitCode: 2 };
}

function checkRun(command: Command, name: CommandName, given: ReadonlyMap<string, number>): Parsed {
  const label = name.split(' ')[0] as string;
  for (const [flag, count] of given) {
    if (count > 1 && !REPEATABLE.has(flag) && !REPEATABLE.has(`${flag} ${name}`))
      return { kind: 'usage', command: label, flag, why: 'given twice' };
  }
  const options = command.opts();
  for (const [key, value] of Object.entries(options)) {
    // A value option followed by another option: commander takes the option as the value.
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v === 'string' && v.startsWith('--') && v.length > 2) {
        const flag = command.options.find((o) => o.attributeName() === key)?.long ?? key;
        return { kind: 'usage', command: label, flag, why: flag === '--ticks' ? 'needs at least one file' : 'needs a value' };
      }
    }
  }
  const operands = command.args;
  const takesPaths = name === 'scenario run' || name === 'scenario check';
  for (const arg of operands) {
    if (arg === '--') break;
    if (arg.startsWith('-') && arg !== '-')
      return { kind: 'usage', command: label, flag: arg.split('=')[0] as string, why: 'unknown option' };
    if (!takesPaths) return { kind: 'usage', command: label, flag: arg, why: 'unexpected argument' };
  }
  return { kind: 'run', command: name, options, operands: operands.filter((a) => a !== '--'), given: new Set(given.keys()) };
}

/**
 * Exit codes of every command: 0 done, 1 runtime failure, 2 invalid options or config, 130 a queued
 * sweep cancelled by Ctrl-C or SIGTERM (the shell's 128 + SIGINT).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** A usage error as serve's option checks word it: `--port: needs a value` (see args.ts). */
export function serveUsageWhy(parsed: Extract<Parsed, { kind: 'usage' }>): string {
  const hint = parsed.why === 'unknown option' || parsed.why === 'unexpected argument' ? ' (see v20sim serve --help)' : '';
  return `${parsed.why}${hint}`;
}

/** The one-line message of a usage error, prefixed with the command ("v20sim backtest: ..."). */
export function usageMessage(parsed: Extract<Parsed, { kind: 'usage' }>): string {
  const { command, flag, why } = parsed;
  // serve words every refusal as "<source>: <field>: <why>", options and config file alike.
  if (command === 'serve') return `v20sim: options: ${flag === '' ? '' : `${flag}: `}${serveUsageWhy(parsed)}`;
  const see = `see v20sim ${command === '' ? '' : `${command} `}--help`;
  let text: string;
  if (flag === '') text = `${why} (${see})`;
  else if (why === 'unknown option') text = `unknown option ${flag} (${see})`;
  else if (why === 'unexpected argument') text = `unexpected argument ${JSON.stringify(flag)} (${see})`;
  else text = `${flag} ${why}`;
  return `v20sim${command === '' ? '' : ` ${command}`}: ${text}`;
}

/** A bad option value found after parsing (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
