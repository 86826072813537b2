import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULT_PATTERNS, expandScenarioPaths } from '../scenario/files.js';
import { loadScenario, ScenarioInvalid } from '../scenario/load.js';
import { runScenarioFiles } from '../scenario/pool.js';
import {
  exitCodeOf,
  junitReport,
  prettyResult,
  prettySummary,
  REPORTERS,
  tapReport,
  where,
  type ReporterName,
} from '../scenario/report.js';
import type { ScenarioResult } from '../scenario/result.js';
import { EXIT, UsageError, parseArgv, usageMessage, type Parsed as CommandLine } from './program.js';

type RunParsed = Extract<CommandLine, { kind: 'run' }>;

export interface ScenarioIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

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

/** The checked options of a parsed `scenario run` or `scenario check`. */
function optionsOf(parsed: RunParsed): Parsed {
  const o = parsed.options;
  const reporter = typeof o['reporter'] === 'string' ? o['reporter'] : 'pretty';
  if (!(REPORTERS as readonly string[]).includes(reporter))
    throw new UsageError(`unknown reporter '${reporter}' (expected ${REPORTERS.join(', ')})`);
  let jobs: number | undefined;
  if (typeof o['jobs'] === 'string') {
    jobs = Number(o['jobs']);
    if (!Number.isInteger(jobs) || jobs < 1 || jobs > 1024) throw new UsageError(`--jobs must be a whole number from 1, got ${o['jobs']}`);
  }
  return {
    command: parsed.command === 'scenario check' ? 'check' : 'run',
    patterns: [...parsed.operands],
    update: o['update'] === true,
    reporter: reporter as ReporterName,
    output: typeof o['output'] === 'string' ? o['output'] : undefined,
    jobs,
    quiet: o['quiet'] === true,
    color: typeof o['color'] === 'boolean' ? o['color'] : undefined,
  };
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
export async function runScenarioCommand(args: readonly string[], io: ScenarioIo): Promise<number> {
  const parsed = parseArgv(['scenario', ...args]);
  if (parsed.kind === 'print') {
    // `v20sim scenario` alone is missing its subcommand: the help goes to stderr with exit code 2.
    await write(parsed.exitCode === 0 ? io.stdout : io.stderr, `${parsed.text}\n`);
    return parsed.exitCode;
  }
  if (parsed.kind === 'usage') {
    await write(io.stderr, `${usageMessage(parsed)}\n`);
    return EXIT.usage;
  }
  return runParsedScenario(parsed, io);
}

/** Usage problems as the exit code 2 with a message; anything else is a bug and propagates. */
class Refusal extends Error {}

function scenarioFiles(parsed: Parsed, cwd: string): string[] {
  const patterns = parsed.patterns.length > 0 ? parsed.patterns : [...DEFAULT_PATTERNS];
  let expanded: { files: string[]; unmatched: string[] };
  try {
    expanded = expandScenarioPaths(patterns, cwd);
  } catch (err) {
    throw new Refusal((err as Error).message);
  }
  if (expanded.unmatched.length > 0 && parsed.patterns.length > 0)
    throw new Refusal(`no scenario files match ${expanded.unmatched.map((p) => JSON.stringify(p)).join(', ')}`);
  if (expanded.files.length === 0) throw new Refusal(`no scenario files (looked for ${patterns.join(' ')})`);
  return expanded.files;
}

async function check(files: readonly string[], cwd: string, io: ScenarioIo): Promise<number> {
  let invalid = 0;
  for (const file of files) {
    try {
      loadScenario(file, cwd, { readTickFiles: true });
      await write(io.stdout, `ok ${file}\n`);
    } catch (err) {
      if (!(err instanceof ScenarioInvalid)) throw err;
      invalid += 1;
      await write(io.stdout, `INVALID ${file}\n${err.problems.map((p) => `  ${where(p.location)}: ${p.message}`).join('\n')}\n`);
    }
  }
  await write(io.stdout, `\n${files.length - invalid} valid, ${invalid} invalid\n`);
  return invalid > 0 ? EXIT.usage : EXIT.ok;
}

function reportOf(options: Parsed, results: readonly ScenarioResult[], elapsed: number): string {
  switch (options.reporter) {
    case 'pretty':
      return results.map((r) => prettyResult(r, { quiet: options.quiet })).join('') + prettySummary(results, elapsed);
    case 'junit':
      return junitReport(results);
    case 'tap':
      return tapReport(results);
  }
}

async function run(files: readonly string[], options: Parsed, cwd: string, io: ScenarioIo): Promise<number> {
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
    throw new Refusal((err as Error).stack ?? String(err));
  }
  await Promise.all(pending);
  const elapsed = performance.now() - began;
  const report = reportOf(options, results, elapsed);
  if (options.output !== undefined) {
    const out = resolve(cwd, options.output);
    try {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, report);
    } catch (err) {
      throw new Refusal(`cannot write ${options.output}: ${(err as Error).message}`);
    }
    await write(io.stdout, `${prettySummary(results, elapsed).trimStart()}Report (${options.reporter}) written to ${options.output}\n`);
  } else {
    await write(io.stdout, options.reporter === 'pretty' ? prettySummary(results, elapsed) : report);
  }
  return exitCodeOf(results);
}

/** `v20sim scenario run|check` with its options parsed (see program.ts). */
export async function runParsedScenario(command: RunParsed, io: ScenarioIo): Promise<number> {
  try {
    const options = optionsOf(command);
    const cwd = process.cwd();
    const files = scenarioFiles(options, cwd);
    return await (options.command === 'check' ? check(files, cwd, io) : run(files, options, cwd, io));
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof Refusal)) throw err;
    await write(io.stderr, `v20sim scenario: ${err.message}\n`);
    return EXIT.usage;
  }
}
