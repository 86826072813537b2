import type { InstrumentSpec } from '../domain/instruments.js';
import type { AccountState } from './state.js';
import { isMarginPresetName, MARGIN_PRESET_NAMES, presetMarginRate } from '../domain/margin-presets.js';

/**
 * The instruments as an account with a division's margin preset sees them: the preset's rate for
 * every instrument it classifies (configured instrument overrides included), the catalogue's for
 * the rest. Without a preset the account shares the catalogue, whose rates are the default
 * division's (domain/margin-presets.ts).
 */
export function instrumentsForAccount(
  catalogue: ReadonlyMap<string, InstrumentSpec>,
  preset: string | undefined,
): ReadonlyMap<string, InstrumentSpec> {
  if (preset === undefined) return catalogue;
  if (!isMarginPresetName(preset)) throw new Error(`marginPreset must be one of ${MARGIN_PRESET_NAMES.join(', ')}: ${preset}`);
  const out = new Map<string, InstrumentSpec>();
  for (const [name, spec] of catalogue) {
    const rate = presetMarginRate(preset, spec);
    out.set(name, rate === undefined || rate === spec.marginRate ? spec : { ...spec, marginRate: rate });
  }
  return out;
}

/**
 * The marginRate an AccountSummary shows: the client's override when configured, else the lowest
 * margin rate among the account's instruments, i.e. the account's maximum leverage. Real summaries
 * always carry one ("marginRate": "0.05" in oandapyV20's account fixtures, though OANDA's
 * definition calls it a client override; facts sheet, "AccountSummary.marginRate"), and clients
 * read it at once. The shown default never binds: an instrument's effective rate is the larger of
 * its own and the account's (effectiveMarginRateText), so showing it changes no margin figure.
 */
export function shownMarginRate(state: Pick<AccountState, 'marginRate' | 'instruments' | 'memo'>): string | undefined {
  if (state.marginRate !== undefined) return state.marginRate;
  let lowest: string | undefined;
  for (const spec of state.instruments.values()) {
    if (lowest === undefined || state.memo.rateFloatOf(spec.marginRate) < state.memo.rateFloatOf(lowest)) lowest = spec.marginRate;
  }
  return lowest;
}
