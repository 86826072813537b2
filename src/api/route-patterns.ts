/**
 * Every path the API serves, so an unrouted method on a known path answers 405 rather than 404.
 */
const A = '/v3/accounts/[^/]+';
export const ROUTE_PATTERNS: readonly RegExp[] = [
  '/v3/accounts', A, `${A}/summary`, `${A}/instruments`, `${A}/configuration`, `${A}/changes`,
  `${A}/orders`, `${A}/pendingOrders`, `${A}/orders/[^/]+`, `${A}/orders/[^/]+/cancel`, `${A}/orders/[^/]+/clientExtensions`,
  `${A}/trades`, `${A}/openTrades`, `${A}/trades/[^/]+`, `${A}/trades/[^/]+/close`, `${A}/trades/[^/]+/clientExtensions`, `${A}/trades/[^/]+/orders`,
  `${A}/positions`, `${A}/openPositions`, `${A}/positions/[^/]+`, `${A}/positions/[^/]+/close`,
  `${A}/transactions`, `${A}/transactions/[^/]+`, `${A}/transactions/idrange`, `${A}/transactions/sinceid`, `${A}/transactions/stream`,
  `${A}/pricing`, `${A}/pricing/stream`, `${A}/candles/latest`, `${A}/instruments/[^/]+/candles`, '/v3/instruments/[^/]+/candles',
].map((p) => new RegExp(`^${p}/?$`));

/** The control API's paths, known only when it is mounted (with an admin token). */
export const SIM_ROUTE_PATTERNS: readonly RegExp[] = [
  '/sim/ticks', '/sim/clock', '/sim/clock/advance', '/sim/accounts', '/sim/accounts/[^/]+/(?:reset|deposit)', '/sim/journal/[^/]+',
].map((p) => new RegExp(`^${p}/?$`));
