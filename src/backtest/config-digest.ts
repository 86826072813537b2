import { createHash } from 'node:crypto';
import type { InstrumentOverride } from '../domain/instruments.js';
import type { Micros } from '../domain/time.js';
import type { TickWindow } from '../engine/feeds/window.js';
import type { AccountSettings } from './account-settings.js';

/** What a run's configuration digest is taken over: everything that decides its transactions besides the data and the strategy's code. */
export interface DigestedConfig {
  readonly strategy: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly accountID: string;
  readonly currency: string;
  readonly balance: string;
  readonly settings: AccountSettings;
  readonly interval: Micros;
  readonly window: TickWindow | undefined;
  readonly instruments: readonly InstrumentOverride[] | undefined;
}

/**
 * SHA-256 of a run's configuration (report.json's configDigest). Settings that are new since the
 * first reports are in it only when set, so a run on the defaults keeps the digest it always had.
 */
export function configDigest(c: DigestedConfig): string {
  const { hedgingEnabled, marginRate, ...otherSettings } = c.settings;
  const text = JSON.stringify({
    strategy: c.strategy,
    params: c.params,
    account: {
      id: c.accountID,
      currency: c.currency,
      balance: c.balance,
      hedgingEnabled: hedgingEnabled ?? false,
      marginRate: marginRate ?? null,
      ...otherSettings,
    },
    equityIntervalMicros: c.interval,
    instruments: c.instruments ?? [],
    ...(c.window === undefined ? {} : { window: c.window }),
  });
  return createHash('sha256').update(text).digest('hex');
}
