/**
 * The dashboard of `v20sim serve`, in Debian's headless Chromium (driven by playwright-core): it
 * loads with no console errors, shows an order placed through the API within a second, and its
 * price chart is not empty (pixels of the price line on the canvas; a screenshot is saved beside).
 * Skips, saying why, without /usr/bin/chromium. Loopback only; browser, server and files are
 * cleaned up.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRfc3339 } from '../../src/domain/time.js';
import { killAll, startServeWithConfig, type ServeProcess } from '../support/serve-process.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) process.stderr.write(`dashboard.test: skipping: ${CHROMIUM} is missing (Debian: apt-get install -y chromium)\n`);

const TOKEN = 'dashboard-token';
const ADMIN = 'dashboard-admin';
const ACCOUNT = '101-004-9100000-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-dashboard-'));
let server: ServeProcess;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

async function call(method: string, url: string, body: unknown, token = TOKEN): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Quotes one second apart after `from` seconds, a gentle wave around 1.1000. */
function quotes(from: number, count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => {
    const s = from + i;
    const bid = 1.1 + Math.round(Math.sin(s / 7) * 20) / 100_000;
    return { instrument: 'EUR_USD', time: formatRfc3339(T0 + s * 1_000_000), bid: bid.toFixed(5), ask: (bid + 0.0001).toFixed(5) };
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startServeWithConfig(dir, {
    accounts: [{ id: ACCOUNT, currency: 'USD', balance: '10000' }],
    tokens: [TOKEN],
    adminToken: ADMIN,
    clock: 'manual',
    start: formatRfc3339(T0),
    heartbeatMs: 200,
    priceStreamThrottleMs: 0,
  });
  await call('POST', '/sim/ticks', { ticks: quotes(1, 5) }, ADMIN);
  await call('POST', `/v3/accounts/${ACCOUNT}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000' } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.goto(`${server.url}/?token=${TOKEN}&account=${ACCOUNT}`);
  await page.waitForSelector('#app:not([hidden])');
  // Started: the first answers drawn (the open trade) and the price stream's first price in, the
  // transaction stream opened beside it. Only then does "within a second" start to count.
  await page.waitForFunction(
    "document.querySelectorAll('#trades tr').length === 2 && (document.getElementById('clock')?.textContent ?? '').startsWith('last price')",
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('the serve dashboard', () => {
  it('shows the account, its open trade and its transactions, with no console errors', async () => {
    await page.waitForFunction("document.querySelectorAll('#trades tr').length === 2");
    expect(await page.textContent('#account-label')).toBe(ACCOUNT);
    expect(await page.textContent('#trades')).toContain('EUR_USD');
    expect(await page.textContent('#transaction-list')).toContain('ORDER_FILL');
    expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
  });

  it('shows an order placed through the API within a second', async () => {
    const created = await call('POST', `/v3/accounts/${ACCOUNT}/orders`, {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '-500', price: '1.10500' },
    });
    const id = (created['orderCreateTransaction'] as { id: string }).id;
    await page.waitForSelector(`#orders td[data-order-id="${id}"]`, { timeout: 1000 });
    expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
  });

  it('draws the live prices on the price chart', async () => {
    await call('POST', '/sim/ticks', { ticks: quotes(10, 60) }, ADMIN);
    await page.waitForFunction("(document.getElementById('clock')?.textContent ?? '').includes('12:01:09')");
    // Pixels of the price line's colour (#1d4ed8) on the chart's canvas: none means an empty chart.
    // (Browser code as text: the project's TypeScript has no DOM types.)
    const linePixels = await page.evaluate<number>(`(() => {
      const canvas = document.querySelector('#chart-price canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] === 0x1d && data[i + 1] === 0x4e && data[i + 2] === 0xd8) n += 1;
      return n;
    })()`);
    await page.screenshot({ path: path.join(dir, 'dashboard.png'), fullPage: true });
    expect(linePixels).toBeGreaterThan(50);
    expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
  });
});
