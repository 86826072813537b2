import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The browser side of report.html: uPlot's files, the page's style and the scripts that draw the charts.

interface UplotAssets {
  readonly version: string;
  readonly js: string;
  readonly css: string;
  readonly license: string;
}

let assets: UplotAssets | undefined;

export function uplotAssets(): UplotAssets {
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

export const STYLE = `
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
export const RENDER = `
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

export const ON_ERROR = `window.onerror = function (message) {
  document.documentElement.setAttribute('data-report-error', String(message));
  var box = document.getElementById('report-error');
  if (box) { box.hidden = false; box.textContent = 'This report failed to render: ' + message; }
};`;
