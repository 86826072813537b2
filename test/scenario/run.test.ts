import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resultText } from '../../src/scenario/report.js';
import { runScenarioFile } from '../../src/scenario/run-file.js';

const dir = mkdtempSync(join(tmpdir(), 'v20sim-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function run(text: string, name?: string): Promise<Awaited<ReturnType<typeof runScenarioFile>>> {
  n += 1;
  const file = join(dir, name ?? `r${n}.yaml`);
  writeFileSync(file, text);
  return runScenarioFile(file, dir);
}

const HEAD = `name: t
config: { start: 2024-01-02T12:00:00Z }
prices: { ticks: [[T+1s, EUR_USD, 1.1, 1.1002], [T+10s, EUR_USD, 1.098, 1.0982]] }
steps:
  - advance: T+1s
`;
const LIMIT = `  - request:
      method: POST
      path: /v3/accounts/\${account}/orders
      body: { order: { type: LIMIT, instrument: EUR_USD, units: "1000", price: "1.09900" } }
`;

describe('the runner', () => {
  it('captures values for later requests and expectations', async () => {
    const r = await run(`${HEAD}${LIMIT}    capture: { id: body.orderCreateTransaction.id, loc: headers.Location }
  - request: { path: "/v3/accounts/\${account}/orders/\${id}" }
    expect: { status: 200, body: { order: { id: "\${id}", state: PENDING } } }
  - request: { path: /v3/accounts }
    expect: { body: { accounts: [{ id: "\${account}" }] } }
`);
    expect(r.status, resultText(r)).toBe('passed');
  });

  it('a stream expectation fails with the lines that did arrive', async () => {
    const r = await run(`${HEAD}  - openStream: s
${LIMIT}  - expectStream: [LIMIT_ORDER, ORDER_FILL]
`);
    expect(r.status).toBe('failed');
    const text = resultText(r);
    expect(text).toContain('stream s received different lines (1 received, 2 expected)');
    expect(text).toContain('missing: ORDER_FILL');
    expect(text).toMatch(/r\d+\.yaml:\d+:\d+/);
  });

  it('a step error skips the rest: a capture that finds nothing', async () => {
    const r = await run(`${HEAD}${LIMIT}    capture: { id: body.orderFillTransaction.id }
  - advance: T+10s
`);
    expect(r.status).toBe('failed');
    expect(r.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(r.steps[1]?.failures[0]?.message).toMatch(
      /^capture id: the response has nothing at body\.orderFillTransaction\.id \(status 201/,
    );
  });

  it('the clock cannot go back', async () => {
    const r = await run(`${HEAD}  - advance: T+10s\n  - advance: T+5s\n`);
    expect(r.steps[2]?.failures[0]?.message).toBe('cannot move the clock back from 2024-01-02T12:00:10Z to 2024-01-02T12:00:05Z');
  });

  it('expectTransactions without since continues where the previous one ended', async () => {
    const r = await run(`${HEAD}  - expectTransactions: [CREATE, TRANSFER_FUNDS]
${LIMIT}  - expectTransactions: [LIMIT_ORDER]
  - advance: T+10s
  - expectTransactions: [{ type: ORDER_FILL, price: !decimal 1.0982 }]
  - expectState: { orders: { "3": { state: FILLED } }, summary: { openTradeCount: 1 } }
`);
    expect(r.status, resultText(r)).toBe('passed');
  });

  it('inline tick steps feed the price source up to their time first', async () => {
    const r = await run(`${HEAD}${LIMIT}  - tick: { time: T+20s, instrument: EUR_USD, bid: 1.1, ask: 1.1002 }
  - expectTransactions: { since: 3, transactions: [{ type: ORDER_FILL, time: !time T+10s }] }
  - expectState: { summary: { lastTransactionID: "4" } }
`);
    expect(r.status, resultText(r)).toBe('passed');
  });

  it('runs the same twice: results carry no wall-clock data except the duration', async () => {
    const text = `${HEAD}${LIMIT}  - advance: end\n  - expectTransactions: { since: 3, transactions: [ORDER_FILL] }\n`;
    const a = await run(text, 'twice.yaml');
    const b = await run(text, 'twice.yaml');
    const strip = (r: typeof a): unknown => ({ ...r, durationMs: 0 });
    expect(strip(a)).toEqual(strip(b));
  });
});
