import { MICROS_PER_SECOND, type Micros } from '../domain/time.js';
import type { TickWindow } from '../engine/feeds/window.js';
import { Decimator } from './decimate.js';
import { curvePoints, seriesPoints, type EquityPoints, type PricePoints } from './equity.js';
import { ON_ERROR, RENDER, STYLE, uplotAssets } from './report-html-assets.js';
import { escapeHtml, fmtDuration, fmtNumber, fmtOptional, fmtPercent, fmtTime } from './format.js';
import { monthlyReturns, type MonthlyReturn } from './metrics.js';
import type { BacktestResult, BacktestSummary } from './runner.js';

/**
 * report.html: one self-contained page (uPlot's minified script and style inlined, the data as
 * JSON in the page, nothing fetched at view time) with the equity and drawdown charts, each traded
 * instrument's price with entry and exit markers, the monthly returns and the trade table. The page
 * is a function of the result alone: no generation time, no host-dependent formatting. The curve
 * and price series are read once, in order, and decimated as they are read, so a run that
 * streamed them to disk is drawn in bounded memory.
 */

/** What the page is made of: the run's summary, its curve and price series wherever they are kept, its monthly returns. */
export interface ReportPageInput extends BacktestSummary {
  readonly curve: EquityPoints;
  readonly priceSeries: ReadonlyMap<string, PricePoints>;
  readonly monthlyReturns: readonly MonthlyReturn[];
}

/** Most points a chart embeds; longer series are decimated (see decimateIndices). */
export const CHART_POINTS_MAX = 4_000;
/** Most trades listed in the page's table and drawn as markers (all of them are in trades.csv). */
export const TABLE_TRADES_MAX = 1_000;
export const MARKER_TRADES_MAX = 5_000;
/** Most instruments that get a price chart. */
const PRICE_CHARTS_MAX = 8;

const seconds = (t: Micros): number => Math.round(t / 1000) / 1000;
const fixed = (v: number, d: number): number => {
  const r = Number(v.toFixed(d));
  return r === 0 ? 0 : r;
};

/** JSON that can sit inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

interface ChartData {
  readonly currency: string;
  readonly equity: { t: number[]; nav: number[]; balance: number[]; dd: number[] };
  readonly prices: { instrument: string; precision: number; t: number[]; mid: number[]; markers: (number | null)[][] }[];
}

function precisionOf(price: string | undefined): number {
  const dot = price === undefined ? -1 : price.indexOf('.');
  return dot < 0 || price === undefined ? 0 : price.length - dot - 1;
}

interface CurveItem {
  readonly time: Micros;
  readonly nav: number;
  readonly balance: number;
  readonly dd: number;
}

/** The equity chart: the curve with its drawdown from the running peak, decimated on NAV and drawdown. */
function equityChart(curve: EquityPoints): ChartData['equity'] {
  const decimator = new Decimator<CurveItem>(curve.length, 2, CHART_POINTS_MAX);
  const keys = [0, 0];
  let peak = Number.NEGATIVE_INFINITY;
  curve.forEach((time, nav, balance) => {
    if (nav > peak) peak = nav;
    const dd = peak > 0 ? (nav - peak) / peak : 0;
    keys[0] = nav;
    keys[1] = dd;
    decimator.push(keys, { time, nav, balance, dd });
  });
  const picked = decimator.picked();
  return {
    t: picked.map((p) => seconds(p.time)),
    nav: picked.map((p) => fixed(p.nav, 2)),
    balance: picked.map((p) => fixed(p.balance, 2)),
    dd: picked.map((p) => fixed(p.dd * 100, 4)),
  };
}

function priceChart(series: PricePoints): { time: Micros; mid: number }[] {
  const decimator = new Decimator<{ time: Micros; mid: number }>(series.length, 1, CHART_POINTS_MAX);
  const keys = [0];
  series.forEach((time, mid) => {
    keys[0] = mid;
    decimator.push(keys, { time, mid });
  });
  return decimator.picked();
}

function chartData(result: ReportPageInput): ChartData {
  const equity = equityChart(result.curve);
  const traded = new Map<string, number>();
  for (const t of result.trades) traded.set(t.instrument, (traded.get(t.instrument) ?? 0) + 1);
  // Traded instruments, most trades first (ties by name); without trades, the first instrument seen.
  let names = [...traded].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  if (names.length === 0) names = result.instruments.map(([name]) => name).slice(0, 1);
  const prices = names.slice(0, PRICE_CHARTS_MAX).flatMap((instrument) => {
    const series = result.priceSeries.get(instrument);
    if (series === undefined) return [];
    const trades = result.trades.filter((t) => t.instrument === instrument).slice(0, MARKER_TRADES_MAX);
    const precision = Math.max(precisionOf(trades[0]?.openPrice), 1);
    const points = priceChart(series);
    return [
      {
        instrument,
        precision,
        t: points.map((p) => seconds(p.time)),
        mid: points.map((p) => fixed(p.mid, precision + 1)),
        markers: trades.map((t) => [
          seconds(t.openTime),
          Number(t.openPrice),
          t.closeTime === undefined ? null : seconds(t.closeTime),
          t.closePrice === undefined ? null : Number(t.closePrice),
          t.direction === 'LONG' ? 1 : -1,
          fixed(Number(t.state === 'CLOSED' ? t.realizedPL : t.unrealizedPL), 2),
        ]),
      },
    ];
  });
  return { currency: result.currency, equity, prices };
}

function kpi(label: string, value: string, tone: 'pos' | 'neg' | '' = ''): string {
  return `<div class="kpi"><div class="kpi-label">${escapeHtml(label)}</div><div class="kpi-value${tone === '' ? '' : ` ${tone}`}">${escapeHtml(value)}</div></div>`;
}

const tone = (v: number | null): 'pos' | 'neg' | '' => (v === null || v === 0 ? '' : v > 0 ? 'pos' : 'neg');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function monthlyTable(result: ReportPageInput): string {
  const months = result.monthlyReturns;
  if (months.length === 0) return '<p class="muted">No equity points.</p>';
  const byYear = new Map<string, Map<number, number>>();
  for (const m of months) {
    const year = m.month.slice(0, 4);
    let row = byYear.get(year);
    if (row === undefined) {
      row = new Map();
      byYear.set(year, row);
    }
    row.set(Number(m.month.slice(5, 7)), m.return);
  }
  const scale = Math.max(1e-9, ...months.map((m) => Math.abs(m.return)));
  const cell = (r: number | undefined): string => {
    if (r === undefined) return '<td class="empty"></td>';
    const alpha = fixed(0.12 + 0.6 * Math.min(1, Math.abs(r) / scale), 3);
    const color = r >= 0 ? `rgba(22,163,74,${alpha})` : `rgba(220,38,38,${alpha})`;
    return `<td style="background:${color}">${escapeHtml(fmtPercent(r))}</td>`;
  };
  const rows = [...byYear].map(([year, row]) => {
    let compounded = 1;
    for (const r of row.values()) compounded *= 1 + r;
    const cells = MONTHS.map((_, i) => cell(row.get(i + 1))).join('');
    return `<tr><th>${year}</th>${cells}<td class="year">${escapeHtml(fmtPercent(compounded - 1))}</td></tr>`;
  });
  return `<table class="monthly"><thead><tr><th></th>${MONTHS.map((m) => `<th>${m}</th>`).join('')}<th>Year</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function tradeTable(result: ReportPageInput): string {
  const trades = result.trades;
  if (trades.length === 0) return '<p class="muted">No trades.</p>';
  const shown = trades.slice(0, TABLE_TRADES_MAX);
  const rows = shown.map((t) => {
    const pl = Number(t.state === 'CLOSED' ? t.realizedPL : t.unrealizedPL);
    const duration = t.closeTime === undefined ? null : (t.closeTime - t.openTime) / MICROS_PER_SECOND;
    return (
      `<tr><td>${escapeHtml(t.id)}</td><td>${escapeHtml(t.instrument)}</td><td class="${t.direction === 'LONG' ? 'long' : 'short'}">${t.direction}</td>` +
      `<td class="num">${escapeHtml(fmtNumber(Number(t.units), 0))}</td><td>${fmtTime(t.openTime)}</td><td class="num">${escapeHtml(t.openPrice)}</td>` +
      `<td>${t.closeTime === undefined ? 'open' : fmtTime(t.closeTime)}</td><td class="num">${escapeHtml(t.closePrice ?? '')}</td>` +
      `<td class="num ${tone(pl)}">${escapeHtml(fmtNumber(pl))}</td><td class="num">${escapeHtml(fmtNumber(Number(t.financing)))}</td>` +
      `<td>${escapeHtml(t.closeReason === '' ? (t.state === 'OPEN' ? 'still open' : '') : t.closeReason)}</td><td class="num">${escapeHtml(fmtDuration(duration))}</td></tr>`
    );
  });
  const more =
    trades.length > shown.length
      ? `<p class="muted">The first ${fmtNumber(shown.length, 0)} of ${fmtNumber(trades.length, 0)} trades; all of them are in trades.csv.</p>`
      : '';
  return (
    `<table class="trades"><thead><tr><th>ID</th><th>Instrument</th><th>Side</th><th>Units</th><th>Opened (UTC)</th><th>Price</th><th>Closed (UTC)</th><th>Price</th>` +
    `<th>P/L (${escapeHtml(result.currency)})</th><th>Financing</th><th>Closed by</th><th>Held</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`
  );
}

/** The headline figures, one card each. */
function kpiCards(result: ReportPageInput): string {
  const m = result.metrics;
  return [
    kpi(`Net P/L (${result.currency})`, fmtNumber(m.netPL), tone(m.netPL)),
    kpi('Return', fmtPercent(m.return), tone(m.return)),
    kpi('Max drawdown', fmtPercent(m.maxDrawdown)),
    kpi('Drawdown duration', fmtDuration(m.maxDrawdownDurationSeconds)),
    kpi('Sharpe (daily)', fmtOptional(m.sharpe)),
    kpi('Sortino (daily)', fmtOptional(m.sortino)),
    kpi('Trades', fmtNumber(m.trades, 0)),
    kpi('Win rate', fmtPercent(m.winRate, 1)),
    kpi('Profit factor', fmtOptional(m.profitFactor)),
    kpi('Average win', fmtOptional(m.averageWin)),
    kpi('Average loss', fmtOptional(m.averageLoss)),
    kpi('Exposure', fmtPercent(m.exposure, 1)),
    kpi('Financing', fmtNumber(m.financing), tone(m.financing)),
    kpi('Spread cost', fmtNumber(m.spreadCost)),
    kpi('Conversion cost', fmtNumber(m.conversionCost, 4)),
    kpi(
      'Margin calls / closeouts',
      `${fmtNumber(m.marginCalls, 0)} / ${fmtNumber(m.marginCloseouts, 0)}`,
      m.marginCloseouts > 0 ? 'neg' : '',
    ),
  ].join('');
}

/** One section per instrument for its price chart. */
function priceSections(data: ReturnType<typeof chartData>): string {
  return data.prices
    .map(
      (p, i) =>
        `<section><h2>${escapeHtml(p.instrument)}: mid price, entries and exits</h2><div id="chart-price-${i}" class="chart"></div>` +
        '<div class="legend-note">▲ long entry, ▼ short entry, ○ exit; the dashed line joins a trade\'s entry and exit (green: profit, red: loss).</div></section>',
    )
    .join('');
}

/** The --from/--to a run was given, after its period: its ticks are those of the files within it. */
function windowNote(window: TickWindow | undefined): string {
  if (window === undefined) return '';
  const from = window.from === undefined ? '' : ` --from ${fmtTime(window.from)}`;
  const to = window.to === undefined ? '' : ` --to ${fmtTime(window.to)}`;
  return ` (window${from}${to})`;
}

/** What was run: strategy, parameters, period, account, data files and digests. */
function runDetails(result: ReportPageInput, params: string): string {
  const m = result.metrics;
  const sources = result.sources.map((s) => `${escapeHtml(s.file)} <span class="muted">sha256 ${escapeHtml(s.sha256)}</span>`).join('<br>');
  return (
    [
      ['Strategy', result.strategy],
      ['Parameters', params === '' ? '(none)' : params],
      ['Period (UTC)', `${fmtTime(result.firstTickTime)} to ${fmtTime(result.lastTickTime)}${windowNote(result.window)}`],
      result.journal === undefined
        ? ['Ticks', `${fmtNumber(result.ticks, 0)} (${result.instruments.map(([name, n]) => `${name} ${fmtNumber(n, 0)}`).join(', ')})`]
        : ['Journal', `${result.journal}: ${fmtNumber(result.metrics.transactions, 0)} transactions, marked at fill prices`],
      ['Account', `${result.accountID}, ${result.currency}, opening balance ${fmtNumber(Number(result.initialBalance))}`],
      [
        'Equity points',
        `every ${fmtDuration(result.equityIntervalMicros / MICROS_PER_SECOND)} and at every fill (${fmtNumber(result.curve.length, 0)} points)`,
      ],
      ['Transactions', `${fmtNumber(m.transactions, 0)} (${fmtNumber(m.fills, 0)} fills, ${fmtNumber(m.rejects, 0)} rejects)`],
      ['Config digest', `sha256 ${result.configDigest}`],
    ]
      .map(([k, v]) => `<dt>${escapeHtml(k as string)}</dt><dd>${escapeHtml(v as string)}</dd>`)
      .join('') +
    (result.strategySource === undefined
      ? ''
      : `<dt>Strategy file</dt><dd>${escapeHtml(result.strategySource.file)} <span class="muted">sha256 ${escapeHtml(result.strategySource.sha256)}</span></dd>`) +
    (sources === '' ? '' : `<dt>Tick files</dt><dd>${sources}</dd>`)
  );
}

/** report.html of a result held in memory. */
export function renderReportHtml(result: BacktestResult): string {
  const e = result.equity;
  return renderReportPage({
    ...result,
    curve: curvePoints(e),
    priceSeries: new Map([...result.prices].map(([instrument, series]) => [instrument, seriesPoints(series)] as const)),
    monthlyReturns: monthlyReturns(e.time, e.nav, e.nav[0] ?? 0),
  });
}

/** report.html of any run: its curve and series are read once each (the charted ones). */
export function renderReportPage(result: ReportPageInput): string {
  const { version, js, css, license } = uplotAssets();
  const data = chartData(result);
  const params = Object.entries(result.params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const kpis = kpiCards(result);
  const run = runDetails(result, params);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Backtest: ${escapeHtml(result.strategy)}</title>
<script>${ON_ERROR}</script>
<!--
uPlot ${version} is inlined below under its MIT licence:
${license.replace(/--/g, '- -').trim()}
-->
<style>${css}</style>
<style>${STYLE}</style>
</head>
<body>
<main>
<div id="report-error" hidden></div>
<header><h1>${escapeHtml(result.strategy)}</h1><p class="sub">${escapeHtml(result.journal !== undefined ? 'paper account' : params === '' ? 'default parameters' : params)} · ${escapeHtml(fmtTime(result.firstTickTime))} to ${escapeHtml(fmtTime(result.lastTickTime))} UTC · ${escapeHtml(result.journal === undefined ? `${fmtNumber(result.ticks, 0)} ticks` : `${fmtNumber(result.metrics.transactions, 0)} transactions`)}</p></header>
<section><div class="kpis">${kpis}</div></section>
<section><h2>Equity (mark to market)</h2><div id="chart-equity" class="chart"></div></section>
<section><h2>Drawdown</h2><div id="chart-drawdown" class="chart"></div></section>
${priceSections(data)}
<section><h2>Monthly returns</h2>${monthlyTable(result)}</section>
<section><h2>Trades</h2><div class="trades-wrap">${tradeTable(result)}</div></section>
<section><h2>Run</h2><dl class="run">${run}</dl></section>
</main>
<script>${js}</script>
<script id="report-data" type="application/json">${scriptJson(data)}</script>
<script>${RENDER}</script>
</body>
</html>
`;
}
