import { isAccountId, type AccountConfig } from '../account/state.js';
import { Decimal, isDecimalString } from '../domain/decimal.js';
import { baseCurrency, quoteCurrency, type InstrumentSpec } from '../domain/instruments.js';
import { LIMITS } from '../domain/limits.js';
import { isMarginPresetName, MARGIN_PRESET_NAMES } from '../domain/margin-presets.js';

/** Account settings from untrusted JSON (a /sim body, a config file), checked before anything opens. */

/** Currencies an account may be denominated in: those the instrument catalogue can convert. */
function knownCurrencies(instruments: ReadonlyMap<string, InstrumentSpec>): Set<string> {
  const out = new Set<string>();
  for (const name of instruments.keys()) {
    out.add(baseCurrency(name));
    out.add(quoteCurrency(name));
  }
  return out;
}

const ACCOUNT_KEYS = new Set([
  'id',
  'currency',
  'alias',
  'hedgingEnabled',
  'marginRate',
  'balance',
  'marginCloseout',
  'marginPreset',
  'homeConversionFee',
  'mt4AccountID',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-negative amount of account currency with at most 4 decimals (numbers are accepted). */
export function checkBalance(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (!isDecimalString(text) || text.startsWith('-') || text.startsWith('+')) return null;
  const amount = new Decimal(text);
  return amount.decimalPlaces() > 4 ? null : text;
}

type Checked = AccountConfig | { field: string; why: string };
type MutableConfig = { -readonly [K in keyof AccountConfig]: AccountConfig[K] };

/** The optional settings, each checked; the first fault wins. */
function checkOptional(value: Record<string, unknown>, config: MutableConfig): { field: string; why: string } | undefined {
  const { alias, hedgingEnabled, marginRate, balance } = value;
  if (alias !== undefined) {
    if (typeof alias !== 'string' || alias.length > LIMITS.aliasLength)
      return { field: 'alias', why: `must be a string of at most ${LIMITS.aliasLength} characters` };
    config.alias = alias;
  }
  if (hedgingEnabled !== undefined) {
    if (typeof hedgingEnabled !== 'boolean') return { field: 'hedgingEnabled', why: 'must be true or false' };
    config.hedgingEnabled = hedgingEnabled;
  }
  if (marginRate !== undefined) {
    const ok = isDecimalString(marginRate) && new Decimal(marginRate).greaterThan(0) && new Decimal(marginRate).lessThanOrEqualTo(1);
    if (!ok) return { field: 'marginRate', why: 'must be a decimal string in (0, 1], e.g. "0.02"' };
    config.marginRate = marginRate;
  }
  if (balance !== undefined) {
    const text = checkBalance(balance);
    if (text === null) return { field: 'balance', why: 'must be a non-negative decimal with at most 4 decimals, e.g. "100000"' };
    config.balance = text;
  }
  return checkMarginOptions(value, config) ?? checkConversionFee(value, config) ?? checkMt4AccountId(value, config);
}

/**
 * The MT4 account ID of an account tied to a third-party terminal (account/third-party-terminal.ts):
 * an integer, as AccountProperties.mt4AccountID is in oanda-v20-openapi.json; positive, as an MT4 login is.
 */
function checkMt4AccountId(value: Record<string, unknown>, config: MutableConfig): { field: string; why: string } | undefined {
  const id = value['mt4AccountID'];
  if (id === undefined) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    return { field: 'mt4AccountID', why: 'must be a positive integer, e.g. 5012345 (the MT4 login the account is tied to)' };
  config.mt4AccountID = id;
  return undefined;
}

/**
 * The home-currency conversion fee (account/home-currency.ts): a decimal string in [0, 0.1), e.g.
 * "0.005" (OANDA Corporation's 0.5 %, the default; other divisions quote 1.0 %, facts sheet §14).
 */
function checkConversionFee(value: Record<string, unknown>, config: MutableConfig): { field: string; why: string } | undefined {
  const fee = value['homeConversionFee'];
  if (fee === undefined) return undefined;
  const ok = typeof fee === 'string' && isDecimalString(fee) && !new Decimal(fee).isNegative() && new Decimal(fee).lessThan('0.1');
  if (!ok) return { field: 'homeConversionFee', why: 'must be a decimal string in [0, 0.1), e.g. "0.005" for 0.5 %' };
  config.homeConversionFee = fee;
  return undefined;
}

/** The margin closeout switch (default on) and the division's margin preset (account/margin-call.ts, domain/margin-presets.ts). */
function checkMarginOptions(value: Record<string, unknown>, config: MutableConfig): { field: string; why: string } | undefined {
  const { marginCloseout, marginPreset } = value;
  if (marginCloseout !== undefined) {
    if (typeof marginCloseout !== 'boolean') return { field: 'marginCloseout', why: 'must be true or false' };
    config.marginCloseout = marginCloseout;
  }
  if (marginPreset !== undefined) {
    if (!isMarginPresetName(marginPreset)) return { field: 'marginPreset', why: `must be one of ${MARGIN_PRESET_NAMES.join(', ')}` };
    config.marginPreset = marginPreset;
  }
  return undefined;
}

/**
 * An AccountConfig from untrusted JSON, checked so that opening the account cannot fail half-way:
 * returns the config, or the field at fault and why. Shared with the CLI's config file checks.
 */
export function checkAccountConfig(
  value: unknown,
  instruments: ReadonlyMap<string, InstrumentSpec>,
  keys: ReadonlySet<string> = ACCOUNT_KEYS,
): Checked {
  if (!isObject(value)) return { field: '', why: 'must be an object' };
  for (const key of Object.keys(value)) if (!keys.has(key)) return { field: key, why: 'unknown field' };
  const { id, currency } = value;
  if (typeof id !== 'string' || !isAccountId(id)) return { field: 'id', why: 'must look like 101-004-1435156-001' };
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    return { field: 'currency', why: 'must be a three-letter currency code such as USD' };
  if (!knownCurrencies(instruments).has(currency))
    return { field: 'currency', why: `no instrument quotes ${currency}, so its P/L could not be converted` };
  const config: MutableConfig = { id, currency };
  return checkOptional(value, config) ?? config;
}
