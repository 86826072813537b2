import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { findOrder, findTrade } from '../account/specifiers.js';
import type { AccountState } from '../account/state.js';
import { accountSummaryView, accountView, orderView, pendingOrders, positionView, tradeView } from '../account/views.js';
import { buildApp, type App } from '../api/app.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { MemoryJournal } from '../journal/journal.js';
import type { Problem } from './load.js';
import { compare, formatPath, show, type Mismatch } from './matchers.js';
import type { Action, Scenario, Step } from './model.js';
import { TickFeed, tickOf } from './prices.js';
import { pointerOf, type Location } from './source.js';
import { openEngineStream, openHttpStream, probeStream, STREAM_WAIT_MS, type ScenarioStream } from './stream.js';
import { interpolate, interpolateString, UnknownVariableError } from './vars.js';

/** One difference, placed in the scenario file. */
export interface DiffEntry {
  readonly path: string;
  readonly location: Location;
  readonly expected: string;
  readonly actual: string;
  readonly note?: string;
}

export interface Failure {
  readonly message: string;
  readonly location: Location;
  readonly diff?: readonly DiffEntry[];
  /** What was actually there, for the reader (a response body, the transactions). */
  readonly actual?: string;
}

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  readonly index: number;
  readonly label: string;
  readonly location: Location;
  readonly status: StepStatus;
  readonly failures: readonly Failure[];
}

export type ScenarioStatus = 'passed' | 'failed' | 'invalid';

/** What a run of one file reports: plain data, the same from a worker as in process. */
export interface ScenarioResult {
  readonly file: string;
  readonly name: string;
  readonly status: ScenarioStatus;
  readonly steps: readonly StepResult[];
  /** Failures outside the steps (golden logs, teardown). */
  readonly failures: readonly Failure[];
  /** Why the file is invalid (status 'invalid'). */
  readonly problems: readonly Problem[];
  readonly goldens: readonly { readonly file: string; readonly status: 'matched' | 'updated' | 'written' | 'differs' | 'missing' }[];
  readonly durationMs: number;
}

export interface RunOptions {
  /** Rewrite golden files instead of comparing them. */
  readonly update?: boolean;
}

/** An error that ends the scenario (later steps are skipped), as opposed to a failed expectation. */
class StepError extends Error {}

/** Body text shown with a failure, at most this many characters. */
const ACTUAL_TEXT_MAX = 4000;
/** Stream heartbeats are wall-clock driven; a scenario server sends them rarely enough never to see one. */
const SCENARIO_HEARTBEAT_MS = 3_600_000;

/** RFC3339 with as many fractional digits as the time needs: none, milliseconds or microseconds. */
function shortTime(t: Micros): string {
  const text = formatRfc3339(t); // ...ss.ffffff000Z
  const micros = ((t % 1_000_000) + 1_000_000) % 1_000_000;
  if (micros === 0) return `${text.slice(0, 19)}Z`;
  return micros % 1000 === 0 ? `${text.slice(0, 23)}Z` : `${text.slice(0, 26)}Z`;
}

function clip(text: string): string {
  return text.length > ACTUAL_TEXT_MAX ? `${text.slice(0, ACTUAL_TEXT_MAX)}\n... (${text.length - ACTUAL_TEXT_MAX} more characters)` : text;
}

/** A body for a failure report: one line per top-level key, each in compact JSON. */
function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return JSON.stringify(body) ?? '';
  const lines = Object.entries(body).map(([k, v]) => {
    const line = `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    return line.length > 600 ? `${line.slice(0, 597)}...` : line;
  });
  return `{\n${lines.join(',\n')}\n}`;
}

function briefTransaction(tx: Record<string, unknown>): string {
  const extra = ['reason', 'orderID', 'tradeID', 'units', 'price', 'rejectReason'].filter((k) => typeof tx[k] === 'string').map((k) => `${k}=${tx[k] as string}`);
  return `${String(tx['id'])} ${String(tx['type'])}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
}

function transactionsText(list: readonly unknown[]): string {
  if (list.length === 0) return '(none)';
  return list.map((tx) => (typeof tx === 'object' && tx !== null ? briefTransaction(tx as Record<string, unknown>) : String(tx))).join('\n');
}

interface Response {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  text: string;
}

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
        path: formatPath(full) || '(value)', location: this.at(step.expectPointer + pointerOf(full)), expected: m.expected, actual: m.actual,
      };
      if (m.note !== undefined) entry.note = m.note;
      return entry;
    });
  }

  private account(id: string | undefined): { id: string; state: AccountState; log: readonly Transaction[] } {
    const accountId = id === undefined ? this.scenario.config.accounts[0]?.id : String(interpolateString(id, this.vars));
    const account = accountId === undefined ? undefined : this.engine.account(accountId);
    if (account === undefined) throw new StepError(`no account ${String(accountId)}`);
    return { id: account.id, state: account.state, log: account.log };
  }

  // ---- time and prices -------------------------------------------------------------------------

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
        return { label: `tick ${shown.length === 1 ? shown[0] as string : `${shown.length} quotes to ${shortTime(this.engine.now)}`}`, failures: [] };
      }
      case 'request':
        return this.request(step, a);
      case 'mark': {
        const ids = new Map<string, number>();
        for (const id of this.engine.accountIds()) ids.set(id, (this.engine.account(id) as { state: AccountState }).state.lastTransactionID);
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
    if (/\/(transactions|pricing)\/stream\/?$/.test(path)) {
      const port = await this.listen();
      const r = await probeStream(port, method, url, headers);
      let body: unknown = r.body;
      try {
        if (r.body !== undefined && r.body !== '') body = JSON.parse(r.body);
      } catch {
        // Not JSON: compared as text.
      }
      return { status: r.status, headers: r.headers, body, text: r.body ?? '(stream opened; cut off after the headers)' };
    }
    const options: InjectOptions = { method: method as NonNullable<InjectOptions['method']>, url, headers };
    if (payload !== undefined) options.payload = payload;
    const res = await this.app.inject(options);
    let body: unknown = res.payload;
    try {
      if (res.payload !== '') body = JSON.parse(res.payload);
    } catch {
      // Not JSON: compared as text.
    }
    return { status: res.statusCode, headers: res.headers as Record<string, unknown>, body, text: res.payload };
  }

  private async request(step: Step, a: Extract<Action, { kind: 'request' }>): Promise<{ label: string; failures: Failure[] }> {
    const r = a.request;
    let url = String(interpolateString(r.path, this.vars));
    if (r.query !== undefined) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(interpolate(r.query, this.vars) as Record<string, unknown>)) q.append(k, String(v));
      url += `${url.includes('?') ? '&' : '?'}${q.toString()}`;
    }
    const headers = this.headersFor(r.token === undefined ? undefined : r.token === null ? null : String(interpolateString(r.token, this.vars)), r.headers);
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
          location: step.location, diff: entries, actual: clip(bodyText(res.body)),
        });
      }
    }
    for (const [name, path] of a.capture) {
      const value = capture(res, path);
      if (value === undefined) {
        throw new StepError(`capture ${name}: the response has nothing at ${path} (status ${res.status}; body: ${clip(res.text).slice(0, 500)})`);
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
      failures: [{
        message: `the transactions after ${sinceText} differ (${actual.length} created, ${expected.length} expected)`,
        location: step.location, diff: this.diff(step, [], mismatches), actual: transactionsText(actual),
      }],
    };
  }

  private expectState(step: Step, a: Extract<Action, { kind: 'expectState' }>): { label: string; failures: Failure[] } {
    const { state } = this.account(a.account);
    const checks = interpolate(a.checks, this.vars) as typeof a.checks;
    const entries: DiffEntry[] = [];
    const parts: string[] = [];
    const check = (path: (string | number)[], expected: unknown, actual: unknown): void => {
      entries.push(...this.diff(step, path, compare(expected, actual)));
    };
    if (checks.summary !== undefined) {
      parts.push('summary');
      check(['summary'], checks.summary, accountSummaryView(state));
    }
    if (checks.account !== undefined) {
      parts.push('account');
      check(['account'], checks.account, accountView(state));
    }
    for (const [spec, expected] of Object.entries(checks.orders ?? {})) {
      parts.push(`order ${spec}`);
      const order = findOrder(state, spec);
      check(['orders', spec], expected, order === undefined ? undefined : orderView(state, order));
    }
    for (const [spec, expected] of Object.entries(checks.trades ?? {})) {
      parts.push(`trade ${spec}`);
      const trade = findTrade(state, spec);
      check(['trades', spec], expected, trade === undefined ? undefined : tradeView(state, trade));
    }
    for (const [instrument, expected] of Object.entries(checks.positions ?? {})) {
      parts.push(`position ${instrument}`);
      const position = state.positions.get(instrument);
      check(['positions', instrument], expected, position === undefined ? undefined : positionView(state, position));
    }
    if (checks.pendingOrders !== undefined) {
      parts.push('pending orders');
      check(['pendingOrders'], checks.pendingOrders, pendingOrders(state).reverse().map((o) => orderView(state, o)));
    }
    if (checks.openTrades !== undefined) {
      parts.push('open trades');
      const open = [...state.trades.values()].filter((t) => t.state === 'OPEN').reverse();
      check(['openTrades'], checks.openTrades, open.map((t) => tradeView(state, t)));
    }
    const label = `expect state${a.account === undefined ? '' : ` of ${this.account(a.account).id}`}: ${parts.join(', ')}`;
    if (entries.length === 0) return { label, failures: [] };
    return { label, failures: [{ message: `the account state differs: ${entries.length} difference${entries.length === 1 ? '' : 's'}`, location: step.location, diff: entries }] };
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
      failures.push({ message: `stream ${a.name} delivered ${stream.lines.length} of the ${due} transactions the engine published within ${STREAM_WAIT_MS} ms`, location: step.location });
    }
    const parsed: unknown[] = [];
    for (let i = 0; i < fresh.length; i += 1) {
      const line = fresh[i] as string;
      try {
        parsed.push(JSON.parse(line));
      } catch {
        failures.push({ message: `stream line ${start + i + 1} is not JSON: ${line.slice(0, 200)}`, location: step.location });
        parsed.push(line);
      }
      // The stream must send exactly the journal's line for the transaction.
      const tx = stream.published[start + i];
      if (stream.format === 'RFC3339' && tx !== undefined) {
        const journalLine = JSON.stringify(tx);
        if (journalLine !== line) failures.push({ message: `stream line ${start + i + 1} differs from the journal's line for transaction ${tx.id}`, location: step.location, actual: `stream:  ${line}\njournal: ${journalLine}` });
      }
    }
    const mismatches = compare(expected, parsed);
    if (mismatches.length > 0) {
      failures.push({ message: `stream ${a.name} received different lines (${parsed.length} received, ${expected.length} expected)`, location: step.location, diff: this.diff(step, [], mismatches), actual: transactionsText(parsed) });
    }
    return { label, failures };
  }

  // ---- goldens ---------------------------------------------------------------------------------

  goldens(update: boolean): { failures: Failure[]; goldens: ScenarioResult['goldens'] } {
    const failures: Failure[] = [];
    const goldens: { file: string; status: 'matched' | 'updated' | 'written' | 'differs' | 'missing' }[] = [];
    for (const g of this.scenario.goldens) {
      const accountId = String(interpolateString(g.account, this.vars));
      if (this.engine.account(accountId) === undefined) {
        failures.push({ message: `golden ${g.display}: no account ${accountId}`, location: g.location });
        continue;
      }
      const text = this.journal.text(accountId);
      const exists = existsSync(g.path);
      const current = exists ? readFileSync(g.path, 'utf8') : undefined;
      if (update) {
        if (current !== text) {
          mkdirSync(dirname(g.path), { recursive: true });
          writeFileSync(g.path, text);
          goldens.push({ file: g.display, status: exists ? 'updated' : 'written' });
        } else {
          goldens.push({ file: g.display, status: 'matched' });
        }
        continue;
      }
      if (current === undefined) {
        goldens.push({ file: g.display, status: 'missing' });
        failures.push({ message: `golden ${g.display} does not exist: run with --update to write it`, location: g.location });
        continue;
      }
      if (current === text) {
        goldens.push({ file: g.display, status: 'matched' });
        continue;
      }
      goldens.push({ file: g.display, status: 'differs' });
      failures.push(goldenDiff(g.display, g.location, current, text));
    }
    return { failures, goldens };
  }
}

/** The first differing line of a golden log, field by field when both sides are JSON. */
function goldenDiff(display: string, location: Location, expectedText: string, actualText: string): Failure {
  const expected = expectedText.split('\n');
  const actual = actualText.split('\n');
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i += 1;
  const e = expected[i];
  const a = actual[i];
  const lineNo = i + 1;
  const where = { ...location };
  const summary = `golden ${display} differs from line ${lineNo} (file has ${expected.filter((l) => l !== '').length} transactions, the run ${actual.filter((l) => l !== '').length}); run with --update after a deliberate change`;
  const diff: DiffEntry[] = [];
  try {
    if (e !== undefined && a !== undefined && e !== '' && a !== '') {
      for (const m of compare(JSON.parse(e) as unknown, JSON.parse(a) as unknown)) {
        diff.push({ path: `${display}:${lineNo} ${formatPath(m.path)}`, location: where, expected: m.expected, actual: m.actual });
      }
      // Keys only the run has (compare() is partial).
      for (const m of compare({ $exact: JSON.parse(e) as unknown }, JSON.parse(a) as unknown)) {
        if (m.note !== undefined) diff.push({ path: `${display}:${lineNo} ${formatPath(m.path)}`, location: where, expected: m.expected, actual: m.actual });
      }
    }
  } catch {
    // Not JSON: the raw lines below say it.
  }
  if (diff.length === 0) diff.push({ path: `${display}:${lineNo}`, location: where, expected: e === undefined || e === '' ? '(end of file)' : e, actual: a === undefined || a === '' ? '(end of log)' : a });
  return { message: summary, location, diff };
}

/** `body.a[0].b`, `headers.location`, `status` in a response. */
function capture(res: Response, path: string): unknown {
  const parts = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  const root = parts.shift();
  let value: unknown = root === 'body' ? res.body : root === 'headers' ? res.headers : root === 'status' ? res.status : undefined;
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return undefined;
    if (part.startsWith('[')) {
      value = Array.isArray(value) ? value[Number(part.slice(1, -1))] : undefined;
    } else {
      const key = root === 'headers' ? part.toLowerCase() : part;
      value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    }
  }
  return value;
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
      steps.push({ index: step.index, label: step.name === undefined ? label : `${step.name} — ${label}`, location: step.location, status: stepFailures.length > 0 ? 'failed' : 'passed', failures: stepFailures });
    } catch (err) {
      aborted = true;
      const message = err instanceof StepError || err instanceof UnknownVariableError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
      steps.push({ index: step.index, label: fallback, location: step.location, status: 'failed', failures: [{ message, location: step.location }] });
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
  return { file: scenario.display, name: scenario.name, status: failed ? 'failed' : 'passed', steps, failures, problems: [], goldens, durationMs: Math.round(now() - began) };
}
