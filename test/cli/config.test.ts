import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/args.js';
import { runCli } from '../../src/cli/cli.js';
import {
  ConfigError,
  DEFAULT_ACCOUNTS,
  MAJOR_PAIRS,
  checkConfig,
  loadConfigFile,
  type FileConfig,
  type ServeArgs,
} from '../../src/cli/config.js';
import { resolveSettings } from '../../src/cli/settings.js';
import type { ServeIo } from '../../src/cli/serve.js';

const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USD = '101-004-1000000-001';
let counter = 0;
const token = (): string => `generated-${(counter += 1)}`;

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function settings(file: FileConfig, args: ServeArgs = {}) {
  return resolveSettings(file, args, token);
}

describe('config file checks', () => {
  it('accepts a complete config, resolving paths against the file', () => {
    const file = path.join(dir, 'full.json');
    writeFileSync(
      file,
      JSON.stringify({
        $schema: 'ignored',
        accounts: [
          { id: USD, alias: 'Main', currency: 'USD', balance: '25000', hedging: true, marginRate: '0.02' },
          { id: '101-004-1000000-002', currency: 'XAU', balance: 10 },
        ],
        tokens: [{ token: 'alpha', accounts: [USD] }, 'beta'],
        adminToken: 'root',
        instruments: [
          { name: 'XAU_USD', type: 'METAL', displayPrecision: 3, pipLocation: -2, marginRate: '0.05' },
          { name: 'EUR_USD', marginRate: '0.02' },
        ],
        ticks: ['data/eurusd.csv', { file: '/abs/gbp.ndjson', format: 'ndjson', instrument: 'GBP_USD' }],
        clock: 'replay',
        speed: 'max',
        seed: 'abc',
        start: '2024-03-01T00:00:00Z',
        host: '0.0.0.0',
        port: 9000,
        dataDir: 'state',
        fsync: true,
        heartbeatMs: 1000,
      }),
    );
    const config = loadConfigFile(file);
    expect(config.accounts).toEqual([
      { id: USD, alias: 'Main', currency: 'USD', balance: '25000', hedgingEnabled: true, marginRate: '0.02' },
      { id: '101-004-1000000-002', currency: 'XAU', balance: '10' },
    ]);
    expect(config.tokens).toEqual([
      { token: 'alpha', accounts: [USD] },
      { token: 'beta', accounts: '*' },
    ]);
    expect(config.ticks).toEqual([
      { file: path.join(dir, 'data/eurusd.csv') },
      { file: '/abs/gbp.ndjson', format: 'ndjson', instrument: 'GBP_USD' },
    ]);
    expect(config.dataDir).toBe(path.join(dir, 'state'));
    expect(config.speed).toBe(Number.POSITIVE_INFINITY);
    expect(config.start).toBe(Date.UTC(2024, 2, 1) * 1000);
    const s = settings(config);
    expect(s).toMatchObject({
      clock: 'replay',
      speed: Number.POSITIVE_INFINITY,
      seed: 'abc',
      host: '0.0.0.0',
      port: 9000,
      adminToken: 'root',
      adminTokenGenerated: false,
      generatedTokens: [],
    });
    expect(s.generator).toBeUndefined();
  });

  it('names the field at fault', () => {
    const cases: [unknown, string][] = [
      [[], 'config: the config must be a JSON object'],
      [{ acounts: [] }, 'config: acounts: unknown field'],
      [{ accounts: {} }, 'config: accounts: must be an array, got {}'],
      [{ accounts: [{ id: '1-2-3', currency: 'USD' }] }, 'config: accounts[0].id: must look like 101-004-1435156-001'],
      [{ accounts: [{ id: USD, currency: 'usd' }] }, 'config: accounts[0].currency: must be a three-letter currency code such as USD'],
      [{ accounts: [{ id: USD, currency: 'XYZ' }] }, 'config: accounts[0].currency: no instrument quotes XYZ'],
      [{ accounts: [{ id: USD, currency: 'USD', balance: '-1' }] }, 'config: accounts[0].balance: must be a non-negative decimal'],
      [{ accounts: [{ id: USD, currency: 'USD', marginRate: '0' }] }, 'config: accounts[0].marginRate: must be a decimal string in (0, 1]'],
      [{ accounts: [{ id: USD, currency: 'USD', hedging: 'no' }] }, 'config: accounts[0].hedging: must be true or false'],
      [{ accounts: [{ id: USD, currency: 'USD', leverage: 50 }] }, 'config: accounts[0].leverage: unknown field'],
      [
        {
          accounts: [
            { id: USD, currency: 'USD' },
            { id: USD, currency: 'EUR' },
          ],
        },
        `config: accounts[1].id: ${USD} appears twice`,
      ],
      [{ tokens: [{ token: 'has space' }] }, 'config: tokens[0].token: must be 1 to 512 characters without spaces'],
      [{ tokens: ['a', 'a'] }, 'config: tokens[1].token: appears twice'],
      [{ tokens: [{ token: 'a', accounts: 'all' }] }, 'config: tokens[0].accounts: must be an array'],
      [{ adminToken: '' }, 'config: adminToken: must be 1 to 512 characters without spaces'],
      [{ instruments: [{ name: 'EURUSD' }] }, 'config: instruments[0].name: must be an instrument name such as EUR_USD'],
      [
        { instruments: [{ name: 'EUR_USD', displayPrecision: 'five' }] },
        'config: instruments[0].displayPrecision: must be an integer from 0 to 10',
      ],
      [{ instruments: [{ name: 'EUR_USD', marginRate: '1.5' }] }, 'config: instruments[0].marginRate: must be in (0, 1]'],
      [
        {
          instruments: [
            {
              name: 'EUR_USD',
              financing: { longRate: '1', shortRate: '1', financingDaysOfWeek: [{ dayOfWeek: 'FUNDAY', daysCharged: 1 }] },
            },
          ],
        },
        'config: instruments[0].financing.financingDaysOfWeek[0].dayOfWeek: must be one of SUNDAY',
      ],
      [{ instruments: [{ name: 'EUR_USD', spread: 1 }] }, 'config: instruments[0].spread: unknown field'],
      [{ ticks: [{ file: 'a.csv', format: 'xls' }] }, 'config: ticks[0].format: must be one of csv, ndjson, lean, truefx, histdata'],
      [{ generator: { seed: 1.5 } }, 'config: generator.seed: must be a safe integer or a non-empty string'],
      [{ generator: { instruments: [] } }, 'config: generator.instruments: must name at least one instrument'],
      [{ generator: { historyDays: -1 } }, 'config: generator.historyDays: must be a whole number of days from 0 to 365, got -1'],
      [{ generator: { historyDays: 1.5 } }, 'config: generator.historyDays: must be a whole number of days from 0 to 365, got 1.5'],
      [{ clock: 'fast' }, 'config: clock: must be one of live, replay, manual, got "fast"'],
      [{ speed: 0 }, 'config: speed: must be a positive number (1 = real time) or "max", got 0'],
      [{ start: '2024-01-02' }, 'config: start: must be an RFC3339 DateTime'],
      [{ port: 70000 }, 'config: port: must be an integer from 0 to 65535, got 70000'],
      [{ fsync: 'yes' }, 'config: fsync: must be true or false'],
    ];
    for (const [doc, expected] of cases)
      expect(
        message(() => checkConfig(doc, dir)),
        JSON.stringify(doc),
      ).toContain(expected);
  });

  it('reads YAML configs too', () => {
    const file = path.join(dir, 'serve.yaml');
    writeFileSync(
      file,
      [
        'accounts:',
        '  - id: 101-004-1000000-001',
        '    currency: USD',
        '    balance: 5000',
        '    hedging: true',
        'clock: manual',
        'start: 2024-01-02T00:00:00Z',
        'seed: 42',
      ].join('\n'),
    );
    expect(loadConfigFile(file)).toEqual({
      accounts: [{ id: USD, currency: 'USD', balance: '5000', hedgingEnabled: true }],
      clock: 'manual',
      start: Date.UTC(2024, 0, 2) * 1000,
      seed: 42,
    });
    const broken = path.join(dir, 'broken.yml');
    writeFileSync(broken, 'clock: [manual\n');
    expect(message(() => loadConfigFile(broken))).toContain(`config: ${broken} is not valid YAML`);
  });

  it('names the file when it cannot be read or parsed', () => {
    const missing = path.join(dir, 'missing.json');
    expect(message(() => loadConfigFile(missing))).toContain(`config: cannot read ${missing}`);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"accounts": [');
    expect(message(() => loadConfigFile(broken))).toContain(`config: ${broken} is not valid JSON`);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ clock: 'later' }));
    expect(message(() => loadConfigFile(bad))).toBe(`config ${bad}: clock: must be one of live, replay, manual, got "later"`);
  });
});

describe('settings: flags over file over defaults', () => {
  it('defaults to live, seeded majors, two demo accounts and generated tokens', () => {
    const s = settings({});
    expect(s).toMatchObject({ clock: 'live', host: '127.0.0.1', port: 8080, speed: 1, seed: 1, fsync: false, accounts: DEFAULT_ACCOUNTS });
    expect(s.generator).toEqual({ seed: 1, instruments: MAJOR_PAIRS, meanIntervalMicros: 250_000, historyDays: 7 });
    expect(s.tokens).toHaveLength(1);
    expect(s.tokens[0]?.accounts).toBe('*');
    expect(s.generatedTokens).toEqual([s.tokens[0]?.token]);
    expect(s.adminTokenGenerated).toBe(true);
    expect(s.adminToken).not.toBe(s.tokens[0]?.token);
  });

  it('replays tick files by default and lets flags replace the file', () => {
    const file: FileConfig = { ticks: [{ file: '/data/a.csv' }], port: 9000, tokens: [{ token: 'cfg', accounts: [USD] }] };
    expect(settings(file)).toMatchObject({ clock: 'replay', port: 9000, generatedTokens: [] });
    const flagged = settings(file, { generator: 7, clock: 'manual', port: 0, token: 'flag' });
    expect(flagged).toMatchObject({ clock: 'manual', port: 0, ticks: [], generator: { seed: 7 } });
    expect(flagged.tokens).toEqual([
      { token: 'cfg', accounts: [USD] },
      { token: 'flag', accounts: '*' },
    ]);
    expect(settings({}, { ticks: ['x.csv'], format: 'csv', instrument: 'EUR_USD', speed: 10 }).ticks).toEqual([
      { file: path.resolve('x.csv'), format: 'csv', instrument: 'EUR_USD' },
    ]);
    expect(settings({}, { clock: 'manual' }).generator).toBeUndefined();
    expect(settings({}, { noGenerator: true }).generator).toBeUndefined();
  });

  it('refuses combinations that cannot work', () => {
    expect(message(() => settings({}, { ticks: ['a.csv'], clock: 'live' }))).toContain('options: --clock: live runs on the wall clock');
    expect(message(() => settings({}, { clock: 'replay' }))).toBe(
      'options: --clock: replay needs prices: --ticks FILE... or --generator SEED',
    );
    expect(message(() => settings({}, { speed: 2 }))).toBe('options: --speed: applies to --clock replay only (the clock is live)');
    expect(message(() => settings({}, { start: Date.UTC(2024, 0, 1) * 1000 }))).toBe(
      'options: --start: applies to --clock replay or manual only (the clock is live)',
    );
    expect(message(() => settings({ clock: 'live', start: Date.UTC(2024, 0, 1) * 1000 }))).toBe(
      'options: start: applies to --clock replay or manual only (the clock is live)',
    );
    expect(settings({}, { clock: 'manual', start: Date.UTC(2024, 0, 1) * 1000 }).start).toBe(Date.UTC(2024, 0, 1) * 1000);
    expect(message(() => settings({}, { ticks: ['a.csv'], generator: 1 }))).toContain('give either --ticks or --generator');
    expect(message(() => settings({ generator: { instruments: ['ABC_DEF'] } }))).toContain(
      'generator.instruments[0]: ABC_DEF is not an instrument of this server',
    );
    expect(message(() => settings({}, { format: 'csv' }))).toContain('--format and --instrument apply to --ticks files');
  });
});

describe('command-line parsing', () => {
  it('parses every option', () => {
    expect(
      parseServeArgs([
        '--config',
        'c.json',
        '--host=0.0.0.0',
        '--port',
        '0',
        '--data-dir',
        'd',
        '--fsync',
        '--ticks',
        'a.csv',
        'b.csv',
        '--format',
        'csv',
        '--instrument',
        'EUR_USD',
        '--clock',
        'replay',
        '--speed',
        '2.5',
        '--seed',
        'x',
        '--start',
        '2024-01-02T00:00:00Z',
        '--token',
        't',
        '--admin-token',
        'a',
      ]),
    ).toEqual({
      config: 'c.json',
      host: '0.0.0.0',
      port: 0,
      dataDir: 'd',
      fsync: true,
      ticks: ['a.csv', 'b.csv'],
      format: 'csv',
      instrument: 'EUR_USD',
      clock: 'replay',
      speed: 2.5,
      seed: 'x',
      start: Date.UTC(2024, 0, 2) * 1000,
      token: 't',
      adminToken: 'a',
    });
    expect(parseServeArgs(['--generator', '42', '--speed', 'max'])).toEqual({ generator: 42, speed: Number.POSITIVE_INFINITY });
  });

  it('names the option at fault', () => {
    expect(message(() => parseServeArgs(['--port', 'eighty']))).toBe(
      'options: --port: must be a port number from 0 to 65535, got "eighty"',
    );
    expect(message(() => parseServeArgs(['--clock', 'slow']))).toBe('options: --clock: must be one of live, replay, manual, got "slow"');
    expect(message(() => parseServeArgs(['--speed', '-1']))).toContain('options: --speed: must be a positive number');
    expect(message(() => parseServeArgs(['--ticks']))).toBe('options: --ticks: needs at least one file');
    expect(message(() => parseServeArgs(['--port']))).toBe('options: --port: needs a value');
    expect(message(() => parseServeArgs(['--colour', 'red']))).toContain('options: --colour: unknown option');
    expect(message(() => parseServeArgs(['--port', '1', '--port', '2']))).toBe('options: --port: given twice');
    expect(message(() => parseServeArgs(['extra']))).toContain('options: extra: unexpected argument');
  });

  it('takes a period of the tick files from flags or the file, over tick files only and in order', () => {
    const day = (d: number): number => Date.UTC(2024, 0, d) * 1000;
    const ticks = ['data/eurusd.csv'];
    const args = parseServeArgs(['--ticks', ...ticks, '--from', '2024-01-02', '--to', '1704585600']);
    expect(args).toMatchObject({ from: day(2), to: day(7) });
    expect(settings({}, args).window).toEqual({ from: day(2), to: day(7) });
    // The file's ends, a flag over one of them; without either, no window.
    const file = checkConfig({ ticks, from: '2024-01-03T00:00:00Z', to: '2024-01-05' }, dir);
    expect(settings(file).window).toEqual({ from: day(3), to: day(5) });
    expect(settings(file, parseServeArgs(['--to', '2024-01-04'])).window).toEqual({ from: day(3), to: day(4) });
    expect(settings(checkConfig({ ticks }, dir)).window).toBeUndefined();
    expect(message(() => parseServeArgs(['--from', 'yesterday']))).toBe(
      'options: --from: must be an RFC3339 DateTime with a zone ("2024-01-02T00:00:00Z"), a date ("2024-01-02") or UNIX seconds, got "yesterday"',
    );
    expect(message(() => checkConfig({ to: 5 }, dir))).toContain('config: to: must be a time such as');
    expect(message(() => settings({}, parseServeArgs(['--generator', '1', '--clock', 'replay', '--to', '2024-01-04'])))).toBe(
      'options: --to: applies to tick files only (--ticks FILE...)',
    );
    expect(message(() => settings(file, parseServeArgs(['--to', '2024-01-03'])))).toBe(
      'options: --to: must be after from (2024-01-03T00:00:00.000000000Z)',
    );
  });

  it('takes the pricing stream throttle from the file, the flag overriding it', () => {
    expect(settings({}).priceStreamThrottleMs).toBeUndefined();
    expect(settings(checkConfig({ priceStreamThrottleMs: 100 }, dir)).priceStreamThrottleMs).toBe(100);
    const args = parseServeArgs(['--price-stream-throttle-ms', '0']);
    expect(args).toEqual({ priceStreamThrottleMs: 0 });
    expect(settings(checkConfig({ priceStreamThrottleMs: 100 }, dir), args).priceStreamThrottleMs).toBe(0);
    expect(message(() => parseServeArgs(['--price-stream-throttle-ms', '-5']))).toBe(
      'options: --price-stream-throttle-ms: must be an integer from 0 to 60000 (milliseconds; 0 = every price), got "-5"',
    );
    expect(message(() => checkConfig({ priceStreamThrottleMs: 2.5 }, dir))).toBe(
      'config: priceStreamThrottleMs: must be an integer from 0 to 60000, got 2.5',
    );
  });

  it('exits 2 on invalid options and 0 on --help', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: ServeIo = {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      fatal: (m) => {
        throw new Error(m);
      },
    };
    expect(await runCli(['serve', '--clock', 'replay'], io)).toEqual({ exitCode: 2 });
    expect(err.at(-1)).toBe('v20sim: options: --clock: replay needs prices: --ticks FILE... or --generator SEED');
    expect(await runCli(['serve', '--help'], io)).toEqual({ exitCode: 0 });
    expect(out.at(-1)).toContain('Usage: v20sim serve [options]');
    expect(await runCli(['frobnicate'], io)).toEqual({ exitCode: 2 });
    expect(await runCli(['--version'], io)).toEqual({ exitCode: 0 });
    expect(out.at(-1)).toMatch(/^\d+\.\d+\.\d+/);
  });
});
