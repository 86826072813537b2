/**
 * Margin rates by OANDA division: named presets an account (or the whole catalogue) takes its
 * instruments' marginRate from. Leverage L:1 is a margin rate of 1/L.
 *
 * The tables are transcribed from memory of OANDA's published leverage tables and the regulators'
 * retail limits behind them; check them against the division's current pages before relying on
 * the figures:
 * - OANDA Corporation (US; NFA/CFTC): 50:1 (0.02) on pairs of major currencies (NFA's list: USD,
 *   EUR, GBP, JPY, CHF, CAD, AUD, NZD, SEK, NOK, DKK), 20:1 (0.05) on other pairs.
 * - OANDA Europe (ESMA retail limits): 30:1 on major pairs (any two of USD, EUR, GBP, JPY, CAD,
 *   CHF), 20:1 on other pairs, gold and major indices, 10:1 on other commodities and indices.
 * - OANDA Australia (ASIC product intervention order, 2021): the same classes and rates as ESMA.
 * - OANDA Japan (FSA): 25:1 (0.04) on every currency pair.
 * - legacy: the rates v20sim shipped before the presets (EUR_USD 0.0333, USD_JPY 0.04, the
 *   rest 0.05), which match no division; kept so older runs can be reproduced.
 *
 * The default is OANDA Europe (ESMA): the example account IDs (101-004-…) and the real bodies the
 * facts sheet quotes come from division 004 accounts, and its EUR_USD rate (0.0333) is the one
 * v20sim always used, so runs on EUR_USD alone keep their journals. Non-FX instruments a preset
 * does not classify (most CFDs) keep the catalogue's rate.
 */

export type MarginPresetName = 'oanda-europe-esma' | 'oanda-corporation-us' | 'oanda-australia-asic' | 'oanda-japan' | 'legacy';

export const MARGIN_PRESET_NAMES: readonly MarginPresetName[] = [
  'oanda-europe-esma',
  'oanda-corporation-us',
  'oanda-australia-asic',
  'oanda-japan',
  'legacy',
];

export const DEFAULT_MARGIN_PRESET: MarginPresetName = 'oanda-europe-esma';

export function isMarginPresetName(value: unknown): value is MarginPresetName {
  return typeof value === 'string' && (MARGIN_PRESET_NAMES as readonly string[]).includes(value);
}

const NFA_MAJORS: readonly string[] = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK', 'DKK'];
const ESMA_MAJORS: readonly string[] = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'CHF'];
/** ISO 4217 codes of currencies (precious metals are X-codes: XAU, XAG, XPT, XPD). */
const METALS: readonly string[] = ['XAU', 'XAG', 'XPT', 'XPD'];
/** OANDA's CFD names of the indices ESMA and ASIC count as major. */
const MAJOR_INDICES: readonly string[] = [
  'UK100_GBP',
  'FR40_EUR',
  'DE30_EUR',
  'DE40_EUR',
  'US30_USD',
  'SPX500_USD',
  'NAS100_USD',
  'JP225_USD',
  'JP225Y_JPY',
  'AU200_AUD',
  'EU50_EUR',
];

/** What a preset needs to know of an instrument: its v20 name and type. */
export interface MarginClassified {
  readonly name: string;
  readonly type: string;
}

function currencies(name: string): [string, string] {
  const at = name.indexOf('_');
  return [name.slice(0, at), name.slice(at + 1)];
}

function isCurrencyPair(i: MarginClassified): boolean {
  if (i.type !== 'CURRENCY') return false;
  const [base, quote] = currencies(i.name);
  return /^[A-Z]{3}$/.test(base) && /^[A-Z]{3}$/.test(quote) && !METALS.includes(base);
}

function bothIn(name: string, list: readonly string[]): boolean {
  const [base, quote] = currencies(name);
  return list.includes(base) && list.includes(quote);
}

/** ESMA's and ASIC's classes: 30:1 majors; 20:1 other pairs, gold, major indices; 10:1 other CFDs and metals. */
function esmaRate(i: MarginClassified): string | undefined {
  if (isCurrencyPair(i)) return bothIn(i.name, ESMA_MAJORS) ? '0.0333' : '0.05';
  if (currencies(i.name)[0] === 'XAU') return '0.05';
  if (MAJOR_INDICES.includes(i.name)) return '0.05';
  if (i.type === 'METAL' || i.type === 'CFD') return '0.1';
  return undefined;
}

function usRate(i: MarginClassified): string | undefined {
  if (!isCurrencyPair(i)) return undefined;
  return bothIn(i.name, NFA_MAJORS) ? '0.02' : '0.05';
}

function japanRate(i: MarginClassified): string | undefined {
  return isCurrencyPair(i) ? '0.04' : undefined;
}

function legacyRate(i: MarginClassified): string | undefined {
  if (!isCurrencyPair(i)) return undefined;
  if (i.name === 'EUR_USD') return '0.0333';
  if (i.name === 'USD_JPY') return '0.04';
  return '0.05';
}

const RATES: Readonly<Record<MarginPresetName, (i: MarginClassified) => string | undefined>> = {
  'oanda-europe-esma': esmaRate,
  'oanda-australia-asic': esmaRate,
  'oanda-corporation-us': usRate,
  'oanda-japan': japanRate,
  legacy: legacyRate,
};

/** The preset's margin rate for an instrument (a decimal string), or undefined when it does not classify it. */
export function presetMarginRate(preset: MarginPresetName, instrument: MarginClassified): string | undefined {
  return RATES[preset](instrument);
}
