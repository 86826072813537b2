/**
 * The dashboard `serve` shows at `/`: one page, no build step, fed only by the server's own v3
 * endpoints and streams with the user's token (so it shows exactly what any client sees). The
 * token and account come from the URL (`/?token=…&account=…&instrument=…`, which the banner
 * prints) or from the form the page shows without them. uPlot draws the charts (served from
 * the package's own dependency at /dashboard/uPlot.*).
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>v20sim dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/uPlot.min.css">
<style>
:root { --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --pos: #15803d; --neg: #b91c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: #f9fafb; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
h1 { font-size: 20px; margin: 0; } h2 { font-size: 15px; margin: 0 0 8px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; margin-top: 12px; }
.kpis { display: flex; gap: 24px; flex-wrap: wrap; } .kpi b { display: block; font-size: 18px; }
.muted { color: var(--muted); } .pos { color: var(--pos); } .neg { color: var(--neg); }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; } .grid section { margin-top: 0; }
#error { background: #fef2f2; color: var(--neg); border: 1px solid #fecaca; padding: 8px; border-radius: 6px; margin-top: 12px; }
#transactions { max-height: 320px; overflow: auto; }
form label { display: block; margin: 8px 0; } form input { width: 420px; }
</style>
</head>
<body>
<main>
<header><h1>v20sim</h1><span id="account-label" class="muted"></span><select id="account-select" hidden></select><span id="clock" class="muted"></span></header>
<div id="error" hidden></div>
<form id="login" hidden>
  <section><h2>Connect</h2>
  <label>Token <input name="token" autocomplete="off"></label>
  <label>Account <input name="account" placeholder="(first account the token may use)"></label>
  <label>Instrument <input name="instrument" value="EUR_USD"></label>
  <button>Open</button></section>
</form>
<div id="app" hidden>
<section><div class="kpis" id="kpis"></div></section>
<section><h2 id="price-title">Price</h2><div id="chart-price"></div><div class="muted">solid: open trades at their entry price; dashed: pending orders at their trigger price</div></section>
<section><h2>Equity (NAV)</h2><div id="chart-equity"></div></section>
<div class="grid">
<section><h2>Open trades</h2><table id="trades"></table></section>
<section><h2>Positions</h2><table id="positions"></table></section>
</div>
<section><h2>Pending orders</h2><table id="orders"></table></section>
<section><h2>Transactions</h2><div id="transactions"><table id="transaction-list"></table></div></section>
</div>
</main>
<script src="/dashboard/uPlot.iife.min.js"></script>
<script>
'use strict';
const params = new URLSearchParams(location.search);
const state = { token: params.get('token'), account: params.get('account'), instrument: params.get('instrument') || 'EUR_USD',
  details: null, prices: [[], []], equity: [[], []], transactions: [] };
const $ = (id) => document.getElementById(id);
const esc = (v) => String(v ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const signed = (v) => { const n = Number(v); return '<span class="' + (n > 0 ? 'pos' : n < 0 ? 'neg' : '') + '">' + esc(v) + '</span>'; };
const seconds = (t) => Date.parse(t) / 1000;

function showError(message) { const e = $('error'); e.textContent = message; e.hidden = false; }

async function api(path) {
  const res = await fetch(path, { headers: { Authorization: 'Bearer ' + state.token } });
  const body = await res.json();
  if (!res.ok) throw new Error(path + ': ' + res.status + ' ' + (body.errorMessage || ''));
  return body;
}

/** The JSON lines of a v20 stream, as they arrive. */
async function stream(path, onLine) {
  const res = await fetch(path, { headers: { Authorization: 'Bearer ' + state.token } });
  if (!res.ok) throw new Error(path + ': ' + res.status + ' ' + (await res.text()));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(path + ': the stream ended');
    buffer += value;
    let i;
    while ((i = buffer.indexOf('\\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      if (line.trim() !== '') onLine(JSON.parse(line));
    }
  }
}

function table(el, head, rows) {
  el.innerHTML = '<tr>' + head.map((h) => '<th>' + esc(h) + '</th>').join('') + '</tr>' +
    (rows.length === 0 ? '<tr><td class="muted" colspan="' + head.length + '">none</td></tr>' : rows.map((r) => '<tr>' + r.join('') + '</tr>').join(''));
}
const td = (v) => '<td>' + esc(v) + '</td>';

/** A chart whose y range holds its data and the levels given (order and trade prices), padded a little. */
function chart(el, label, stroke, data, draw, levels, decimals) {
  const range = (u, min, max) => {
    const all = [min, max, ...levels()].filter(Number.isFinite);
    const lo = Math.min(...all), hi = Math.max(...all), pad = Math.max((hi - lo) * 0.08, Math.abs(hi) * 0.0002);
    return all.length === 0 ? [0, 1] : [lo - pad, hi + pad];
  };
  const opts = { width: el.clientWidth || 800, height: 240, scales: { x: { time: true }, y: { range } },
    series: [{}, { label, stroke, width: 1.5, value: (u, v) => (v == null ? '--' : v.toFixed(decimals)) }],
    axes: [{}, { size: 80, values: (u, vals) => vals.map((v) => v.toFixed(decimals)) }], hooks: draw ? { draw: [draw] } : {} };
  return new uPlot(opts, data, el);
}

/** The prices of the charted instrument's pending orders and open trades. */
function levelPrices() {
  const d = state.details;
  if (!d) return [];
  const out = [];
  for (const o of d.orders) if (o.price && (o.instrument === state.instrument || (o.tradeID && tradeInstrument(o.tradeID) === state.instrument))) out.push(Number(o.price));
  for (const t of d.trades) if (t.instrument === state.instrument) out.push(Number(t.price));
  return out;
}

/** Pending orders (dashed) and open trades (solid) of the charted instrument, at their prices. */
function drawLevels(u) {
  const d = state.details;
  if (!d) return;
  const ctx = u.ctx;
  const line = (price, color, dash, text) => {
    const y = u.valToPos(Number(price), 'y', true);
    if (!Number.isFinite(y) || y < u.bbox.top || y > u.bbox.top + u.bbox.height) return;
    ctx.save(); ctx.strokeStyle = color; ctx.fillStyle = color; ctx.setLineDash(dash); ctx.lineWidth = 1;
    ctx.beginPath(); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); ctx.stroke();
    ctx.font = '11px sans-serif'; ctx.fillText(text, u.bbox.left + 4, y - 3); ctx.restore();
  };
  for (const o of d.orders) if (o.instrument === state.instrument || (o.tradeID && tradeInstrument(o.tradeID) === state.instrument))
    if (o.price) line(o.price, '#9333ea', [4, 4], o.type + ' ' + o.id + (o.units ? ' ' + o.units : ''));
  for (const t of d.trades) if (t.instrument === state.instrument)
    line(t.price, Number(t.currentUnits) > 0 ? '#15803d' : '#b91c1c', [], 'trade ' + t.id + ' ' + t.currentUnits);
}
function tradeInstrument(id) { const t = state.details.trades.find((x) => x.id === id); return t ? t.instrument : undefined; }

let priceChart, equityChart;

function render() {
  const d = state.details;
  $('kpis').innerHTML = [['Balance', d.balance], ['NAV', d.NAV], ['Unrealized P/L', d.unrealizedPL], ['Realized P/L', d.pl],
    ['Margin used', d.marginUsed], ['Margin available', d.marginAvailable], ['Open trades', d.openTradeCount, false], ['Pending orders', d.pendingOrderCount, false]]
    .map(([k, v, money]) => '<div class="kpi"><span class="muted">' + esc(k) + (money === false ? '' : ' (' + esc(d.currency) + ')') + '</span><b>' +
      (money === false ? esc(v) : signed(v)) + '</b></div>').join('');
  table($('trades'), ['ID', 'Instrument', 'Units', 'Price', 'Unrealized P/L', 'Opened'],
    d.trades.map((t) => [td(t.id), td(t.instrument), td(t.currentUnits), td(t.price), '<td>' + signed(t.unrealizedPL) + '</td>', td(t.openTime)]));
  table($('positions'), ['Instrument', 'Long', 'Short', 'Unrealized P/L'],
    d.positions.filter((p) => Number(p.long.units) !== 0 || Number(p.short.units) !== 0)
      .map((p) => [td(p.instrument), td(p.long.units), td(p.short.units), '<td>' + signed(p.unrealizedPL) + '</td>']));
  table($('orders'), ['ID', 'Type', 'Instrument / trade', 'Units', 'Price', 'Time in force', 'Created'],
    d.orders.map((o) => ['<td data-order-id="' + esc(o.id) + '">' + esc(o.id) + '</td>', td(o.type), td(o.instrument || 'trade ' + o.tradeID),
      td(o.units), td(o.price || o.distance), td(o.timeInForce), td(o.createTime)]));
  if (priceChart) priceChart.setData(state.prices);
}

function addTransaction(tx) {
  state.transactions.unshift(tx);
  state.transactions.length = Math.min(state.transactions.length, 200);
  table($('transaction-list'), ['ID', 'Time', 'Type', 'Instrument', 'Units', 'Price', 'Reason'],
    state.transactions.map((t) => [td(t.id), td(t.time), td(t.type), td(t.instrument), td(t.units), td(t.price), td(t.reason || t.rejectReason)]));
}

async function refresh() {
  const body = await api('/v3/accounts/' + state.account);
  state.details = body.account;
  const t = seconds(state.prices[0].length ? new Date(state.prices[0].at(-1) * 1000).toISOString() : new Date().toISOString());
  state.equity[0].push(t); state.equity[1].push(Number(body.account.NAV));
  if (equityChart) equityChart.setData(state.equity);
  render();
}

async function start() {
  if (!state.token) { $('login').hidden = false; return; }
  const accounts = (await api('/v3/accounts')).accounts;
  if (!state.account) state.account = accounts[0] && accounts[0].id;
  if (!state.account) throw new Error('this token may use no account');
  const select = $('account-select');
  select.innerHTML = accounts.map((a) => '<option' + (a.id === state.account ? ' selected' : '') + '>' + esc(a.id) + '</option>').join('');
  select.hidden = accounts.length < 2;
  select.onchange = () => { params.set('account', select.value); location.search = params.toString(); };
  $('account-label').textContent = state.account;
  $('price-title').textContent = state.instrument + ': mid price';
  $('app').hidden = false;
  const past = await api('/v3/accounts/' + state.account + '/transactions/sinceid?id=' + Math.max(1, Number((await api('/v3/accounts/' + state.account + '/summary')).lastTransactionID) - 50));
  for (const tx of past.transactions) addTransaction(tx);
  const instrument = (await api('/v3/accounts/' + state.account + '/instruments?instruments=' + encodeURIComponent(state.instrument))).instruments[0];
  priceChart = chart($('chart-price'), state.instrument, '#1d4ed8', state.prices, drawLevels, levelPrices, instrument ? instrument.displayPrecision : 5);
  equityChart = chart($('chart-equity'), 'NAV', '#0f766e', state.equity, null, () => [], 2);
  await refresh();
  stream('/v3/accounts/' + state.account + '/pricing/stream?instruments=' + encodeURIComponent(state.instrument), (msg) => {
    if (msg.type !== 'PRICE') return;
    const mid = (Number(msg.bids[0]?.price ?? msg.closeoutBid) + Number(msg.asks[0]?.price ?? msg.closeoutAsk)) / 2;
    state.prices[0].push(seconds(msg.time)); state.prices[1].push(mid);
    if (state.prices[0].length > 5000) { state.prices[0].shift(); state.prices[1].shift(); }
    $('clock').textContent = 'last price ' + msg.time;
    priceChart.setData(state.prices);
  }).catch((e) => showError(e.message));
  stream('/v3/accounts/' + state.account + '/transactions/stream', (msg) => {
    if (msg.type === 'HEARTBEAT') return;
    addTransaction(msg);
    refresh().catch((e) => showError(e.message));
  }).catch((e) => showError(e.message));
  // The NAV moves with prices between transactions: sample it once a second.
  setInterval(() => refresh().catch((e) => showError(e.message)), 1000);
}

$('login').onsubmit = (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  for (const k of ['token', 'account', 'instrument']) if (f.get(k)) params.set(k, f.get(k)); else params.delete(k);
  location.search = params.toString();
};
start().catch((e) => showError(e.message));
</script>
</body>
</html>
`;
