import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario, ScenarioInvalid } from '../../src/scenario/load.js';

const dir = mkdtempSync(join(tmpdir(), 'v20sim-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function write(text: string, ext = 'yaml'): string {
  n += 1;
  const file = join(dir, `s${n}.${ext}`);
  writeFileSync(file, text);
  return file;
}

/** The problems of an invalid file as `line:col message`. */
function problems(text: string, ext = 'yaml'): string[] {
  try {
    loadScenario(write(text, ext), dir);
  } catch (err) {
    if (err instanceof ScenarioInvalid) return err.problems.map((p) => `${p.location.line}:${p.location.col} ${p.message}`);
    throw err;
  }
  throw new Error('expected the scenario to be invalid');
}

const HEAD = 'name: t\nconfig: { start: 2024-01-02T12:00:00Z }\n';

describe('a valid file', () => {
  it('resolves times, defaults and variables', () => {
    const s = loadScenario(
      write(`${HEAD}prices: { ticks: [[T+1s, EUR_USD, 1.1, 1.1002]] }\nsteps:\n  - advance: T+1m30s\n  - advance: { by: 250ms }\n`),
      dir,
    );
    expect(s.config.start).toBe(Date.UTC(2024, 0, 2, 12) * 1000);
    expect(s.config.accounts).toEqual([{ id: '101-004-1234567-001', currency: 'USD', balance: '100000' }]);
    expect(s.config.tokens).toEqual([{ token: 'scenario-token', accounts: '*' }]);
    expect(s.sources).toEqual([
      { kind: 'ticks', ticks: [{ time: Date.UTC(2024, 0, 2, 12, 0, 1) * 1000, instrument: 'EUR_USD', bid: 1.1, ask: 1.1002 }] },
    ]);
    expect(s.steps.map((st) => st.action)).toEqual([
      { kind: 'advanceTo', to: Date.UTC(2024, 0, 2, 12, 1, 30) * 1000 },
      { kind: 'advanceBy', by: 250_000 },
    ]);
    expect(s.vars.get('account')).toBe('101-004-1234567-001');
  });

  it('takes the start from the first tick when config.start is absent', () => {
    const s = loadScenario(
      write('name: t\nprices: { ticks: [["2024-03-01T10:00:00Z", EUR_USD, 1.1, 1.1002]] }\nsteps:\n  - advance: end\n'),
      dir,
    );
    expect(s.config.start).toBe(Date.UTC(2024, 2, 1, 10) * 1000);
  });

  it('reads JSON files with matcher objects', () => {
    const s = loadScenario(
      write(
        JSON.stringify({ name: 'j', steps: [{ request: { path: '/v3/accounts' }, expect: { status: { $range: [200, 299] } } }] }),
        'json',
      ),
      dir,
    );
    expect(s.steps[0]?.action).toMatchObject({ kind: 'request', expect: { status: { $range: [200, 299] } } });
  });
});

describe('an invalid file names the line, the column and the reason', () => {
  it('YAML syntax', () => {
    expect(problems('name: t\nsteps:\n  - request: {path: "/v3"\n')[0]).toMatch(/^\d+:\d+ YAML: /);
  });

  it('a hint for variables inside flow collections', () => {
    expect(problems('name: t\nsteps:\n  - request: { path: /v3/accounts/${account} }\n')[0]).toMatch(/quote strings that contain/);
  });

  it('an unknown property, at its key', () => {
    expect(problems(`${HEAD}steps:\n  - request:\n      path: /v3/accounts\n      methd: GET\n`)).toEqual([
      "6:7 steps[0].request.methd: unknown property 'methd'",
    ]);
  });

  it('a missing property', () => {
    expect(problems(`${HEAD}steps:\n  - request:\n      method: GET\n`)).toEqual(["5:7 steps[0].request: missing property 'path'"]);
  });

  it('a step with two actions, and a step with none', () => {
    expect(problems(`${HEAD}steps:\n  - advance: T+1s\n    mark: m\n  - name: nothing\n`)).toEqual([
      "5:5 steps[0].mark: one action per step: 'advance' and 'mark' must be separate steps",
      '6:5 steps[1]: a step needs an action: one of advance, tick, ticks, request, mark, expectTransactions, expectState, openStream, expectStream, closeStream',
    ]);
  });

  it('a bad time, with the accepted forms', () => {
    expect(problems(`${HEAD}steps:\n  - advance: tomorrow\n`)[0]).toMatch(
      /^4:\d+ steps\[0\]\.advance: must be an RFC3339 time .* or T\+<duration>/,
    );
  });

  it('an unknown variable, mark, stream, matcher or tag', () => {
    expect(problems(`${HEAD}steps:\n  - request: { path: "/v3/accounts/\${acount}" }\n`)[0]).toMatch(
      /^4:22 steps\[0\]\.request\.path: unknown variable \$\{acount\}/,
    );
    expect(problems(`${HEAD}steps:\n  - expectTransactions: { since: nowhere, transactions: [] }\n`)[0]).toMatch(
      /no mark 'nowhere' before this step/,
    );
    expect(problems(`${HEAD}steps:\n  - expectStream: [ORDER_FILL]\n`)[0]).toMatch(/no stream is open/);
    expect(problems(`${HEAD}steps:\n  - request: { path: /v3/accounts }\n    expect: { status: { $between: [1, 2] } }\n`)[0]).toMatch(
      /unknown matcher '\$between'/,
    );
    expect(problems(`${HEAD}steps:\n  - request: { path: /v3/accounts }\n    expect: { status: !between 200 }\n`)[0]).toMatch(
      /^5:\d+ unknown tag !between/,
    );
  });

  it('a capture defines a variable for later steps only', () => {
    const text = `${HEAD}steps:\n  - request: { path: "/v3/\${id}" }\n  - request: { path: /v3/accounts }\n    capture: { id: "body.accounts[0].id" }\n  - request: { path: "/v3/\${id}" }\n`;
    expect(problems(text)).toEqual([
      expect.stringMatching(/^4:\d+ steps\[0\]\.request\.path: unknown variable \$\{id\} \(defined: account, account1, token\)$/),
    ]);
  });

  it('a bad matcher argument', () => {
    expect(problems(`${HEAD}steps:\n  - request: { path: /v3/accounts }\n    expect: { body: { a: !regex '(' } }\n`)[0]).toMatch(
      /\$regex: Invalid regular expression/,
    );
    expect(problems(`${HEAD}steps:\n  - request: { path: /v3/accounts }\n    expect: { body: { a: !range [1] } }\n`)[0]).toMatch(
      /\$range takes \[min, max\]/,
    );
  });

  it('a tick file that does not exist: the path as written and as resolved', () => {
    expect(problems('name: t\nprices:\n  file: ../data/none.csv\nsteps:\n  - advance: end\n')[0]).toMatch(
      /^3:9 prices\.file: tick file not found: \.\.\/data\/none\.csv \(looked for .*none\.csv\)$/,
    );
  });

  it('a token for an account the config does not have', () => {
    expect(problems('name: t\nconfig:\n  tokens: [{ token: a, accounts: [101-004-1234567-009] }]\nsteps:\n  - advance: end\n')[0]).toMatch(
      /no account 101-004-1234567-009 in config.accounts/,
    );
  });

  it('a file that cannot be read', () => {
    expect(() => loadScenario(join(dir, 'nope.yaml'), dir)).toThrow(/cannot read the file/);
  });
});
