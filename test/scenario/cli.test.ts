import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenarioCommand } from '../../src/cli/scenario-command.js';

const FIXTURES = 'test/scenario/fixtures';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await runScenarioCommand(args, { stdout, stderr });
  return { code, out: stdout.text, err: stderr.text };
}

const tmp = mkdtempSync(join(tmpdir(), 'v20sim-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('exit codes and messages', () => {
  it('0 when every scenario passes', async () => {
    const r = await cli('run', `${FIXTURES}/pass.yaml`, '--no-color', '-j', '1');
    expect(r.code).toBe(0);
    expect(r.out).toContain('PASS test/scenario/fixtures/pass.yaml  fixture that passes');
    expect(r.out).toContain('✓  2 POST /v3/accounts/${account}/orders → 201');
    expect(r.out).toMatch(/Scenarios: 1 passed \(1 file\)/);
  });

  it('1 for a failing expectation, with the diff and the place in the file', async () => {
    const r = await cli('run', `${FIXTURES}/fail.yaml`, `${FIXTURES}/pass.yaml`, '--no-color', '-j', '1');
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL test/scenario/fixtures/fail.yaml');
    expect(r.out).toContain('✗  2 POST /v3/accounts/${account}/orders → 201  test/scenario/fixtures/fail.yaml:9:5');
    expect(r.out).toContain('body.orderFillTransaction.price  (test/scenario/fixtures/fail.yaml:17:18)');
    expect(r.out).toContain('- "1.10000"');
    expect(r.out).toContain('+ "1.10020"');
    // A failed expectation changes nothing: the steps after it still run.
    expect(r.out).toContain('✓  3 expect 2 transactions after 2');
    expect(r.out).toMatch(/Scenarios: 1 passed, 1 failed \(2 files\)/);
  });

  it('2 for a malformed file, with the line and the reason', async () => {
    const r = await cli('run', `${FIXTURES}/malformed.yaml`, `${FIXTURES}/fail.yaml`, '--no-color', '-j', '1');
    expect(r.code).toBe(2);
    expect(r.out).toContain('INVALID test/scenario/fixtures/malformed.yaml');
    expect(r.out).toContain("test/scenario/fixtures/malformed.yaml:5:7: steps[1].request: missing property 'path'");
    expect(r.out).toContain("test/scenario/fixtures/malformed.yaml:6:7: steps[1].request.pth: unknown property 'pth'");
  });

  it('2 for a YAML syntax error', async () => {
    const r = await cli('run', `${FIXTURES}/syntax.yaml`, '--no-color', '-j', '1');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/test\/scenario\/fixtures\/syntax\.yaml:\d+:\d+: YAML: /);
  });

  it('2 for a file that references missing data', async () => {
    const r = await cli('run', `${FIXTURES}/missing-data.yaml`, '--no-color', '-j', '1');
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      'test/scenario/fixtures/missing-data.yaml:3:9: prices.file: tick file not found: ../no-such-folder/20140502_quote.zip',
    );
  });

  it('2 for bad usage or nothing to run', async () => {
    expect((await cli('run', '--reporter', 'xml')).code).toBe(2);
    expect((await cli('run', '--frobnicate')).code).toBe(2);
    expect((await cli('walk')).code).toBe(2);
    const none = await cli('run', `${FIXTURES}/*.nothing`);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no scenario files match "test/scenario/fixtures/*.nothing"');
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: v20sim scenario run');
  });

  it('check validates without running', async () => {
    const r = await cli('check', `${FIXTURES}/pass.yaml`, `${FIXTURES}/malformed.yaml`);
    expect(r.code).toBe(2);
    expect(r.out).toContain('ok test/scenario/fixtures/pass.yaml');
    expect(r.out).toContain('INVALID test/scenario/fixtures/malformed.yaml');
  });

  it('check reads tick files whole; a run fails at the step that reads the bad line; both name the file and line', async () => {
    const header = 'time,instrument,bid,ask\n';
    const files: [string, string, RegExp][] = [
      [
        'back',
        `${header}2024-01-02T10:00:00Z,EUR_USD,1.1,1.1001\n2024-01-02T10:00:02Z,EUR_USD,1.1,1.1001\n2024-01-02T10:00:01Z,EUR_USD,1.1,1.1001\n`,
        /back\.csv:4: the time goes back to 2024-01-02T10:00:01\.000000000Z after 2024-01-02T10:00:02\.000000000Z \(ticks must be in time order\)/,
      ],
      [
        'bad',
        `${header}2024-01-02T10:00:00Z,EUR_USD,1.1,1.1001\n2024-01-02T10:00:01Z,EUR_USD,1.1,abc\n`,
        /bad\.csv:3: ask must be a finite positive number/,
      ],
    ];
    for (const [name, ticks, message] of files) {
      writeFileSync(join(tmp, `${name}.csv`), ticks);
      const scenario = join(tmp, `${name}.yaml`);
      writeFileSync(
        scenario,
        `name: ${name}\nconfig:\n  accounts: [{ id: 101-004-1234567-001, currency: USD }]\nprices:\n  - file: ${name}.csv\nsteps:\n  - advance: 2024-01-02T10:00:05Z\n`,
      );
      const check = await cli('check', scenario);
      expect(check.code, check.out).toBe(2);
      expect(check.out).toContain(`INVALID `);
      expect(check.out).toContain(`${name}.yaml:5:11: prices[0].file: cannot read the ticks: `);
      expect(check.out).toMatch(message);
      const run = await cli('run', scenario, '--no-color', '-j', '1');
      expect(run.code, run.out).toBe(1);
      expect(run.out).toMatch(message);
    }
  });
});

describe('reporters', () => {
  it('junit to a file, with a summary on stdout', async () => {
    const out = join(tmp, 'reports', 'junit.xml');
    const r = await cli(
      'run',
      `${FIXTURES}/pass.yaml`,
      `${FIXTURES}/fail.yaml`,
      `${FIXTURES}/malformed.yaml`,
      '--reporter',
      'junit',
      '--output',
      out,
      '-j',
      '1',
    );
    expect(r.code).toBe(2);
    expect(r.out).toContain('Report (junit) written to');
    const xml = readFileSync(out, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="v20sim scenarios" tests="3" failures="1" errors="1"/);
    expect(xml).toContain(
      '<testcase classname="test.scenario.fixtures.fail" name="fixture with a wrong expectation" file="test/scenario/fixtures/fail.yaml"',
    );
    expect(xml).toContain(
      '<failure message="test/scenario/fixtures/fail.yaml:9:5: POST /v3/accounts/101-004-1234567-001/orders answered 201: 1 difference" type="ScenarioFailure">',
    );
    expect(xml).toContain(
      `<error message="test/scenario/fixtures/malformed.yaml:5:7: steps[1].request: missing property 'path'" type="InvalidScenario">`,
    );
  });

  it('tap to stdout', async () => {
    const r = await cli('run', `${FIXTURES}/pass.yaml`, `${FIXTURES}/fail.yaml`, '-r', 'tap', '-j', '1');
    expect(r.code).toBe(1);
    expect(r.out.split('\n').slice(0, 4)).toEqual([
      'TAP version 13',
      '1..2',
      'not ok 1 - fixture with a wrong expectation # test/scenario/fixtures/fail.yaml',
      '  ---',
    ]);
    expect(r.out).toContain('  at: "test/scenario/fixtures/fail.yaml:9:5"');
    expect(r.out).toContain('ok 2 - fixture that passes # test/scenario/fixtures/pass.yaml');
  });
});

describe('golden logs', () => {
  it('is missing until --update writes it, then compares byte for byte', async () => {
    const scenario = join(tmp, 'golden.yaml');
    copyFileSync(`${FIXTURES}/golden.yaml`, scenario);
    const golden = join(tmp, 'golden.ndjson');

    const missing = await cli('run', scenario, '--no-color', '-j', '1');
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/golden .*golden\.ndjson does not exist: run with --update to write it/);

    const update = await cli('run', scenario, '--update', '--no-color', '-j', '1');
    expect(update.code).toBe(0);
    expect(update.out).toMatch(/golden .*golden\.ndjson written/);
    const text = readFileSync(golden, 'utf8');
    expect(text.split('\n').map((l) => (l === '' ? '' : (JSON.parse(l) as { type: string }).type))).toEqual([
      'CREATE',
      'TRANSFER_FUNDS',
      'MARKET_ORDER',
      'ORDER_FILL',
      '',
    ]);

    expect((await cli('run', scenario, '-j', '1')).code).toBe(0);

    // A deliberate change elsewhere: the fill price in the file no longer matches the run.
    writeFileSync(golden, text.replace('"price":"1.10020"', '"price":"1.10021"'));
    const differs = await cli('run', scenario, '--no-color', '-j', '1');
    expect(differs.code).toBe(1);
    expect(differs.out).toMatch(/golden .*golden\.ndjson differs from line 4/);
    expect(differs.out).toContain('golden.ndjson:4 price');
    expect(differs.out).toContain('- "1.10021"');
    expect(differs.out).toContain('+ "1.10020"');

    expect((await cli('run', scenario, '-u', '-j', '1')).code).toBe(0);
    expect(readFileSync(golden, 'utf8')).toBe(text);
    expect(existsSync(golden)).toBe(true);
  });
});

describe('parallel runs', () => {
  it('worker threads give the same results as a serial run', async () => {
    const files = ['pass', 'fail', 'malformed', 'missing-data']
      .map((f) => `${FIXTURES}/${f}.yaml`)
      .concat(['scenarios/transactions/stream.yaml']);
    const serial = await cli('run', ...files, '-r', 'tap', '-j', '1');
    const parallel = await cli('run', ...files, '-r', 'tap', '-j', '2');
    expect(parallel.code).toBe(2);
    expect(parallel.out).toBe(serial.out);
    expect(parallel.out).toContain('ok 1 - The transaction stream sends each new transaction as one line');
  });
});
