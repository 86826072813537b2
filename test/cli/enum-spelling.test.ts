/**
 * `enumSpelling` (config) and `--enum-spelling` (flag): how serve's Order resources spell DEFAULT
 * (src/domain/enum-spelling.ts). The flag overrides the file; unset is the interface's spelling.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../src/cli/args.js';
import { ConfigError, checkConfig, type FileConfig, type ServeArgs } from '../../src/cli/config.js';
import { startServe, type ServeHandle } from '../../src/cli/serve.js';
import { resolveSettings } from '../../src/cli/settings.js';

const USD = '101-004-1000000-001';
const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const settings = (file: FileConfig, args: ServeArgs) =>
  resolveSettings(file, { host: '127.0.0.1', port: 0, token: 'tok', adminToken: 'adm', clock: 'manual', ...args }, () => 'unused');

describe('reading the option', () => {
  it('--enum-spelling takes interface or documented', () => {
    expect(parseServeArgs(['--enum-spelling', 'documented'])).toEqual({ enumSpelling: 'documented' });
    expect(parseServeArgs(['--enum-spelling', 'interface'])).toEqual({ enumSpelling: 'interface' });
    expect(message(() => parseServeArgs(['--enum-spelling', 'DEFAULT']))).toBe(
      'options: --enum-spelling: must be one of interface, documented, got "DEFAULT"',
    );
  });

  it('the config key enumSpelling', () => {
    expect(checkConfig({ enumSpelling: 'documented' }, '/')).toEqual({ enumSpelling: 'documented' });
    expect(message(() => checkConfig({ enumSpelling: 'oanda' }, '/'))).toContain(
      'config: enumSpelling: must be one of interface, documented',
    );
  });

  it('the flag overrides the file; unset stays unset (the interface spelling)', () => {
    expect(settings({ enumSpelling: 'documented' }, { enumSpelling: 'interface' }).enumSpelling).toBe('interface');
    expect(settings({ enumSpelling: 'documented' }, {}).enumSpelling).toBe('documented');
    expect(settings({}, {}).enumSpelling).toBeUndefined();
  });
});

describe('serve', () => {
  async function orderAndTransaction(file: FileConfig, args: ServeArgs): Promise<[unknown, unknown]> {
    const server = await startServe(settings(file, args), {
      out: () => undefined,
      err: () => undefined,
      fatal: (m) => {
        throw new Error(m);
      },
    });
    servers.push(server);
    const ticks = await server.app.inject({
      method: 'POST',
      url: '/sim/ticks',
      headers: { authorization: 'Bearer adm' },
      payload: { ticks: [{ instrument: 'EUR_USD', bid: '1.10000', ask: '1.10020' }] },
    });
    expect(ticks.statusCode).toBe(200);
    const user = { authorization: 'Bearer tok' };
    const created = await server.app.inject({
      method: 'POST',
      url: `/v3/accounts/${USD}/orders`,
      headers: user,
      payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09000', positionFill: 'POSITION_DEFAULT' } },
    });
    expect(created.statusCode).toBe(201);
    const tx = created.json<{ orderCreateTransaction: { id: string } }>().orderCreateTransaction;
    const order = (await server.app.inject({ method: 'GET', url: `/v3/accounts/${USD}/orders/${tx.id}`, headers: user })).json<{
      order: unknown;
    }>().order;
    return [order, tx];
  }

  it('prints the interface spelling by default and DEFAULT with documented; transactions show DEFAULT either way', async () => {
    const defaults = { positionFill: 'DEFAULT', triggerCondition: 'DEFAULT', partialFill: 'DEFAULT' };
    const [order, tx] = await orderAndTransaction({}, {});
    expect(order).toMatchObject({ positionFill: 'POSITION_DEFAULT', triggerCondition: 'TRIGGER_DEFAULT', partialFill: 'DEFAULT_FILL' });
    expect(tx).toMatchObject(defaults);
    const [documented, documentedTx] = await orderAndTransaction({ enumSpelling: 'documented' }, {});
    expect(documented).toMatchObject(defaults);
    expect(documentedTx).toMatchObject(defaults);
    const [flag] = await orderAndTransaction({ enumSpelling: 'interface' }, { enumSpelling: 'documented' });
    expect(flag).toMatchObject(defaults);
  });
});
