import { DEFAULT_MARGIN_PRESET, presetMarginRate } from './margin-presets.js';
import type { MarketHoursSpec } from './market-hours.js';

/**
 * Instrument specifications in the shape of v20's Instrument resource, with OANDA-like values for
 * the 28 major and cross FX pairs. Configs may override fields or add instruments.
 */
export interface FinancingDay {
  readonly dayOfWeek: 'SUNDAY' | 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY';
  readonly daysCharged: number;
}

export interface InstrumentSpec {
  readonly name: string;
  readonly type: 'CURRENCY' | 'CFD' | 'METAL';
  readonly displayName: string;
  readonly pipLocation: number;
  readonly displayPrecision: number;
  readonly tradeUnitsPrecision: number;
  readonly minimumTradeSize: string;
  readonly maximumTrailingStopDistance: string;
  readonly minimumTrailingStopDistance: string;
  readonly maximumPositionSize: string;
  readonly maximumOrderUnits: string;
  readonly marginRate: string;
  readonly financing: {
    readonly longRate: string;
    readonly shortRate: string;
    readonly financingDaysOfWeek: readonly FinancingDay[];
  };
  /** When the instrument trades (market-hours.ts); absent: the run's default, else the FX week. Not part of v20's Instrument. */
  readonly marketHours?: MarketHoursSpec;
}

export type InstrumentOverride = Partial<Omit<InstrumentSpec, 'name'>> & { readonly name: string };

const FINANCING_DAYS: readonly FinancingDay[] = [
  { dayOfWeek: 'MONDAY', daysCharged: 1 },
  { dayOfWeek: 'TUESDAY', daysCharged: 1 },
  { dayOfWeek: 'WEDNESDAY', daysCharged: 3 },
  { dayOfWeek: 'THURSDAY', daysCharged: 1 },
  { dayOfWeek: 'FRIDAY', daysCharged: 1 },
  { dayOfWeek: 'SATURDAY', daysCharged: 0 },
  { dayOfWeek: 'SUNDAY', daysCharged: 0 },
];

/**
 * [name, legacy marginRate, longRate, shortRate]: rates as OANDA publishes them (decimals, 0.05 = 5 %).
 * The margin rate an instrument gets is the default division's (domain/margin-presets.ts); the
 * column is the rate before the presets, used only where the default preset has none.
 */
const FX_PAIRS: readonly (readonly [string, string, string, string])[] = [
  ['EUR_USD', '0.0333', '-0.0566', '0.0336'],
  ['GBP_USD', '0.05', '-0.0489', '0.0263'],
  ['USD_JPY', '0.04', '0.0315', '-0.0612'],
  ['USD_CHF', '0.05', '0.0283', '-0.0599'],
  ['AUD_USD', '0.05', '-0.0362', '0.0141'],
  ['NZD_USD', '0.05', '-0.0318', '0.0093'],
  ['USD_CAD', '0.05', '-0.0129', '-0.0103'],
  ['EUR_GBP', '0.05', '-0.0406', '0.0177'],
  ['EUR_JPY', '0.05', '-0.0065', '-0.0234'],
  ['EUR_CHF', '0.05', '-0.0088', '-0.0211'],
  ['EUR_AUD', '0.05', '-0.0422', '0.0193'],
  ['EUR_NZD', '0.05', '-0.0465', '0.0236'],
  ['EUR_CAD', '0.05', '-0.0520', '0.0290'],
  ['GBP_JPY', '0.05', '0.0011', '-0.0311'],
  ['GBP_CHF', '0.05', '-0.0011', '-0.0208'],
  ['GBP_AUD', '0.05', '-0.0344', '0.0116'],
  ['GBP_NZD', '0.05', '-0.0388', '0.0158'],
  ['GBP_CAD', '0.05', '-0.0442', '0.0212'],
  ['AUD_JPY', '0.05', '0.0064', '-0.0362'],
  ['AUD_CHF', '0.05', '0.0043', '-0.0265'],
  ['AUD_NZD', '0.05', '-0.0261', '0.0032'],
  ['AUD_CAD', '0.05', '-0.0314', '0.0085'],
  ['NZD_JPY', '0.05', '0.0098', '-0.0396'],
  ['NZD_CHF', '0.05', '0.0075', '-0.0297'],
  ['NZD_CAD', '0.05', '-0.0286', '0.0057'],
  ['CAD_JPY', '0.05', '0.0079', '-0.0377'],
  ['CAD_CHF', '0.05', '0.0057', '-0.0281'],
  ['CHF_JPY', '0.05', '0.0021', '-0.0324'],
];

function fxSpec([name, marginRate, longRate, shortRate]: readonly [string, string, string, string]): InstrumentSpec {
  const [base, quote] = name.split('_') as [string, string];
  const jpy = quote === 'JPY';
  return {
    name,
    type: 'CURRENCY',
    displayName: `${base}/${quote}`,
    pipLocation: jpy ? -2 : -4,
    displayPrecision: jpy ? 3 : 5,
    tradeUnitsPrecision: 0,
    minimumTradeSize: '1',
    maximumTrailingStopDistance: jpy ? '100.000' : '1.00000',
    minimumTrailingStopDistance: jpy ? '0.050' : '0.00050',
    maximumPositionSize: '0',
    maximumOrderUnits: '100000000',
    marginRate: presetMarginRate(DEFAULT_MARGIN_PRESET, { name, type: 'CURRENCY' }) ?? marginRate,
    financing: { longRate, shortRate, financingDaysOfWeek: FINANCING_DAYS },
  };
}

export const DEFAULT_INSTRUMENTS: readonly InstrumentSpec[] = FX_PAIRS.map(fxSpec);

const INSTRUMENT_NAME_RE = /^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/;

export function isInstrumentName(value: unknown): value is string {
  return typeof value === 'string' && INSTRUMENT_NAME_RE.test(value);
}

/** The currencies of an instrument name are the parts around its underscore (EUR_USD). */
export function baseCurrency(name: string): string {
  return name.slice(0, name.indexOf('_'));
}

export function quoteCurrency(name: string): string {
  return name.slice(name.indexOf('_') + 1);
}

/**
 * Builds the catalogue: defaults, then overrides merged field by field; an override naming an
 * unknown instrument must be complete enough to stand alone (precision fields at least).
 */
export function buildCatalogue(
  overrides: readonly InstrumentOverride[] = [],
  base: readonly InstrumentSpec[] = DEFAULT_INSTRUMENTS,
): Map<string, InstrumentSpec> {
  const catalogue = new Map<string, InstrumentSpec>();
  for (const spec of base) catalogue.set(spec.name, spec);
  for (const override of overrides) {
    if (!isInstrumentName(override.name)) throw new Error(`instrument name must look like BASE_QUOTE: ${override.name}`);
    const existing = catalogue.get(override.name);
    if (existing) {
      catalogue.set(override.name, { ...existing, ...override });
      continue;
    }
    const template = fxSpec([override.name, override.marginRate ?? '0.05', '0', '0']);
    catalogue.set(override.name, { ...template, ...override });
  }
  return catalogue;
}
