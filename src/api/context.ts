import type { EnumSpelling } from '../domain/enum-spelling.js';
import type { Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import type { ApiLimits } from './limits.js';
import type { CandleHistory } from './candle-history.js';
import type { MarketData } from './market.js';
import type { TurnQueue } from './turn-queue.js';

/** Which accounts a bearer token may use; `'*'` for every account of the engine. */
export interface TokenGrant {
  readonly token: string;
  readonly accounts: readonly string[] | '*';
}

export interface ApiOptions {
  readonly engine: Engine;
  readonly tokens: readonly TokenGrant[];
  /** Token for the `/sim` control API; without one the control API is not mounted. */
  readonly adminToken?: string;
  /** Serve the dashboard page at `/` (serve does; a bare buildApp has only the APIs). */
  readonly dashboard?: boolean;
  /**
   * Simulated time for a request. By default requests are stamped with the engine's clock (the
   * latest quote); a live server passes the wall clock in from the shell.
   */
  readonly now?: () => Micros;
  /**
   * Base URL used in Location, Link and page URLs. Default: the request's Host once it passed the
   * Host check, else the address the client connected to; never a Host the check refused.
   */
  readonly baseUrl?: string;
  /**
   * Host names answered besides loopback names, the base URL's host and the listen address
   * (plugins/host-check.ts); '*' answers any Host (URLs then never echo it). Others get 421.
   */
  readonly allowedHosts?: readonly string[] | '*';
  /**
   * Rate, connection, stream and timeout limits (limits.ts). Absent: none, as backtests, scenarios
   * and tests want; `serve` passes SERVE_LIMITS unless configured otherwise.
   */
  readonly limits?: ApiLimits;
  /** Transaction and pricing stream heartbeat interval. v20 sends one every 5 s. */
  readonly heartbeatMs?: number;
  /**
   * The pricing stream's window in simulated milliseconds: at most one price per instrument and
   * connection per window, the latest (src/api/stream/throttle.ts). v20's is 250 ms, the default;
   * 0 sends every quote (a replay at full speed that wants them all).
   */
  readonly priceStreamThrottleMs?: number;
  /** Bytes a stream client may have unsent before it is dropped. */
  readonly streamBufferMax?: number;
  /** Open stream connections of the whole server at most (a bound on memory); more get 429. Default 1000. Per account: `limits.streamsPerAccount`. */
  readonly streamClientsMax?: number;
  /** Candles kept per instrument and granularity (S5 to H1). Default 20,000. */
  readonly candlesPerSeriesMax?: number;
  /** Candles of quotes from before the engine's clock started, which the API's candles go on from (serve --from); built with the same candlesPerSeriesMax. */
  readonly candleHistory?: CandleHistory;
  readonly bodyLimit?: number;
  /**
   * Where RequestIDs start counting. A restarted server passes one above the highest requestID
   * in its journal so IDs never repeat; the default makes a fresh server's IDs the same every run.
   */
  readonly requestIdBase?: bigint;
  /**
   * How Order resources spell DEFAULT values: 'interface' (POSITION_DEFAULT, TRIGGER_DEFAULT,
   * DEFAULT_FILL, the default) or 'documented' (DEFAULT). Transactions always print DEFAULT.
   */
  readonly enumSpelling?: EnumSpelling;
}

/** What every route needs: the engine, the clock, and where the account of a request is. */
export interface ApiContext {
  readonly engine: Engine;
  readonly options: ApiOptions;
  readonly market: MarketData;
  /** The operations of this turn's requests with a body, run together at its end (turn-queue.ts). */
  readonly turn: TurnQueue;
  now(): Micros;
}
