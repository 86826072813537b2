import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseArgv, usageMessage, type Parsed } from '../../src/cli/program.js';

function run(argv: string[]): Extract<Parsed, { kind: 'run' }> {
  const parsed = parseArgv(argv);
  if (parsed.kind !== 'run') throw new Error(`expected a command to run, got ${JSON.stringify(parsed)}`);
  return parsed;
}

function usage(argv: string[]): string {
  const parsed = parseArgv(argv);
  if (parsed.kind !== 'usage') throw new Error(`expected a usage error, got ${JSON.stringify(parsed)}`);
  return usageMessage(parsed);
}

function help(argv: string[]): string {
  const parsed = parseArgv(argv);
  if (parsed.kind !== 'print') throw new Error(`expected help, got ${JSON.stringify(parsed)}`);
  return parsed.text;
}

describe('the command line (commander)', () => {
  it("generates each command's help from its options", () => {
    const serve = help(['serve', '--help']);
    for (const flag of [
      '--config',
      '--host',
      '--port',
      '--data-dir',
      '--fsync',
      '--ticks <files...>',
      '--format',
      '--instrument',
      '--generator',
      '--no-generator',
      '--clock',
      '--speed',
      '--seed',
      '--start',
      '--token',
      '--admin-token',
    ]) {
      expect(serve).toContain(flag);
    }
    const backtest = help(['backtest', '--help']);
    for (const flag of [
      '--strategy',
      '--ticks <files...>',
      '--param',
      '--out',
      '--account-currency',
      '--balance',
      '--hedging',
      '--equity-interval',
      '--rank',
      '--workers',
      'Exit codes:',
    ]) {
      expect(backtest).toContain(flag);
    }
    expect(help(['scenario', 'run', '--help'])).toContain('-r, --reporter <name>');
    expect(help(['--help'])).toMatch(/serve .*\n.*backtest .*\n.*scenario .*\n.*report .*\n.*download .*\n.*record /);
    const download = help(['download', 'candles', '--help']);
    for (const flag of [
      '--url',
      '--token',
      '--instrument',
      '--granularity',
      '--from',
      '--to',
      '--out',
      '--format',
      '--mid',
      '--include-incomplete',
      '--retries',
      'OANDA_TOKEN',
      'Exit codes:',
    ]) {
      expect(download).toContain(flag);
    }
    // Debug options for tests stay out of the help.
    expect(download).not.toContain('--page-size');
    expect(help(['help', 'scenario', 'run'])).toContain('Usage: v20sim scenario run [options] [paths...]');
    expect(help(['help', 'download', 'candles'])).toContain('--instrument');
    const record = help(['record', '--help']);
    for (const flag of [
      '--url',
      '--stream-url',
      '--token',
      '--account',
      '--instrument',
      '--out',
      '--duration',
      '--count',
      '--heartbeat-timeout',
      '--retries',
      'Exit codes:',
    ]) {
      expect(record).toContain(flag);
    }
    // A missing command, top-level or in a group: the help, as a usage error.
    expect(parseArgv([])).toMatchObject({ kind: 'print', exitCode: 2 });
    expect(parseArgv(['scenario'])).toMatchObject({ kind: 'print', exitCode: 2, text: expect.stringContaining('run|check') });
    expect(parseArgv(['download'])).toMatchObject({ kind: 'print', exitCode: 2, text: expect.stringContaining('candles') });
    expect(parseArgv(['--version'])).toMatchObject({ kind: 'print', exitCode: 0 });
  });

  it('takes every file after --ticks up to the next option, and --param again and again', () => {
    const parsed = run(['backtest', '--ticks', 'a.zip', 'b.zip', '--param', 'fast=5', '--param', 'slow=9', '--hedging', '--ticks=c.zip']);
    expect(parsed.options).toMatchObject({ ticks: ['a.zip', 'b.zip', 'c.zip'], param: ['fast=5', 'slow=9'], hedging: true });
    expect(run(['scenario', 'run', 'x.yaml', '-j', '2', 'y.yaml', '--no-color']).operands).toEqual(['x.yaml', 'y.yaml']);
    const download = run(['download', 'candles', '--instrument', 'EUR_USD', '--instrument', 'USD_JPY', '--page-size', '7']);
    expect(download).toMatchObject({ command: 'download candles', options: { instrument: ['EUR_USD', 'USD_JPY'], pageSize: '7' } });
    expect(run(['record', '--instrument', 'EUR_USD', '--instrument=USD_JPY']).options).toMatchObject({
      instrument: ['EUR_USD', 'USD_JPY'],
    });
  });

  it('names what is wrong, per command', () => {
    expect(usage(['frobnicate'])).toBe('v20sim: unknown command "frobnicate" (see v20sim --help)');
    expect(usage(['help', 'frobnicate'])).toBe('v20sim: unknown command "frobnicate" (see v20sim --help)');
    expect(usage(['help', 'scenario', 'walk'])).toBe('v20sim scenario: unknown command "walk" (see v20sim scenario --help)');
    expect(usage(['help', 'serve', 'now'])).toBe('v20sim: unknown command "serve now" (see v20sim --help)');
    expect(usage(['--bogus'])).toBe('v20sim: unknown option --bogus (see v20sim --help)');
    expect(usage(['-x', 'serve'])).toBe('v20sim: unknown option -x (see v20sim --help)');
    expect(usage(['scenario', '--bogus'])).toBe('v20sim scenario: unknown option --bogus (see v20sim scenario --help)');
    expect(usage(['download', '--bogus=1'])).toBe('v20sim download: unknown option --bogus (see v20sim download --help)');
    expect(usage(['serve', '--port'])).toBe('v20sim: options: --port: needs a value');
    expect(usage(['serve', '--port', '--host', 'x'])).toBe('v20sim: options: --port: needs a value');
    expect(usage(['serve', '--seed', '1', '--seed', '2'])).toBe('v20sim: options: --seed: given twice');
    expect(usage(['backtest', '--bogus'])).toBe('v20sim backtest: unknown option --bogus (see v20sim backtest --help)');
    expect(usage(['backtest', 'stray'])).toBe('v20sim backtest: unexpected argument "stray" (see v20sim backtest --help)');
    expect(usage(['backtest', '--ticks'])).toBe('v20sim backtest: --ticks needs at least one file');
    expect(usage(['scenario', 'walk'])).toBe('v20sim scenario: unknown command "walk" (see v20sim scenario --help)');
    expect(usage(['download', 'ticks'])).toBe('v20sim download: unknown command "ticks" (see v20sim download --help)');
    expect(usage(['download', 'candles', '--out'])).toBe('v20sim download: --out needs a value');
    expect(usage(['download', 'candles', '--out', 'a', '--out', 'b'])).toBe('v20sim download: --out given twice');
    expect(usage(['record', '--bogus'])).toBe('v20sim record: unknown option --bogus (see v20sim record --help)');
  });
});

describe('the v20sim process: help and usage errors', () => {
  /** `v20sim ARGS` run to its end: exit code, stdout and stderr. */
  function exec(args: string[]): { code: number | null; out: string; err: string } {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8' });
    return { code: r.status, out: r.stdout, err: r.stderr };
  }

  it('answers a missing, unknown or misspelt command with exit code 2 on stderr, and help asked for on stdout', () => {
    const none = exec([]);
    expect(none).toMatchObject({ code: 2, out: '' });
    expect(none.err).toContain('Usage: v20sim <command> [options]');
    const group = exec(['scenario']);
    expect(group).toMatchObject({ code: 2, out: '' });
    expect(group.err).toContain('Usage: v20sim scenario run|check');
    expect(exec(['help', 'bogus'])).toEqual({ code: 2, out: '', err: 'v20sim: unknown command "bogus" (see v20sim --help)\n' });
    expect(exec(['--bogus'])).toEqual({ code: 2, out: '', err: 'v20sim: unknown option --bogus (see v20sim --help)\n' });
    const asked = exec(['help', 'scenario']);
    expect(asked).toMatchObject({ code: 0, err: '' });
    expect(asked.out).toContain('Usage: v20sim scenario run|check');
  }, 30_000);
});
