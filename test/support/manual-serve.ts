/**
 * A `v20sim serve` process on loopback with a manual clock and no generated prices: time moves
 * only with the ticks a test pushes through /sim/ticks. One USD account, fixed tokens, heartbeats
 * every 200 ms and no pricing stream throttle, so every pushed tick is streamed.
 */
import { formatRfc3339 } from '../../src/domain/time.js';
import { startServeWithConfig, type ServeProcess } from './serve-process.js';

export const MANUAL_TOKEN = 'byod-token';
export const MANUAL_ADMIN = 'byod-admin';
export const MANUAL_ACCOUNT = '101-004-9000000-001';
/** 2024-01-02T00:00:00Z, the serve's start. */
export const MANUAL_T0 = Date.UTC(2024, 0, 2) * 1000;

export interface PushedTick {
  readonly instrument: string;
  readonly time: string;
  readonly bid: string;
  readonly ask: string;
}

export interface ManualServe {
  readonly server: ServeProcess;
  readonly url: string;
  push(ticks: readonly PushedTick[]): Promise<void>;
}

export async function startManualServe(dir: string): Promise<ManualServe> {
  const server = await startServeWithConfig(dir, {
    accounts: [{ id: MANUAL_ACCOUNT, currency: 'USD', balance: '100000' }],
    tokens: [MANUAL_TOKEN],
    adminToken: MANUAL_ADMIN,
    clock: 'manual',
    start: formatRfc3339(MANUAL_T0),
    heartbeatMs: 200,
    priceStreamThrottleMs: 0,
  });
  const push = async (ticks: readonly PushedTick[]): Promise<void> => {
    const res = await fetch(`${server.url}/sim/ticks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MANUAL_ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ticks }),
    });
    if (res.status >= 300) throw new Error(`/sim/ticks: ${res.status} ${await res.text()}`);
  };
  return { server, url: server.url, push };
}

/** EUR_USD and USD_JPY, one quote a second each from t0 + first seconds to t0 + last seconds, on a wave. */
export function quotes(first: number, last: number): PushedTick[] {
  const ticks: PushedTick[] = [];
  for (let s = first; s <= last; s += 1) {
    const time = formatRfc3339(MANUAL_T0 + s * 1_000_000);
    const wave = Math.round(Math.sin(s / 7) * 40);
    ticks.push({ instrument: 'EUR_USD', time, bid: ((110_000 + wave) / 100_000).toFixed(5), ask: ((110_015 + wave) / 100_000).toFixed(5) });
    ticks.push({
      instrument: 'USD_JPY',
      time,
      bid: ((14_500_000 + wave * 10) / 100_000).toFixed(3),
      ask: ((14_501_500 + wave * 10) / 100_000).toFixed(3),
    });
  }
  return ticks;
}

/** Polls `check` until it holds (no timing threshold: the test's own timeout bounds it). */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
