import type { AccountConfig } from '../account/state.js';
import type { TokenGrant } from '../api/index.js';
import type { InstrumentOverride } from '../domain/instruments.js';
import type { Micros } from '../domain/time.js';
import type { FeedFormat } from '../engine/feeds/index.js';
import type { Location, SourceMap } from './source.js';

/** A scenario after loading: checked, times resolved, paths absolute. */
export interface Scenario {
  /** Absolute path of the file. */
  readonly file: string;
  /** The path as reports show it. */
  readonly display: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly config: ScenarioConfig;
  readonly sources: readonly PriceSourceSpec[];
  readonly vars: ReadonlyMap<string, unknown>;
  readonly goldens: readonly GoldenSpec[];
  readonly steps: readonly Step[];
  readonly map: SourceMap;
}

export interface ScenarioConfig {
  readonly start: Micros;
  readonly seed: number | string;
  readonly accounts: readonly AccountConfig[];
  readonly instruments: readonly InstrumentOverride[];
  readonly tokens: readonly TokenGrant[];
  readonly baseUrl: string;
}

export interface TickSpec {
  /** Undefined: the current simulated time (tick steps only). */
  readonly time: Micros | undefined;
  readonly instrument: string;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid?: number;
  readonly closeoutAsk?: number;
}

export interface FileSpec {
  readonly kind: 'file';
  readonly path: string;
  readonly format?: FeedFormat;
  readonly instrument?: string;
  readonly from?: Micros;
  readonly to?: Micros;
}

export interface GeneratorSpec {
  readonly kind: 'generator';
  readonly seed: number | string;
  readonly instruments: readonly string[];
  readonly start: Micros;
  readonly count?: number;
  readonly end?: Micros;
  readonly meanIntervalMicros?: number;
}

export type PriceSourceSpec = { readonly kind: 'ticks'; readonly ticks: readonly TickSpec[] } | FileSpec | GeneratorSpec;

export interface GoldenSpec {
  /** An account ID, possibly `${var}`. */
  readonly account: string;
  readonly path: string;
  readonly display: string;
  readonly location: Location;
}

export interface RequestSpec {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, unknown>> | undefined;
  /** undefined: the default token; null: none. */
  readonly token: string | null | undefined;
  readonly headers: Readonly<Record<string, string | null>>;
  readonly body: unknown;
  readonly hasBody: boolean;
  readonly rawBody: string | undefined;
}

export interface ResponseExpectation {
  readonly status?: unknown;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly hasBody: boolean;
}

export type Since = { readonly mark: string } | { readonly id: number };

export interface StateChecks {
  readonly summary?: unknown;
  readonly account?: unknown;
  readonly orders?: Readonly<Record<string, unknown>>;
  readonly trades?: Readonly<Record<string, unknown>>;
  readonly positions?: Readonly<Record<string, unknown>>;
  readonly pendingOrders?: unknown;
  readonly openTrades?: unknown;
}

export type Action =
  | { readonly kind: 'advanceTo'; readonly to: Micros }
  | { readonly kind: 'advanceBy'; readonly by: Micros }
  | { readonly kind: 'advanceTicks'; readonly count: number }
  | { readonly kind: 'advanceEnd' }
  | { readonly kind: 'ticks'; readonly ticks: readonly TickSpec[] }
  | {
      readonly kind: 'request';
      readonly request: RequestSpec;
      readonly expect: ResponseExpectation | undefined;
      readonly capture: ReadonlyMap<string, string>;
    }
  | { readonly kind: 'mark'; readonly name: string }
  | {
      readonly kind: 'expectTransactions';
      readonly since: Since | undefined;
      readonly account: string | undefined;
      readonly items: readonly unknown[];
    }
  | { readonly kind: 'expectState'; readonly account: string | undefined; readonly checks: StateChecks }
  | {
      readonly kind: 'openStream';
      readonly name: string;
      readonly account: string | undefined;
      readonly token: string | undefined;
      readonly headers: Readonly<Record<string, string | null>>;
      readonly via: 'http' | 'engine';
    }
  | { readonly kind: 'expectStream'; readonly name: string; readonly items: readonly unknown[] }
  | { readonly kind: 'closeStream'; readonly name: string };

/** The action of one kind, e.g. `ActionOf<'request'>`. */
export type ActionOf<K extends Action['kind']> = Extract<Action, { readonly kind: K }>;

export interface Step {
  readonly index: number;
  /** JSON pointer of the step in the file (`/steps/3`). */
  readonly pointer: string;
  /** Pointer of what the step's expectations are compared with, for mismatch locations. */
  readonly expectPointer: string;
  readonly location: Location;
  readonly name: string | undefined;
  readonly action: Action;
}

export const DEFAULT_ACCOUNT_ID = '101-004-1234567-001';
export const DEFAULT_TOKEN = 'scenario-token';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/** 2024-01-02T00:00:00Z, the generator's default start too. */
export const DEFAULT_START: Micros = Date.UTC(2024, 0, 2) * 1000;
