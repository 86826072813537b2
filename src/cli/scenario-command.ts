import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULT_PATTERNS, expandScenarioPaths } from '../scenario/files.js';
import { loadScenario, ScenarioInvalid, SCHEMA_URL } from '../scenario/load.js';
import { runScenarioFiles } from '../scenario/pool.js';
import { exitCodeOf, junitReport, prettyResult, prettySummary, REPORTERS, tapReport, where, type ReporterName } from '../scenario/report.js';
import type { ScenarioResult } from '../scenario/run.js';

export interface ScenarioIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

const USAGE = `Usage: v20sim scenario run [PATHS or GLOBS...] [options]
       v20sim scenario check [PATHS or GLOBS...]

Runs scenario files (YAML or JSON): accounts, prices, requests to the v3 API and the
responses, transactions, state and stream lines they must produce.
Default files: ${DEFAULT_PATTERNS.join(' ')}. A directory means every .yaml/.yml/.json below it.

Options (run):
  -u, --update            rewrite golden transaction logs instead of comparing them
  -r, --reporter NAME     pretty (default), junit or tap
  -o, --output FILE       write the report to FILE (the pretty log still goes to stdout)
  -j, --jobs N            worker threads (default: one per core; 1 runs in this process)
  -q, --quiet             pretty: list the steps of failing scenarios only
      --no-color          no ANSI colours
  -h, --help              this text

check: validates the files against the schema and the references (tick files, marks,
variables) without running them.

Exit codes: 0 all passed, 1 a scenario failed, 2 an invalid file or bad usage.
Schema for editors: ${SCHEMA_URL.pathname}`;

interface Parsed {
  command: 'run' | 'check';
  patterns: string[];
  update: boolean;
  reporter: ReporterName;
  output: string | undefined;
  jobs: number | undefined;
  quiet: boolean;
  color: boolean | undefined;
}

class UsageError extends Error {}

function parseArgs(args: readonly string[]): Parsed | 'help' {
  const rest = [...args];
  const command = rest.shift();
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') return 'help';
  if (command !== 'run' && command !== 'check') throw new UsageError(`unknown scenario command '${command}' (expected run or check)`);
  const parsed: Parsed = { command, patterns: [], update: false, reporter: 'pretty', output: undefined, jobs: undefined, quiet: false, color: undefined };
  const value = (flag: string): string => {
    const v = rest.shift();
    if (v === undefined || (v.startsWith('-') && v !== '-')) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  while (rest.length > 0) {
    let arg = rest.shift() as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    if (eq > 0) {
      rest.unshift(arg.slice(eq + 1));
      arg = arg.slice(0, eq);
    }
    switch (arg) {
      case '-h':
      case '--help':
        return 'help';
      case '-u':
      case '--update':
        parsed.update = true;
        break;
      case '-r':
      case '--reporter': {
        const name = value(arg);
        if (!(REPORTERS as readonly string[]).includes(name)) throw new UsageError(`unknown reporter '${name}' (expected ${REPORTERS.join(', ')})`);
        parsed.reporter = name as ReporterName;
        break;
      }
      case '-o':
      case '--output':
        parsed.output = value(arg);
        break;
      case '-j':
      case '--jobs': {
        const text = value(arg);
        const n = Number(text);
        if (!Number.isInteger(n) || n < 1 || n > 1024) throw new UsageError(`--jobs must be a whole number from 1, got ${text}`);
        parsed.jobs = n;
        break;
      }
      case '-q':
      case '--quiet':
        parsed.quiet = true;
        break;
      case '--no-color':
        parsed.color = false;
        break;
      case '--color':
        parsed.color = true;
        break;
      case '--':
        parsed.patterns.push(...rest.splice(0));
        break;
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
        parsed.patterns.push(arg);
    }
  }
  return parsed;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolveWrite) => {
    if (text === '') {
      resolveWrite();
      return;
    }
    stream.write(text, () => resolveWrite());
  });
}

function wantsColor(stream: NodeJS.WritableStream): boolean {
  const env = process.env;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true;
  return (stream as NodeJS.WritableStream & { isTTY?: boolean }).isTTY === true;
}

/**
 * `v20sim scenario ...`: returns the exit code (0 passed, 1 a scenario failed, 2 an invalid file
 * or bad usage) instead of exiting, so main.ts decides when the process ends.
 */
export async function runScenarioCommand(args: string[], io: ScenarioIo): Promise<number> {
  let parsed: Parsed | 'help';
  try {
    parsed = parseArgs(args);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    await write(io.stderr, `v20sim scenario: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') {
    await write(io.stdout, `${USAGE}\n`);
    return 0;
  }
  const cwd = process.cwd();
  const patterns = parsed.patterns.length > 0 ? parsed.patterns : [...DEFAULT_PATTERNS];
  let files: string[];
  let unmatched: string[];
  try {
    ({ files, unmatched } = expandScenarioPaths(patterns, cwd));
  } catch (err) {
    await write(io.stderr, `v20sim scenario: ${(err as Error).message}\n`);
    return 2;
  }
  if (unmatched.length > 0 && parsed.patterns.length > 0) {
    await write(io.stderr, `v20sim scenario: no scenario files match ${unmatched.map((p) => JSON.stringify(p)).join(', ')}\n`);
    return 2;
  }
  if (files.length === 0) {
    await write(io.stderr, `v20sim scenario: no scenario files (looked for ${patterns.join(' ')})\n`);
    return 2;
  }

  if (parsed.command === 'check') {
    let invalid = 0;
    for (const file of files) {
      try {
        loadScenario(file, cwd);
        await write(io.stdout, `ok ${file}\n`);
      } catch (err) {
        if (!(err instanceof ScenarioInvalid)) throw err;
        invalid += 1;
        await write(io.stdout, `INVALID ${file}\n${err.problems.map((p) => `  ${where(p.location)}: ${p.message}`).join('\n')}\n`);
      }
    }
    await write(io.stdout, `\n${files.length - invalid} valid, ${invalid} invalid\n`);
    return invalid > 0 ? 2 : 0;
  }

  const options = parsed;
  const color = options.color ?? wantsColor(io.stdout);
  // The pretty log goes to stdout unless another reporter is writing there.
  const prettyToStdout = options.reporter === 'pretty' || options.output !== undefined;
  const began = performance.now();
  const pending: Promise<void>[] = [];
  let results: ScenarioResult[];
  try {
    results = await runScenarioFiles(files, {
      cwd,
      update: options.update,
      ...(options.jobs === undefined ? {} : { jobs: options.jobs }),
      onResult: (result) => {
        if (prettyToStdout) pending.push(write(io.stdout, prettyResult(result, { color, quiet: options.quiet })));
      },
    });
  } catch (err) {
    await write(io.stderr, `v20sim scenario: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  }
  await Promise.all(pending);
  const elapsed = performance.now() - began;
  let report: string;
  switch (options.reporter) {
    case 'pretty':
      report = results.map((r) => prettyResult(r, { quiet: options.quiet })).join('') + prettySummary(results, elapsed);
      break;
    case 'junit':
      report = junitReport(results);
      break;
    case 'tap':
      report = tapReport(results);
      break;
  }
  if (options.output !== undefined) {
    const out = resolve(cwd, options.output);
    try {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, report);
    } catch (err) {
      await write(io.stderr, `v20sim scenario: cannot write ${options.output}: ${(err as Error).message}\n`);
      return 2;
    }
    await write(io.stdout, `${prettySummary(results, elapsed).trimStart()}Report (${options.reporter}) written to ${options.output}\n`);
  } else if (options.reporter === 'pretty') {
    await write(io.stdout, prettySummary(results, elapsed));
  } else {
    await write(io.stdout, report);
  }
  return exitCodeOf(results);
}
