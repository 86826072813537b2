import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../api/index.js';
import type { Micros } from '../domain/time.js';
import { createEngine, type AccountView, type Engine } from '../engine/engine.js';
import { MemoryJournal } from '../journal/journal.js';
import { checkGoldens } from './goldens.js';
import { compare, formatPath, show, type Mismatch } from './matchers.js';
import type { Action, Scenario, Step } from './model.js';
import { TickFeed, tickOf } from './prices.js';
import { pointerOf, type Location } from './source.js';
import type { DiffEntry, Failure, RunOptions, ScenarioResult, StepResult } from './result.js';
import { injectResponse, probeStreamResponse } from './http.js';
import { openEngineStream, openHttpStream, parseStreamLines, STREAM_WAIT_MS, type ScenarioStream } from './stream.js';
import { bodyText, capture, clip, shortTime, transactionsText, type Response } from './texts.js';
import { interpolate, interpolateString, UnknownVariableError } from './vars.js';
import { getAccount, getAccountSummary } from '../v3/accounts.js';
import type { V3Call } from '../v3/call.js';
import { getOrder, listPendingOrders } from '../v3/orders.js';
import { listPositions } from '../v3/positions.js';
import type { V20Response } from '../v3/response.js';
import { getTrade, listOpenTrades } from '../v3/trades.js';

/** An error that ends the scenario (later steps are skipped), as opposed to a failed expectation. */
class StepError extends Error {}

export type { DiffEntry, Failure, RunOptions, ScenarioResult, StepResult } from './result.js';

/** Stream heartbeats are wall-clock driven; a scenario server sends them rarely enough never to see one. */
const SCENARIO_HEARTBEAT_MS = 3_600_000;

class ScenarioRun {
  private readonly journal = new MemoryJournal();
  private readonly engine: Engine;
  private app!: App;
  private readonly feed: TickFeed;
  private readonly vars: Map<string, unknown>;
  private readonly marks = new Map<string, Map<string, number>>();
  private readonly cursors = new Map<string, number>();
  private readonly streams = new Map<string, ScenarioStream>();
  private port: number | undefined;

  constructor(private readonly scenario: Scenario) {
    const c = scenario.config;
    this.engine = createEngine({ accounts: c.accounts, instruments: c.instruments, seed: c.seed, start: c.start, journal: this.journal });
    this.feed = new TickFeed(scenario.sources, this.engine.instruments);
    this.vars = new Map(scenario.vars);
  }

  async start(): Promise<void> {
    const c = this.scenario.config;
    this.app = await buildApp({ engine: this.engine, tokens: c.tokens, baseUrl: c.baseUrl, heartbeatMs: SCENARIO_HEARTBEAT_MS });
  }

  async stop(): Promise<void> {
    for (const s of this.streams.values()) s.close();
    this.streams.clear();
    this.feed.close();
    await this.app.close();
  }

  private at(pointer: string): Location {
    return this.scenario.map.at(pointer);
  }

  private diff(step: Step, prefix: readonly (string | number)[], mismatches: readonly Mismatch[]): DiffEntry[] {
    return mismatches.map((m) => {
      const full = [...prefix, ...m.path];
      const entry: { -readonly [K in keyof DiffEntry]: DiffEntry[K] } = {
        path: formatPath(full) || '(value)',
        location: this.at(step.expectPointer + pointerOf(full)),
        expected: m.expected,
        actual: m.actual,
      };
      if (m.note !== undefined) entry.note = m.note;
      return entry;
    });
  }

  private account(id: string | undefined): AccountView {
    const accountId = id === undefined ? this.scenario.config.accounts[0]?.id : String(interpolateString(id, this.vars));
    const account = accountId === undefined ? undefined : this.engine.account(accountId);
    if (account === undefined) throw new StepError(`no account ${String(accountId)}`);
    return account;
  }

  private feedUntil(t: Micros): number {
    let n = 0;
    for (let tick = this.feed.peek(); tick !== undefined && tick.time <= t; tick = this.feed.peek()) {
      this.engine.pushTick(this.feed.take() as NonNullable<typeof tick>);
      n += 1;
    }
    return n;
  }

  private advanceTo(t: Micros): string {
    if (t < this.engine.now) throw new StepError(`cannot move the clock back from ${shortTime(this.engine.now)} to ${shortTime(t)}`);
    const n = this.feedUntil(t);
    if (t > this.engine.now) this.engine.advanceTo(t);
    return `${n} tick${n === 1 ? '' : 's'}`;
  }

  // ---- steps -----------------------------------------------------------------------------------

  async step(step: Step): Promise<{ label: string; failures: Failure[] }> {
    const a = step.action;
    switch (a.kind) {
      case 'advanceTo':
        return { label: `advance to ${shortTime(a.to)} (${this.advanceTo(a.to)})`, failures: [] };
      case 'advanceBy': {
        const to = this.engine.now + a.by;
        return { label: `advance to ${shortTime(to)} (${this.advanceTo(to)})`, failures: [] };
      }
      case 'advanceTicks': {
        for (let i = 0; i < a.count; i += 1) {
          const tick = this.feed.take();
          if (tick === undefined) throw new StepError(`the price source ran out after ${i} of ${a.count} ticks`);
          this.engine.pushTick(tick);
        }
        return { label: `advance ${a.count} tick${a.count === 1 ? '' : 's'} to ${shortTime(this.engine.now)}`, failures: [] };
      }
      case 'advanceEnd': {
        let n = 0;
        for (let tick = this.feed.take(); tick !== undefined; tick = this.feed.take()) {
          this.engine.pushTick(tick);
          n += 1;
        }
        return { label: `advance to the end of the prices (${n} ticks, now ${shortTime(this.engine.now)})`, failures: [] };
      }
      case 'ticks': {
        const shown: string[] = [];
        for (const spec of a.ticks) {
          const t = spec.time ?? this.engine.now;
          if (t < this.engine.now) throw new StepError(`a tick at ${shortTime(t)} is before the clock (${shortTime(this.engine.now)})`);
          this.feedUntil(t);
          this.engine.pushTick(tickOf(spec, t));
          shown.push(`${spec.instrument} ${spec.bid}/${spec.ask} at ${shortTime(t)}`);
        }
        return {
          label: `tick ${shown.length === 1 ? (shown[0] as string) : `${shown.length} quotes to ${shortTime(this.engine.now)}`}`,
          failures: [],
        };
      }
      case 'request':
        return this.request(step, a);
      case 'mark': {
        const ids = new Map<string, number>();
        for (const id of this.engine.accountIds()) ids.set(id, (this.engine.account(id) as AccountView).state.lastTransactionID);
        this.marks.set(a.name, ids);
        const first = [...ids.values()][0];
        return { label: `mark ${a.name} (lastTransactionID ${String(first)})`, failures: [] };
      }
      case 'expectTransactions':
        return this.expectTransactions(step, a);
      case 'expectState':
        return this.expectState(step, a);
      case 'openStream':
        return this.openStream(step, a);
      case 'expectStream':
        return this.expectStream(step, a);
      case 'closeStream': {
        this.streams.get(a.name)?.close();
        this.streams.delete(a.name);
        return { label: `close stream ${a.name}`, failures: [] };
      }
    }
  }

  private headersFor(token: string | null | undefined, extra: Readonly<Record<string, string | null>>): Record<string, string> {
    const headers: Record<string, string | null> = {};
    const t = token === undefined ? this.scenario.config.tokens[0]?.token : token;
    if (t !== null && t !== undefined) headers['authorization'] = `Bearer ${t}`;
    for (const [k, v] of Object.entries(extra)) headers[k.toLowerCase()] = v === null ? null : String(interpolateString(v, this.vars));
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== null) out[k] = v;
    return out;
  }

  private async listen(): Promise<number> {
    if (this.port === undefined) {
      await this.app.listen({ host: '127.0.0.1', port: 0 });
      this.port = (this.app.server.address() as AddressInfo).port;
    }
    return this.port;
  }

  private async send(method: string, url: string, headers: Record<string, string>, payload: string | undefined): Promise<Response> {
    const path = url.split('?')[0] ?? url;
    if (/\/(transactions|pricing)\/stream\/?$/.test(path)) return probeStreamResponse(await this.listen(), method, url, headers);
    return injectResponse(this.app, method, url, headers, payload);
  }

  private async request(step: Step, a: Extract<Action, { kind: 'request' }>): Promise<{ label: string; failures: Failure[] }> {
    const r = a.request;
    let url = String(interpolateString(r.path, this.vars));
    if (r.query !== undefined) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(interpolate(r.query, this.vars) as Record<string, unknown>)) q.append(k, String(v));
      url += `${url.includes('?') ? '&' : '?'}${q.toString()}`;
    }
    const headers = this.headersFor(
      r.token === undefined ? undefined : r.token === null ? null : String(interpolateString(r.token, this.vars)),
      r.headers,
    );
    let payload: string | undefined;
    if (r.hasBody || r.rawBody !== undefined) {
      payload = r.rawBody !== undefined ? String(interpolateString(r.rawBody, this.vars)) : JSON.stringify(interpolate(r.body, this.vars));
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.send(r.method, url, headers, payload);
    const label = `${r.method} ${r.path} → ${res.status}`;
    const failures: Failure[] = [];
    if (a.expect !== undefined) {
      const e = interpolate(a.expect, this.vars) as typeof a.expect;
      const entries: DiffEntry[] = [];
      if (e.status !== undefined) entries.push(...this.diff(step, ['status'], compare(e.status, res.status)));
      if (e.headers !== undefined) {
        for (const [name, expected] of Object.entries(e.headers)) {
          entries.push(...this.diff(step, ['headers', name], compare(expected, res.headers[name.toLowerCase()])));
        }
      }
      if (e.hasBody) entries.push(...this.diff(step, ['body'], compare(e.body, res.body)));
      if (entries.length > 0) {
        failures.push({
          message: `${r.method} ${url} answered ${res.status}${e.status !== undefined && compare(e.status, res.status).length > 0 ? `, expected ${show(e.status)}` : ''}: ${entries.length} difference${entries.length === 1 ? '' : 's'}`,
          location: step.location,
          diff: entries,
          actual: clip(bodyText(res.body)),
        });
      }
    }
    for (const [name, path] of a.capture) {
      const value = capture(res, path);
      if (value === undefined) {
        throw new StepError(
          `capture ${name}: the response has nothing at ${path} (status ${res.status}; body: ${clip(res.text).slice(0, 500)})`,
        );
      }
      this.vars.set(name, value);
    }
    return { label, failures };
  }

  private expectTransactions(step: Step, a: Extract<Action, { kind: 'expectTransactions' }>): { label: string; failures: Failure[] } {
    const account = this.account(a.account);
    let since: number;
    let sinceText: string;
    if (a.since === undefined) {
      since = this.cursors.get(account.id) ?? 0;
      sinceText = since === 0 ? 'the start' : `${since}`;
    } else if ('mark' in a.since) {
      const mark = this.marks.get(a.since.mark)?.get(account.id);
      if (mark === undefined) throw new StepError(`no mark ${a.since.mark}`);
      since = mark;
      sinceText = `mark ${a.since.mark} (${mark})`;
    } else {
      since = a.since.id;
      sinceText = `${since}`;
    }
    const actual = account.log.slice(since);
    this.cursors.set(account.id, account.state.lastTransactionID);
    const expected = interpolate(a.items, this.vars) as unknown[];
    const mismatches = compare(expected, actual);
    const label = `expect ${expected.length} transaction${expected.length === 1 ? '' : 's'} after ${sinceText}${a.account === undefined ? '' : ` on ${account.id}`}`;
    if (mismatches.length === 0) return { label, failures: [] };
    return {
      label,
      failures: [
        {
          message: `the transactions after ${sinceText} differ (${actual.length} created, ${expected.length} expected)`,
          location: step.location,
          diff: this.diff(step, [], mismatches),
          actual: transactionsText(actual),
        },
      ],
    };
  }

  private expectState(step: Step, a: Extract<Action, { kind: 'expectState' }>): { label: string; failures: Failure[] } {
    const call: V3Call = { engine: this.engine, accountID: this.account(a.account).id };
    const checks = interpolate(a.checks, this.vars) as typeof a.checks;
    const entries: DiffEntry[] = [];
    const parts: string[] = [];
    // What the v3 read operations answer; a 404 (no such order or trade) is nothing.
    const check = (path: (string | number)[], expected: unknown, response: V20Response, key: string): void => {
      entries.push(...this.diff(step, path, compare(expected, response.status === 200 ? response.body[key] : undefined)));
    };
    if (checks.summary !== undefined) {
      parts.push('summary');
      check(['summary'], checks.summary, getAccountSummary(call), 'account');
    }
    if (checks.account !== undefined) {
      parts.push('account');
      check(['account'], checks.account, getAccount(call), 'account');
    }
    for (const [spec, expected] of Object.entries(checks.orders ?? {})) {
      parts.push(`order ${spec}`);
      check(['orders', spec], expected, getOrder(call, spec), 'order');
    }
    for (const [spec, expected] of Object.entries(checks.trades ?? {})) {
      parts.push(`trade ${spec}`);
      check(['trades', spec], expected, getTrade(call, spec), 'trade');
    }
    if (checks.positions !== undefined) {
      // Positions of instruments the account has traded: never traded is nothing, not a flat position.
      const positions = listPositions(call).body['positions'] as { instrument: string }[];
      for (const [instrument, expected] of Object.entries(checks.positions)) {
        parts.push(`position ${instrument}`);
        entries.push(
          ...this.diff(
            step,
            ['positions', instrument],
            compare(
              expected,
              positions.find((p) => p.instrument === instrument),
            ),
          ),
        );
      }
    }
    if (checks.pendingOrders !== undefined) {
      parts.push('pending orders');
      check(['pendingOrders'], checks.pendingOrders, listPendingOrders(call), 'orders');
    }
    if (checks.openTrades !== undefined) {
      parts.push('open trades');
      check(['openTrades'], checks.openTrades, listOpenTrades(call), 'trades');
    }
    const label = `expect state${a.account === undefined ? '' : ` of ${this.account(a.account).id}`}: ${parts.join(', ')}`;
    if (entries.length === 0) return { label, failures: [] };
    return {
      label,
      failures: [
        {
          message: `the account state differs: ${entries.length} difference${entries.length === 1 ? '' : 's'}`,
          location: step.location,
          diff: entries,
        },
      ],
    };
  }

  private async openStream(step: Step, a: Extract<Action, { kind: 'openStream' }>): Promise<{ label: string; failures: Failure[] }> {
    const { id } = this.account(a.account);
    const headers = this.headersFor(a.token === undefined ? undefined : String(interpolateString(a.token, this.vars)), a.headers);
    const format = headers['accept-datetime-format'] === 'UNIX' ? 'UNIX' : 'RFC3339';
    if (a.via === 'engine') {
      this.streams.set(a.name, openEngineStream(this.engine, a.name, id, format));
      return { label: `open stream ${a.name} (engine) on ${id}`, failures: [] };
    }
    const port = await this.listen();
    const result = await openHttpStream(this.engine, port, a.name, id, `/v3/accounts/${id}/transactions/stream`, headers, format);
    if (!result.ok) {
      throw new StepError(`the transaction stream answered ${result.status}: ${result.body}`);
    }
    this.streams.set(a.name, result.stream);
    return { label: `open stream ${a.name} on ${id}`, failures: [] };
  }

  private async expectStream(step: Step, a: Extract<Action, { kind: 'expectStream' }>): Promise<{ label: string; failures: Failure[] }> {
    const stream = this.streams.get(a.name);
    if (stream === undefined) throw new StepError(`stream ${a.name} is not open`);
    const due = stream.published.length;
    const arrived = await stream.waitFor(due);
    const failures: Failure[] = [];
    const fresh = stream.lines.slice(stream.cursor);
    const start = stream.cursor;
    stream.cursor = stream.lines.length;
    const expected = interpolate(a.items, this.vars) as unknown[];
    const label = `expect ${expected.length} stream line${expected.length === 1 ? '' : 's'} on ${a.name}`;
    if (!arrived) {
      failures.push({
        message: `stream ${a.name} delivered ${stream.lines.length} of the ${due} transactions the engine published within ${STREAM_WAIT_MS} ms`,
        location: step.location,
      });
    }
    const parsed = parseStreamLines(stream, fresh, start, (message, actual) => {
      failures.push(actual === undefined ? { message, location: step.location } : { message, location: step.location, actual });
    });
    const mismatches = compare(expected, parsed);
    if (mismatches.length > 0) {
      failures.push({
        message: `stream ${a.name} received different lines (${parsed.length} received, ${expected.length} expected)`,
        location: step.location,
        diff: this.diff(step, [], mismatches),
        actual: transactionsText(parsed),
      });
    }
    return { label, failures };
  }

  goldens(update: boolean): { failures: Failure[]; goldens: ScenarioResult['goldens'] } {
    return checkGoldens(
      this.scenario,
      this.vars,
      (id) => (this.engine.account(id) === undefined ? undefined : this.journal.text(id)),
      update,
    );
  }
}

function now(): number {
  return performance.now();
}

/** Runs one loaded scenario. Never throws for a scenario's own faults: they are failures. */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const began = now();
  const steps: StepResult[] = [];
  const failures: Failure[] = [];
  let goldens: ScenarioResult['goldens'] = [];
  let run: ScenarioRun | undefined;
  try {
    run = new ScenarioRun(scenario);
    await run.start();
  } catch (err) {
    failures.push({ message: `cannot start the simulator: ${(err as Error).message}`, location: scenario.map.at('/config') });
    run = undefined;
  }
  let aborted = run === undefined;
  for (const step of scenario.steps) {
    const fallback = step.name ?? step.action.kind;
    if (aborted || run === undefined) {
      steps.push({ index: step.index, label: fallback, location: step.location, status: 'skipped', failures: [] });
      continue;
    }
    try {
      const { label, failures: stepFailures } = await run.step(step);
      steps.push({
        index: step.index,
        label: step.name === undefined ? label : `${step.name} — ${label}`,
        location: step.location,
        status: stepFailures.length > 0 ? 'failed' : 'passed',
        failures: stepFailures,
      });
    } catch (err) {
      aborted = true;
      const message =
        err instanceof StepError || err instanceof UnknownVariableError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
      steps.push({
        index: step.index,
        label: fallback,
        location: step.location,
        status: 'failed',
        failures: [{ message, location: step.location }],
      });
    }
  }
  if (run !== undefined && !aborted) {
    const g = run.goldens(options.update === true);
    failures.push(...g.failures);
    goldens = g.goldens;
  }
  try {
    await run?.stop();
  } catch (err) {
    failures.push({ message: `teardown: ${(err as Error).message}`, location: scenario.map.at('') });
  }
  const failed = failures.length > 0 || steps.some((s) => s.status === 'failed');
  return {
    file: scenario.display,
    name: scenario.name,
    status: failed ? 'failed' : 'passed',
    steps,
    failures,
    problems: [],
    goldens,
    durationMs: Math.round(now() - began),
  };
}
