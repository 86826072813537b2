import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MICROS_PER_SECOND, type Micros } from '../domain/time.js';
import { decimateIndices, pick } from './decimate.js';
import { escapeHtml, fmtDuration, fmtNumber, fmtOptional, fmtPercent, fmtTime } from './format.js';
import { drawdownSeries, monthlyReturns } from './metrics.js';
import type { BacktestResult } from './runner.js';

/**
 * report.html: one self-contained page (uPlot's minified script and style inlined, the data as
 * JSON in the page, nothing fetched at view time) with the equity and drawdown charts, each traded
 * instrument's price with entry and exit markers, the monthly returns and the trade table. The page
 * is a function of the result alone: no generation time, no host-dependent formatting.
 */

/** Most points a chart embeds; longer series are decimated (see decimateIndices). */
export const CHART_POINTS_MAX = 4_000;
/** Most trades listed in the page's table and drawn as markers (all of them are in trades.csv). */
export const TABLE_TRADES_MAX = 1_000;
export const MARKER_TRADES_MAX = 5_000;
/** Most instruments that get a price chart. */
const PRICE_CHARTS_MAX = 8;

interface UplotAssets {
  readonly version: string;
  readonly js: string;
  readonly css: string;
  readonly license: string;
}

let assets: UplotAssets | undefined;

function uplotAssets(): UplotAssets {
  if (assets === undefined) {
    const require = createRequire(import.meta.url);
    const read = (path: string): string => readFileSync(require.resolve(path), 'utf8');
    const version = (JSON.parse(read('uplot/package.json')) as { version: string }).version;
    // A script element ends at the first "</script": keep the library's text from ever closing it.
    const js = read('uplot/dist/uPlot.iife.min.js').replace(/<\/script/gi, '<\\/script');
    assets = { version, js, css: read('uplot/dist/uPlot.min.css'), license: read('uplot/LICENSE') };
  }
  return assets;
}

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

function chartData(result: BacktestResult): ChartData {
  const e = result.equity;
  const dd = drawdownSeries(e.nav);
  const idx = decimateIndices(e.time.length, [e.nav, dd], CHART_POINTS_MAX);
  const equity = {
    t: pick(e.time, idx).map(seconds),
    nav: pick(e.nav, idx).map((v) => fixed(v, 2)),
    balance: pick(e.balance, idx).map((v) => fixed(v, 2)),
    dd: pick(dd, idx).map((v) => fixed(v * 100, 4)),
  };
  const traded = new Map<string, number>();
  for (const t of result.trades) traded.set(t.instrument, (traded.get(t.instrument) ?? 0) + 1);
  // Traded instruments, most trades first (ties by name); without trades, the first instrument seen.
  let names = [...traded].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
  if (names.length === 0) names = result.instruments.map(([name]) => name).slice(0, 1);
  const prices = names.slice(0, PRICE_CHARTS_MAX).flatMap((instrument) => {
    const series = result.prices.get(instrument);
    if (series === undefined) return [];
    const trades = result.trades.filter((t) => t.instrument === instrument).slice(0, MARKER_TRADES_MAX);
    const precision = Math.max(precisionOf(trades[0]?.openPrice), 1);
    const at = decimateIndices(series.time.length, [series.mid], CHART_POINTS_MAX);
    return [
      {
        instrument,
        precision,
        t: pick(series.time, at).map(seconds),
        mid: pick(series.mid, at).map((v) => fixed(v, precision + 1)),
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

function monthlyTable(result: BacktestResult): string {
  const e = result.equity;
  const months = monthlyReturns(e.time, e.nav, e.nav[0] ?? 0);
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

function tradeTable(result: BacktestResult): string {
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

const STYLE = `
:root { color-scheme: light; --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --pos: #15803d; --neg: #b91c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #f9fafb; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 12px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin: 16px 0; }
.muted { color: var(--muted); }
.sub { color: var(--muted); margin: 0; }
.kpis { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
.kpi { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; background: #fff; }
.kpi-label { color: var(--muted); font-size: 12px; }
.kpi-value { font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; }
.pos { color: var(--pos); } .neg { color: var(--neg); }
.chart { width: 100%; min-height: 120px; }
.legend-note { color: var(--muted); font-size: 12px; margin-top: 6px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
td.num { text-align: right; }
.monthly td, .monthly th { text-align: center; }
.monthly td.empty { background: #fafafa; }
.monthly td.year { font-weight: 600; }
.trades-wrap { overflow-x: auto; max-height: 640px; overflow-y: auto; }
.trades thead th { position: sticky; top: 0; background: #fff; }
td.long { color: var(--pos); } td.short { color: var(--neg); }
dl.run { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.run dt { color: var(--muted); } dl.run dd { margin: 0; word-break: break-all; }
#report-error { background: #fee2e2; color: #991b1b; border: 1px solid #fca5a5; padding: 12px; border-radius: 6px; margin: 16px 0; }
.uplot { width: 100%; }
`;

/** Renders the charts from the JSON in #report-data; marks the page for tests (data-charts-rendered, data-charts-painted). */
const RENDER = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var charts = [];
  var utc = function (ts) { return uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'); };
  function widthOf(el) { return Math.max(320, Math.floor(el.clientWidth || 960)); }
  function make(id, opts, cols) {
    var el = document.getElementById(id);
    opts.width = widthOf(el);
    opts.tzDate = utc;
    charts.push({ plot: new uPlot(opts, cols, el), el: el });
  }
  function fixedOrBlank(d) { return function (u, v) { return v == null ? '' : v.toFixed(d); }; }
  function grid() { return { stroke: '#eef0f3', width: 1 }; }
  // Enough decimals to tell the axis labels apart (uPlot passes the step between them).
  function decimalsFor(step, most) { return Math.max(0, Math.min(most, Math.ceil(-Math.log10(step) - 1e-9))); }
  var e = data.equity;
  make('chart-equity', {
    height: 320,
    scales: { x: { time: true } },
    series: [{}, { label: 'NAV (' + data.currency + ')', stroke: '#2563eb', width: 1.5, value: fixedOrBlank(2) },
      { label: 'Balance', stroke: '#9ca3af', width: 1, dash: [5, 4], value: fixedOrBlank(2) }],
    axes: [{ grid: grid() }, { size: 80, grid: grid() }],
  }, [e.t, e.nav, e.balance]);
  make('chart-drawdown', {
    height: 200,
    scales: { x: { time: true } },
    series: [{}, { label: 'Drawdown %', stroke: '#dc2626', width: 1, fill: 'rgba(220,38,38,0.15)', value: fixedOrBlank(2) }],
    axes: [{ grid: grid() }, { size: 80, grid: grid(), values: function (u, vals, ax, space, step) { var d = decimalsFor(step, 4); return vals.map(function (v) { return v.toFixed(d) + '%'; }); } }],
  }, [e.t, e.dd]);
  function drawMarkers(u, p) {
    var ctx = u.ctx, r = 5 * uPlot.pxRatio, lw = uPlot.pxRatio;
    var xmin = u.scales.x.min, xmax = u.scales.x.max;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    p.markers.forEach(function (m) {
      var t0 = m[0], p0 = m[1], t1 = m[2], p1 = m[3], dir = m[4], pl = m[5];
      if ((t1 == null ? t0 : t1) < xmin || t0 > xmax) return;
      var x0 = u.valToPos(t0, 'x', true), y0 = u.valToPos(p0, 'y', true);
      if (t1 != null) {
        var x1 = u.valToPos(t1, 'x', true), y1 = u.valToPos(p1, 'y', true);
        ctx.strokeStyle = pl >= 0 ? 'rgba(21,128,61,0.7)' : 'rgba(185,28,28,0.7)';
        ctx.lineWidth = lw;
        ctx.setLineDash([3 * lw, 3 * lw]);
        ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = '#fff';
        ctx.strokeStyle = '#111827';
        ctx.beginPath(); ctx.arc(x1, y1, r * 0.8, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      }
      ctx.fillStyle = dir > 0 ? '#16a34a' : '#dc2626';
      ctx.beginPath();
      if (dir > 0) { ctx.moveTo(x0, y0 - r); ctx.lineTo(x0 + r, y0 + r); ctx.lineTo(x0 - r, y0 + r); }
      else { ctx.moveTo(x0, y0 + r); ctx.lineTo(x0 + r, y0 - r); ctx.lineTo(x0 - r, y0 - r); }
      ctx.closePath(); ctx.fill();
    });
    ctx.restore();
  }
  data.prices.forEach(function (p, i) {
    make('chart-price-' + i, {
      height: 360,
      scales: { x: { time: true }, y: { range: function (u, min, max) { var pad = (max - min) * 0.06 || Math.abs(max) * 0.001 || 1; return [min - pad, max + pad]; } } },
      series: [{}, { label: p.instrument + ' mid', stroke: '#374151', width: 1, spanGaps: true, value: fixedOrBlank(p.precision + 1) }],
      axes: [{ grid: grid() }, { size: 80, grid: grid(), values: function (u, vals, ax, space, step) { var d = decimalsFor(step, p.precision); return vals.map(function (v) { return v.toFixed(d); }); } }],
      hooks: { draw: [function (u) { drawMarkers(u, p); }] },
    }, [p.t, p.mid]);
  });
  window.addEventListener('resize', function () {
    charts.forEach(function (c) { c.plot.setSize({ width: widthOf(c.el), height: c.plot.height }); });
  });
  document.body.setAttribute('data-charts-rendered', String(charts.length));
  function painted(canvas) {
    try {
      var w = canvas.width, h = canvas.height;
      if (!w || !h) return false;
      var px = canvas.getContext('2d').getImageData(0, 0, w, h).data;
      for (var k = 3; k < px.length; k += 16) if (px[k] !== 0) return true;
    } catch (err) { return false; }
    return false;
  }
  function countPainted() {
    var n = 0;
    charts.forEach(function (c) { if (painted(c.plot.ctx.canvas)) n += 1; });
    document.body.setAttribute('data-charts-painted', String(n));
  }
  if (document.readyState === 'complete') countPainted(); else window.addEventListener('load', countPainted);
})();
`;

const ON_ERROR = `window.onerror = function (message) {
  document.documentElement.setAttribute('data-report-error', String(message));
  var box = document.getElementById('report-error');
  if (box) { box.hidden = false; box.textContent = 'This report failed to render: ' + message; }
};`;

export function renderReportHtml(result: BacktestResult): string {
  const { version, js, css, license } = uplotAssets();
  const m = result.metrics;
  const data = chartData(result);
  const params = Object.entries(result.params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const kpis = [
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
  ].join('');
  const priceSections = data.prices
    .map(
      (p, i) =>
        `<section><h2>${escapeHtml(p.instrument)}: mid price, entries and exits</h2><div id="chart-price-${i}" class="chart"></div>` +
        '<div class="legend-note">▲ long entry, ▼ short entry, ○ exit; the dashed line joins a trade\'s entry and exit (green: profit, red: loss).</div></section>',
    )
    .join('');
  const sources = result.sources.map((s) => `${escapeHtml(s.file)} <span class="muted">sha256 ${escapeHtml(s.sha256)}</span>`).join('<br>');
  const run =
    [
      ['Strategy', result.strategy],
      ['Parameters', params === '' ? '(none)' : params],
      ['Period (UTC)', `${fmtTime(result.firstTickTime)} to ${fmtTime(result.lastTickTime)}`],
      ['Ticks', `${fmtNumber(result.ticks, 0)} (${result.instruments.map(([name, n]) => `${name} ${fmtNumber(n, 0)}`).join(', ')})`],
      ['Account', `${result.accountID}, ${result.currency}, opening balance ${fmtNumber(Number(result.initialBalance))}`],
      [
        'Equity points',
        `every ${fmtDuration(result.equityIntervalMicros / MICROS_PER_SECOND)} and at every fill (${fmtNumber(result.equity.time.length, 0)} points)`,
      ],
      ['Transactions', `${fmtNumber(m.transactions, 0)} (${fmtNumber(m.fills, 0)} fills, ${fmtNumber(m.rejects, 0)} rejects)`],
      ['Config digest', `sha256 ${result.configDigest}`],
    ]
      .map(([k, v]) => `<dt>${escapeHtml(k as string)}</dt><dd>${escapeHtml(v as string)}</dd>`)
      .join('') +
    (result.strategySource === undefined
      ? ''
      : `<dt>Strategy file</dt><dd>${escapeHtml(result.strategySource.file)} <span class="muted">sha256 ${escapeHtml(result.strategySource.sha256)}</span></dd>`) +
    (sources === '' ? '' : `<dt>Tick files</dt><dd>${sources}</dd>`);
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
<header><h1>${escapeHtml(result.strategy)}</h1><p class="sub">${escapeHtml(params === '' ? 'default parameters' : params)} · ${escapeHtml(fmtTime(result.firstTickTime))} to ${escapeHtml(fmtTime(result.lastTickTime))} UTC · ${escapeHtml(fmtNumber(result.ticks, 0))} ticks</p></header>
<section><div class="kpis">${kpis}</div></section>
<section><h2>Equity (mark to market)</h2><div id="chart-equity" class="chart"></div></section>
<section><h2>Drawdown</h2><div id="chart-drawdown" class="chart"></div></section>
${priceSections}
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
