import { describe, expect, it } from 'vitest';
import { TimeOrder } from './tick-order.js';

const tick = (instrument: string, at: number) => ({ instrument, at, line: `${instrument}@${at}` });

describe('TimeOrder', () => {
  it('writes held prices oldest first once held long enough, with older ones that came later', () => {
    let now = 0;
    const out: string[] = [];
    const order = new TimeOrder(
      (text) => out.push(text),
      1000,
      () => now,
    );
    // A stream's opening prices: each instrument's last quote, newest first here.
    order.add(tick('EUR_USD', 50));
    order.add(tick('USD_JPY', 20));
    now = 600;
    order.add(tick('GBP_USD', 60));
    order.add(tick('USD_JPY', 55));
    order.flush();
    expect(out).toEqual([]);
    now = 1000;
    order.flush();
    // EUR_USD@50 is due; USD_JPY@20 sorts before it and goes with it; the later ones wait.
    expect(out).toEqual(['USD_JPY@20\nEUR_USD@50\n']);
    now = 1700;
    order.flush();
    expect(out.at(-1)).toBe('USD_JPY@55\nGBP_USD@60\n');
  });

  it('leaves out a price older than a line written, and counts it', () => {
    let now = 0;
    const out: string[] = [];
    const order = new TimeOrder(
      (text) => out.push(text),
      100,
      () => now,
      30,
    );
    expect(order.add(tick('EUR_USD', 29))).toBe(false);
    expect(order.add(tick('EUR_USD', 30))).toBe(true);
    now = 200;
    order.flush();
    expect(order.add(tick('USD_JPY', 10))).toBe(false);
    expect(order.late).toBe(2);
    order.add(tick('USD_JPY', 40));
    order.add(tick('EUR_USD', 35));
    order.flush(true);
    expect(out.join('')).toBe('EUR_USD@30\nEUR_USD@35\nUSD_JPY@40\n');
  });
});
