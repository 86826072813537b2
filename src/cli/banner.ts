/** What `serve` prints once it listens: the URLs, clock, prices, tokens, accounts and curl lines to try. */
import type { AddressInfo } from 'node:net';
import { MarketCalendar } from '../domain/market-hours.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { CandleHistory } from '../api/candle-history.js';
import type { Engine } from '../engine/engine.js';
import { windowText } from '../engine/feeds/window.js';
import type { ServeSettings } from './config.js';
import type { DataDir } from './data-dir.js';
import { VERSION } from './version.js';

export function urlHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return '127.0.0.1';
  if (address.address === '::') return '[::1]';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

function describePrices(settings: ServeSettings): string {
  if (settings.ticks.length > 0)
    return `${settings.ticks.length === 1 ? 'tick file' : 'tick files'} ${settings.ticks.map((t) => t.file).join(', ')}${windowText(settings.window)}`;
  if (settings.generator !== undefined)
    return `seeded generator (seed ${JSON.stringify(settings.generator.seed)}) for ${settings.generator.instruments.join(', ')}`;
  return 'pushed ticks only (POST /sim/ticks)';
}

/** When a closed instrument reopens at the engine's time; undefined when it is open (or unknown). */
function closedUntil(engine: Engine, instrument: string): Micros | undefined {
  const spec = engine.instruments.get(instrument);
  if (spec === undefined) return undefined;
  const calendar = new MarketCalendar(spec.marketHours);
  return calendar.openAt(engine.now) ? undefined : calendar.nextOpen(engine.now);
}

/** What the candles' past holds: the quotes before a period, or the generator's days before its start. */
function historyLine(settings: ServeSettings, history: CandleHistory): string {
  const days = settings.generator?.historyDays ?? 0;
  return settings.window?.from === undefined
    ? `  candles:     also of ${days} day${days === 1 ? '' : 's'} of generated quotes before the start (history; not traded)`
    : `  candles:     also of the ${history.count} quotes before the period (history; not traded)`;
}

export function banner(
  settings: ServeSettings,
  url: string,
  engine: Engine,
  listenAll: boolean,
  data: DataDir | undefined,
  history?: CandleHistory,
): string[] {
  const lines: string[] = [];
  const clock =
    settings.clock === 'replay'
      ? `replay at ${settings.speed === Number.POSITIVE_INFINITY ? 'full speed' : `${settings.speed}x real time`}`
      : settings.clock === 'live'
        ? 'live (wall clock)'
        : 'manual (POST /sim/clock/advance, /sim/ticks)';
  lines.push(`v20sim ${VERSION}: v20 paper-trading server`);
  // A configured --base-url is what clients use (a proxy in front); the address listened on follows it.
  if (settings.baseUrl !== undefined && settings.baseUrl !== url) {
    lines.push(`  base URL:    ${settings.baseUrl}`);
    lines.push(`  listening:   ${url}${listenAll ? `   (all interfaces, ${settings.host})` : ''}`);
  } else lines.push(`  base URL:    ${url}${listenAll ? `   (listening on all interfaces, ${settings.host})` : ''}`);
  lines.push(`  stream URL:  ${url}   (same server: /v3/accounts/{id}/pricing/stream, /transactions/stream)`);
  lines.push(`  clock:       ${clock}, simulated time ${formatRfc3339(engine.now)}`);
  lines.push(`  prices:      ${describePrices(settings)}`);
  if (history !== undefined) lines.push(historyLine(settings, history));
  const generated = new Set(settings.generatedTokens);
  for (const t of settings.tokens) {
    const which = t.accounts === '*' ? 'all accounts' : t.accounts.join(', ');
    lines.push(`  token:       ${generated.has(t.token) ? t.token : '(configured)'}   (${which})`);
  }
  lines.push(`  admin token: ${settings.adminTokenGenerated ? settings.adminToken : '(configured)'}   (control API under ${url}/sim)`);
  const ids = engine.accountIds();
  ids.forEach((id, i) => {
    const state = engine.account(id)?.state;
    const label = state === undefined ? '' : `  ${state.currency}  ${state.alias}`.trimEnd();
    lines.push(`  ${i === 0 ? 'accounts:   ' : '            '} ${id}${label}`);
  });
  lines.push(`  data dir:    ${data === undefined ? 'none (state is lost on exit; use --data-dir DIR to keep it)' : data.dir}`);
  const first = ids[0];
  const grant =
    settings.tokens.find((t) => first !== undefined && (t.accounts === '*' || t.accounts.includes(first))) ?? settings.tokens[0];
  // A configured token is not printed: the config holds it.
  const token = grant === undefined ? '' : generated.has(grant.token) ? grant.token : '$TOKEN';
  if (first !== undefined) {
    const instrument = settings.generator?.instruments[0] ?? 'EUR_USD';
    const closed = closedUntil(engine, instrument);
    if (closed !== undefined)
      lines.push(
        `  market:      ${instrument} is closed until ${formatRfc3339(closed)} (its market hours): MARKET orders are cancelled MARKET_HALTED until then, as on v20; to trade now, give it "marketHours": {"weekly": "ALWAYS"} in a --config file`,
      );
    lines.push(`  dashboard:   ${url}/?token=${token === '$TOKEN' ? token : encodeURIComponent(token)}&account=${first}`);
    lines.push('  try:');
    lines.push(`    curl -s -H "Authorization: Bearer ${token}" ${url}/v3/accounts/${first}/summary`);
    lines.push(
      `    curl -s -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -d '{"order":{"type":"MARKET","instrument":"${instrument}","units":"1000"}}' ${url}/v3/accounts/${first}/orders`,
    );
    lines.push(`    curl -sN -H "Authorization: Bearer ${token}" "${url}/v3/accounts/${first}/pricing/stream?instruments=${instrument}"`);
  }
  return lines;
}
