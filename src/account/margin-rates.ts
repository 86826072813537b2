import type { InstrumentSpec } from '../domain/instruments.js';
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
