import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTicks } from '../../src/backtest/index.js';
import { runBacktestCommand } from '../../src/cli/backtest-command.js';
import { writeTicksCsv } from '../../src/engine/feeds/index.js';
import { memoryStream, removeTempDirs, tempDir } from './helpers.js';

const MA = 'examples/strategies/ma-crossover.ts';
const GRID = 'examples/strategies/grid.ts';
const SAMPLE = 'examples/data/sample-eurusd-usdjpy.csv.gz';

async function run(args: string[], isTTY = false): Promise<{ code: number; out: string; err: string }> {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const code = await runBacktestCommand(args, { stdout: stdout.stream, stderr: stderr.stream, isTTY });
  return { code, out: stdout.text(), err: stderr.text() };
}

afterAll(removeTempDirs);

describe('v20sim backtest (runBacktestCommand)', () => {
  it('runs an example strategy on the shipped sample when --ticks is left out', async () => {
    const out = tempDir();
    const r = await run(['--strategy', MA, '--out', out]);
    expect(r.err).not.toContain('v20sim backtest:');
    expect(r.code).toBe(0);
    expect(r.out).toContain('ma-crossover: 67,671 ticks, 2024-01-02 00:00:01 to 2024-01-05 21:59:56 UTC');
    expect(r.out).toMatch(/net P\/L\s+-?[\d,]+\.\d\d USD/);
    expect(r.out).toMatch(/sharpe \(daily\)/);
    expect(r.out).toContain('report.html');
    expect(r.err).toMatch(/^backtest: ma-crossover \(instrument=EUR_USD barSeconds=300 fast=10 slow=30/);
    expect(r.err).toMatch(/backtest: 67,671 ticks in \d+\.\d s/);
    for (const name of ['transactions.ndjson', 'trades.csv', 'equity.csv', 'report.json', 'report.html'])
      expect(existsSync(path.join(out, name))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      run: { ticks: { file: string }[]; instruments: Record<string, number> };
      metrics: { ticks: number };
    };
    expect(report.run.ticks.map((t) => t.file)).toEqual(['sample-eurusd-usdjpy.csv.gz']);
    expect(report.metrics.ticks).toBe(67_671);
    expect(Object.keys(report.run.instruments)).toEqual(['EUR_USD', 'USD_JPY']);
    const equity = readFileSync(path.join(out, 'equity.csv'), 'utf8').split('\n');
    expect(equity[0]).toBe('time,nav,balance,unrealizedPL,drawdown,kind');
    expect(equity[1]).toMatch(/^2024-01-02T00:00:01\.433522000Z,100000\.0000,100000\.0000,0\.0000,0\.000000,start$/);
    expect(equity.some((line) => line.endsWith(',fill'))).toBe(true);
  });

  it('draws a progress display on a terminal and still writes the results', async () => {
    const out = tempDir();
    const r = await run(['--strategy', GRID, '--out', out, '--param', 'levels=3'], true);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\r\x1b\[K67,671 ticks in \d+\.\d s/);
    expect(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')).run.params.levels).toBe(3);
  });

  it('runs a sweep when a parameter takes several values, ranked by the chosen metric', async () => {
    const out = tempDir();
    const r = await run([
      '--strategy',
      MA,
      '--out',
      out,
      '--param',
      'fast=5,10',
      '--param',
      'slow=30',
      '--rank',
      'netPL',
      '--workers',
      '1',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('ma-crossover: 2 runs ranked by netPL');
    expect(r.out).toMatch(/#\s+fast\s+net P\/L/);
    const csv = readFileSync(path.join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]?.startsWith('rank,index,instrument,barSeconds,fast,slow,')).toBe(true);
    const sweep = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8')) as {
      rankedBy: string;
      swept: string[];
      runs: { rank: number; metrics: { netPL: number } }[];
    };
    expect(sweep.rankedBy).toBe('netPL');
    expect(sweep.swept).toEqual(['fast']);
    expect((sweep.runs[0]?.metrics.netPL ?? 0) >= (sweep.runs[1]?.metrics.netPL ?? 0)).toBe(true);
  });

  it('reads a config file; the command line wins over it', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'backtest.json');
    writeFileSync(
      config,
      JSON.stringify({
        strategy: path.resolve(MA),
        out: 'results',
        params: { fast: 8, slow: 40 },
        balance: 50_000,
        equityInterval: '5m',
      }),
    );
    const r = await run(['--config', config, '--param', 'slow=35']);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'results', 'report.json'), 'utf8')) as {
      run: { params: Record<string, unknown>; initialBalance: string; equityIntervalSeconds: number };
    };
    expect(report.run.params).toMatchObject({ fast: 8, slow: 35 });
    expect(report.run.initialBalance).toBe('50000');
    expect(report.run.equityIntervalSeconds).toBe(300);
  });

  it('names the config key, not the option, when a bad value came from the config file', async () => {
    const dir = tempDir();
    const cases: [Record<string, unknown>, string][] = [
      [{ balance: 'abc' }, 'balance must be a non-negative decimal, got "abc"'],
      [{ balance: '1.123456' }, 'balance must have at most 4 decimal places'],
      [{ accountCurrency: 'usd' }, 'accountCurrency must be a currency code such as USD, got "usd"'],
      [{ rank: 'luck' }, 'rank: cannot rank by "luck"'],
      [{ equityInterval: 'often' }, 'equityInterval: expected a duration'],
    ];
    for (const [values, message] of cases) {
      const config = path.join(dir, 'bad.json');
      writeFileSync(config, JSON.stringify({ strategy: path.resolve(MA), ...values }));
      const r = await run(['--config', config]);
      expect(r.code, JSON.stringify(values)).toBe(2);
      expect(r.err).toContain(`v20sim backtest: config ${config}: ${message}`);
    }
    // The option wins over the file, and is the one named.
    const config = path.join(dir, 'good.json');
    writeFileSync(config, JSON.stringify({ strategy: path.resolve(MA), balance: '1000' }));
    const r = await run(['--config', config, '--balance', 'abc']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('v20sim backtest: --balance must be a non-negative decimal, got "abc"\n');
  });

  it('takes the account options of a config file: the conversion fee reaches the account, a bad preset is refused', async () => {
    const dir = tempDir();
    const costs: string[] = [];
    for (const fee of ['0', '0.01']) {
      const config = path.join(dir, `fee-${fee}.json`);
      const out = `results-${fee}`;
      writeFileSync(
        config,
        JSON.stringify({
          strategy: path.resolve(MA),
          out,
          accountCurrency: 'EUR',
          homeConversionFee: fee,
          marginPreset: 'legacy',
          marginCloseout: false,
        }),
      );
      const r = await run(['--config', config]);
      expect(r.err).not.toContain('v20sim backtest:');
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8')) as { metrics: { conversionCostPL: number } };
      costs.push(String(report.metrics.conversionCostPL));
    }
    // A EUR account trading EUR_USD converts its USD P/L: no cost at a fee of 0, some at 1 %.
    expect(costs[0]).toBe('0');
    expect(Number(costs[1])).toBeGreaterThan(0);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ strategy: path.resolve(MA), marginPreset: 'oanda-mars' }));
    const r = await run(['--config', bad]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('marginPreset');
  });

  it('loads JavaScript strategies and TypeScript ones outside an ES module package', async () => {
    const dir = tempDir();
    const js = path.join(dir, 'buy-once.mjs');
    writeFileSync(
      js,
      `export default { name: 'buy-once', params: { units: 100 }, create(p) { let done = false; return { onTick(tick, ctx) {
      if (done || tick.instrument !== 'EUR_USD') return; done = true; ctx.createOrder({ type: 'MARKET', instrument: 'EUR_USD', units: String(p.units) }); } }; } };\n`,
    );
    const ts = path.join(dir, 'noop.ts');
    writeFileSync(ts, `const params: { note: string } = { note: 'x' };\nexport default { name: 'noop', params, create: () => ({}) };\n`);
    const a = await run(['--strategy', js, '--out', path.join(dir, 'a'), '--param', 'units=250']);
    expect(a.code).toBe(0);
    expect(readFileSync(path.join(dir, 'a', 'trades.csv'), 'utf8')).toMatch(/\n\d+,EUR_USD,LONG,250,/);
    const b = await run(['--strategy', ts, '--out', path.join(dir, 'b')]);
    expect(b.err).not.toContain('v20sim backtest:');
    expect(b.code).toBe(0);
  });

  it('words a parameterless strategy and a metric without a value as the final table does', async () => {
    const dir = tempDir();
    const noop = path.join(dir, 'noop.mjs');
    writeFileSync(noop, "export default { name: 'noop', params: { n: 1 }, create: () => ({}) };\n");
    const bare = path.join(dir, 'bare.mjs');
    writeFileSync(bare, "export default { name: 'bare', params: {}, create: () => ({}) };\n");
    const single = await run(['--strategy', bare, '--out', path.join(dir, 'single')]);
    expect(single.code).toBe(0);
    expect(single.err).toMatch(/^backtest: bare \(no parameters\) on /);
    // A strategy that never trades has no Sharpe ratio: n/a in the progress lines and the table.
    const swept = await run(['--strategy', noop, '--out', path.join(dir, 'sweep'), '--param', 'n=1,2', '--workers', '1']);
    expect(swept.code).toBe(0);
    expect(swept.err).toContain('sweep: 2/2 done (n=2: sharpe n/a)');
    expect(swept.err).not.toContain('null');
    expect(swept.out).toMatch(/\n1\s+1\s+0\.00\s+0\.00%\s+n\/a/);
  });

  it('takes the ticks from --from to --to: the same run as over a file holding only those ticks', async () => {
    const dir = tempDir();
    const from = Date.UTC(2024, 0, 3) * 1000;
    const to = Date.UTC(2024, 0, 4, 12) * 1000;
    // The sample's ticks in the window, written to a file of their own.
    const cut = path.join(dir, 'cut.csv');
    const kept = writeTicksCsv(
      cut,
      [...openTicks([SAMPLE])].filter((t) => t.time >= from && t.time < to),
    );
    const windowed = path.join(dir, 'windowed');
    const whole = path.join(dir, 'whole');
    const a = await run(['--strategy', MA, '--from', '2024-01-03', '--to', '2024-01-04T12:00:00Z', '--out', windowed]);
    const b = await run(['--strategy', MA, '--ticks', cut, '--out', whole]);
    expect([a.code, b.code], a.err + b.err).toEqual([0, 0]);
    expect(a.err).toMatch(
      /^backtest: ma-crossover \(.*\) on sample-eurusd-usdjpy\.csv\.gz from 2024-01-03T00:00:00\.000000000Z before 2024-01-04T12:00:00\.000000000Z\n/,
    );
    expect(a.out).toContain(`ma-crossover: ${kept.toLocaleString('en-US')} ticks, 2024-01-03 00:00:04 to 2024-01-04 11:59:57 UTC`);
    for (const name of ['transactions.ndjson', 'trades.csv', 'equity.csv'])
      expect(readFileSync(path.join(windowed, name), 'utf8'), name).toBe(readFileSync(path.join(whole, name), 'utf8'));
    const report = (dir: string): { run: { window?: unknown; configDigest: string }; metrics: unknown } =>
      JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as {
        run: { window?: unknown; configDigest: string };
        metrics: unknown;
      };
    expect(report(windowed).metrics).toEqual(report(whole).metrics);
    expect(report(windowed).run.window).toEqual({ from: '2024-01-03T00:00:00.000000000Z', to: '2024-01-04T12:00:00.000000000Z' });
    expect(report(whole).run.window).toBeUndefined();
    expect(readFileSync(path.join(windowed, 'report.html'), 'utf8')).toContain(
      'Period (UTC)</dt><dd>2024-01-03 00:00:04 to 2024-01-04 11:59:57 (window --from 2024-01-03 00:00:00 --to 2024-01-04 12:00:00)',
    );
    // The window is part of the configuration: the same files over another period are another run.
    expect(report(windowed).run.configDigest).not.toBe(report(whole).run.configDigest);

    // A sweep's runs take the same window (its rows equal the single run's).
    const swept = path.join(dir, 'sweep');
    const s = await run([
      '--strategy',
      MA,
      '--from',
      '2024-01-03',
      '--to',
      '2024-01-04T12:00:00Z',
      '--param',
      'fast=5,10',
      '--workers',
      '2',
      '--out',
      swept,
    ]);
    expect(s.code, s.err).toBe(0);
    const sweep = JSON.parse(readFileSync(path.join(swept, 'sweep.json'), 'utf8')) as {
      window: unknown;
      runs: { params: { fast: number }; metrics: unknown }[];
    };
    expect(sweep.window).toEqual({ from: '2024-01-03T00:00:00.000000000Z', to: '2024-01-04T12:00:00.000000000Z' });
    expect(sweep.runs.find((r) => r.params.fast === 10)?.metrics).toEqual(report(windowed).metrics);
  }, 60_000);

  it('runs the example that reads candles (determinism.test.ts runs it twice and in another process)', async () => {
    const out = tempDir();
    const r = await run(['--strategy', 'examples/strategies/channel-breakout.ts', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { metrics: { fills: number } };
    expect(report.metrics.fills).toBeGreaterThanOrEqual(4);
    // Its entries put their stop loss at the channel's other side, a price, not a distance.
    const entries = readFileSync(path.join(out, 'transactions.ndjson'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"tag":"channel-breakout"') && line.includes('"type":"MARKET_ORDER"'));
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const line of entries) expect(JSON.parse(line)).toHaveProperty('stopLossOnFill.price');
  }, 60_000);

  it('refuses a window that holds no time, or times it cannot read; a window past the data fails the run', async () => {
    const dir = tempDir();
    const cases: [string[], string][] = [
      [['--from', '2024-01-04', '--to', '2024-01-03'], '--to must be after --from (2024-01-04), got 2024-01-03'],
      [['--from', '2024-01-04', '--to', '2024-01-04'], '--to must be after --from (2024-01-04), got 2024-01-04'],
      [
        ['--from', 'yesterday'],
        '--from must be an RFC3339 datetime with a zone (2024-01-02T00:00:00Z), a date (2024-01-02) or UNIX seconds, got "yesterday"',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(['--strategy', MA, ...args, '--out', dir]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toBe(`v20sim backtest: ${message}\n`);
    }
    const config = path.join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ strategy: path.resolve(MA), to: '2024-01-02 noon' }));
    const bad = await run(['--config', config, '--out', dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`config ${config}: to must be an RFC3339 datetime`);
    const late = await run(['--strategy', MA, '--from', '2025-01-01', '--out', dir]);
    expect(late.code).toBe(1);
    expect(late.err).toContain('holds no ticks from 2025-01-01T00:00:00.000000000Z');
  });

  it('answers --help and refuses bad options with exit code 2', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: v20sim backtest --strategy FILE');
    const cases: [string[], RegExp][] = [
      [[], /--strategy FILE is required/],
      [['--strategy', MA, '--bogus'], /unknown option --bogus/],
      [['--strategy', MA, '--param', 'nope=1'], /has no parameter "nope"; its parameters: instrument, barSeconds, fast, slow/],
      [['--strategy', MA, '--param', 'fast=ten'], /parameter fast: expected a number/],
      // Neither the last value nor a sweep: say how to write the sweep.
      [
        ['--strategy', MA, '--param', 'fast=5', '--param', 'fast=10'],
        /--param fast is given twice; for a sweep give its values in one: --param fast=5,10/,
      ],
      [['--strategy', MA, '--param', 'fast=1e400'], /^v20sim backtest: parameter fast: expected a finite number, got "1e400"\n$/],
      [['--strategy', MA, '--ticks'], /--ticks needs at least one file/],
      [['--strategy', MA, '--ticks', 'missing.csv'], /tick file not found: missing.csv/],
      // Merged with itself, every tick would come twice.
      [['--strategy', MA, '--ticks', SAMPLE, SAMPLE], /tick file given twice: examples\/data\/sample-eurusd-usdjpy\.csv\.gz\n$/],
      [
        ['--strategy', MA, '--ticks', SAMPLE, `./${SAMPLE}`],
        /tick file given twice: examples\/data\/sample-eurusd-usdjpy\.csv\.gz and \.\/examples\/data\/sample-eurusd-usdjpy\.csv\.gz are the same file/,
      ],
      [['--strategy', MA, '--rank', 'luck'], /cannot rank by "luck"/],
      // Refused before any connection: no Redis listens on port 1.
      [['--strategy', MA, '--queue', 'redis://127.0.0.1:1/0'], /--queue runs a sweep, and this is a single run/],
      [['--strategy', MA, '--param', 'fast=5', '--queue', 'redis://127.0.0.1:1/0'], /--queue runs a sweep/],
      [['--strategy', MA, '--equity-interval', 'often'], /--equity-interval/],
      [['--strategy', MA, '--format', 'xml'], /--format must be one of/],
      [['--strategy', MA, '--balance', '-5'], /--balance must be a non-negative decimal/],
      // A deposit TRANSFER_FUNDS would refuse: the run would go on with no money.
      [['--strategy', MA, '--balance', '100000.123456'], /--balance must have at most 4 decimal places and be at most 1000000000000/],
      [['--strategy', MA, '--balance', '100000000000000'], /--balance must have at most 4 decimal places/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
    }
  });

  it('refuses a missing strategy file and an output folder that cannot be made before any run (exit code 2)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'file.txt');
    writeFileSync(file, 'not a folder\n');
    const cases: [string[], string][] = [
      [['--strategy', path.join(dir, 'nowhere.ts')], `strategy file not found: ${path.join(dir, 'nowhere.ts')}`],
      [['--strategy', MA, '--out', file], `output folder ${file} cannot be made: it is a file`],
      [['--strategy', MA, '--out', path.join(file, 'sub')], `output folder ${path.join(file, 'sub')} cannot be made: ${file} is a file`],
      [['--strategy', MA, '--out', ''], '--out needs a folder name'],
      // A sweep writes its folder at the end: refused before its runs, not after them.
      [['--strategy', MA, '--out', file, '--param', 'fast=5,10', '--workers', '1'], `output folder ${file} cannot be made: it is a file`],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toBe(`v20sim backtest: ${message}\n`);
    }
  });

  it('exits with 1 when the strategy fails or is not a strategy', async () => {
    const dir = tempDir();
    const broken = path.join(dir, 'broken.mjs');
    writeFileSync(broken, "export default { name: 'broken', params: {}, create: () => ({ onTick() { throw new Error('kaput'); } }) };\n");
    const r = await run(['--strategy', broken, '--out', path.join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/strategy broken failed in onTick at 2024-01-02T00:00:01\.433522000Z: kaput/);
    // Checked when create() returns, with the message alone (no stack of the runner's call).
    const notAHook = path.join(dir, 'not-a-hook.mjs');
    writeFileSync(notAHook, "export default { name: 'five', params: {}, create: () => ({ onTick: 5 }) };\n");
    const h = await run(['--strategy', notAHook, '--out', path.join(dir, 'out')]);
    expect(h.code).toBe(1);
    expect(h.err).toMatch(/\nv20sim backtest: strategy five: onTick must be a function, got number\n$/);
    const notOne = path.join(dir, 'not-one.mjs');
    writeFileSync(notOne, 'export default { hello: 1 };\n');
    const n = await run(['--strategy', notOne]);
    expect(n.code).toBe(1);
    expect(n.err).toMatch(/is not a strategy: name must be a non-empty string/);
  });
});
