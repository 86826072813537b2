import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TICKS_FILE, loadStrategy, openTicks, runBacktest, writeOutputs } from '../../src/backtest/index.js';
import { removeTempDirs, tempDir } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const exec = promisify(execFile);

if (!hasChromium) {
  process.stderr.write(
    `report-html.test: skipping the headless browser checks: ${CHROMIUM} is missing (Debian: apt-get install -y chromium)\n`,
  );
}

/** Headless Chromium, isolated: no network services, a throwaway profile. */
async function chromium(args: string[]): Promise<string> {
  const { stdout } = await exec(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--user-data-dir=${tempDir('v20sim-chromium-')}`,
      '--window-size=1280,2400',
      '--hide-scrollbars',
      ...args,
    ],
    { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** The opening tag of the first element of that name (short, so a failed match prints little). */
function openingTag(dom: string, name: string): string {
  return new RegExp(`<${name}[^>]*>`).exec(dom)?.[0] ?? `(no <${name}>)`;
}

let dir = '';
let html = '';

beforeAll(async () => {
  dir = tempDir();
  const result = runBacktest({
    strategy: await loadStrategy('examples/strategies/ma-crossover.ts'),
    ticks: openTicks([SAMPLE_TICKS_FILE]),
  });
  writeOutputs(dir, result);
  html = readFileSync(path.join(dir, 'report.html'), 'utf8');
});

afterAll(removeTempDirs);

describe('report.html', () => {
  it('is one self-contained file: the chart library and the data inline, nothing to fetch', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<(?:script|img|link|iframe)[^>]+(?:src|href)=/i);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).toMatch(/uPlot \d+\.\d+\.\d+ is inlined below under its MIT licence/);
    expect(html).toContain('var uPlot=');
    const data = /<script id="report-data" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
    const parsed = JSON.parse(data ?? 'null') as { equity: { t: number[] }; prices: { instrument: string; markers: unknown[] }[] };
    expect(parsed.equity.t.length).toBeGreaterThan(100);
    expect(parsed.prices.map((p) => p.instrument)).toEqual(['EUR_USD']);
    expect(parsed.prices[0]?.markers.length).toBeGreaterThan(10);
    for (const id of ['chart-equity', 'chart-drawdown', 'chart-price-0']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('<table class="monthly">');
    expect(html).toContain('<table class="trades">');
  });

  it.skipIf(!hasChromium)('renders its charts in headless Chromium without a script error', async () => {
    const dom = await chromium(['--virtual-time-budget=5000', '--dump-dom', `file://${path.join(dir, 'report.html')}`]);
    const body = openingTag(dom, 'body');
    expect(body).toContain('data-charts-rendered="3"');
    // Each chart's canvas holds drawn pixels (checked in the page with getImageData).
    expect(body).toContain('data-charts-painted="3"');
    expect((dom.match(/<canvas/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect((dom.match(/class="uplot/g) ?? []).length).toBe(3);
    expect(openingTag(dom, 'html')).not.toContain('data-report-error');
    expect(dom.includes('<div id="report-error" hidden=""></div>')).toBe(true);
    const shot = path.join(dir, 'report.png');
    await chromium([`--screenshot=${shot}`, `file://${path.join(dir, 'report.html')}`]);
    expect(statSync(shot).size).toBeGreaterThan(50_000);
  });

  it.skipIf(!hasChromium)('shows the error marker when its script fails (the check above can fail)', async () => {
    const broken = path.join(dir, 'broken.html');
    writeFileSync(
      broken,
      html.replace('<script id="report-data" type="application/json">{', '<script id="report-data" type="application/json">{oops'),
    );
    const dom = await chromium(['--virtual-time-budget=5000', '--dump-dom', `file://${broken}`]);
    expect(openingTag(dom, 'html')).toMatch(/data-report-error="[^"]*SyntaxError/);
    expect(openingTag(dom, 'body')).not.toMatch(/data-charts-rendered/);
  });
});
