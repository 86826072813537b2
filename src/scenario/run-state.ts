/**
 * What one running scenario holds: the engine and its journal, the Fastify app the requests go
 * to, the price feed, the variables, marks and open streams. The steps (step-*.ts) read and change
 * it; run.ts creates one per scenario and drives the steps in order.
 */
import type { AddressInfo } from 'node:net';
import type { App, ReusableApp } from '../api/index.js';
import { leaseApp, releaseApp } from './app-pool.js';
import { createEngine, type AccountView, type Engine } from '../engine/engine.js';
import { MemoryJournal } from '../journal/journal.js';
import { formatPath, type Mismatch } from './compare.js';
import { checkGoldens } from './goldens.js';
import { injectResponse, probeStreamResponse } from './http.js';
import type { Scenario, Step } from './model.js';
import { TickFeed } from './prices.js';
import type { DiffEntry, Failure, ScenarioResult } from './result.js';
import { pointerOf } from './source.js';
import type { ScenarioStream } from './stream.js';
import type { Response } from './texts.js';
import { interpolateString } from './vars.js';

/** An error that ends the scenario (later steps are skipped), as opposed to a failed expectation. */
export class StepError extends Error {}

/** What a step did (for the report) and which of its expectations failed. */
export interface StepOutcome {
  readonly label: string;
  readonly failures: Failure[];
}

/** Stream heartbeats are wall-clock driven; a scenario server sends them rarely enough never to see one. */
const SCENARIO_HEARTBEAT_MS = 3_600_000;

export class ScenarioRun {
  readonly journal = new MemoryJournal();
  readonly engine: Engine;
  readonly feed: TickFeed;
  /** The scenario's variables: `vars`, then the values request steps capture. */
  readonly vars: Map<string, unknown>;
  /** Mark name -> account ID -> the account's lastTransactionID when the mark was set. */
  readonly marks = new Map<string, Map<string, number>>();
  /** Account ID -> the lastTransactionID an expectTransactions step without `since` starts after. */
  readonly cursors = new Map<string, number>();
  readonly streams = new Map<string, ScenarioStream>();
  private lease!: ReusableApp;
  private port: number | undefined;

  constructor(readonly scenario: Scenario) {
    const c = scenario.config;
    this.engine = createEngine({ accounts: c.accounts, instruments: c.instruments, seed: c.seed, start: c.start, journal: this.journal });
    this.feed = new TickFeed(scenario.sources, this.engine.instruments);
    this.vars = new Map(scenario.vars);
  }

  async start(): Promise<void> {
    const c = this.scenario.config;
    this.lease = await leaseApp({ engine: this.engine, tokens: c.tokens, baseUrl: c.baseUrl, heartbeatMs: SCENARIO_HEARTBEAT_MS });
  }

  private get app(): App {
    return this.lease.app;
  }

  async stop(): Promise<void> {
    for (const s of this.streams.values()) s.close();
    this.streams.clear();
    this.feed.close();
    await releaseApp(this.lease, this.scenario.config.baseUrl);
  }

  /** Mismatches of what `step` expects at `prefix`, placed in the scenario file. */
  diff(step: Step, prefix: readonly (string | number)[], mismatches: readonly Mismatch[]): DiffEntry[] {
    return mismatches.map((m) => {
      const full = [...prefix, ...m.path];
      const entry: { -readonly [K in keyof DiffEntry]: DiffEntry[K] } = {
        path: formatPath(full) || '(value)',
        location: this.scenario.map.at(step.expectPointer + pointerOf(full)),
        expected: m.expected,
        actual: m.actual,
      };
      if (m.note !== undefined) entry.note = m.note;
      return entry;
    });
  }

  /** The account a step names (a variable allowed), or the first account. */
  account(id: string | undefined): AccountView {
    const accountId = id === undefined ? this.scenario.config.accounts[0]?.id : String(interpolateString(id, this.vars));
    const account = accountId === undefined ? undefined : this.engine.account(accountId);
    if (account === undefined) throw new StepError(`no account ${String(accountId)}`);
    return account;
  }

  /** Request headers: the bearer token (undefined: the first token; null: none), then `extra` (null removes). */
  headersFor(token: string | null | undefined, extra: Readonly<Record<string, string | null>>): Record<string, string> {
    const headers: Record<string, string | null> = {};
    const t = token === undefined ? this.scenario.config.tokens[0]?.token : token;
    if (t !== null && t !== undefined) headers['authorization'] = `Bearer ${t}`;
    for (const [k, v] of Object.entries(extra)) headers[k.toLowerCase()] = v === null ? null : String(interpolateString(v, this.vars));
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== null) out[k] = v;
    return out;
  }

  /** The loopback port of the app, listening from the first stream on (inject cannot stream). */
  async listen(): Promise<number> {
    if (this.port === undefined) {
      await this.app.listen({ host: '127.0.0.1', port: 0 });
      this.port = (this.app.server.address() as AddressInfo).port;
    }
    return this.port;
  }

  /** One request to the app: injected, or over loopback for a stream path. */
  async send(method: string, url: string, headers: Record<string, string>, payload: string | undefined): Promise<Response> {
    const path = url.split('?')[0] ?? url;
    if (/\/(transactions|pricing)\/stream\/?$/.test(path)) return probeStreamResponse(await this.listen(), method, url, headers);
    return injectResponse(this.app, method, url, headers, payload);
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
