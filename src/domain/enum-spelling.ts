import { POSITION_FILL, TRIGGER_CONDITION } from './order-types.js';

/**
 * How the DEFAULT values of positionFill, triggerCondition and partialFill are spelled, by context.
 *
 * The interface (spec/v3-interface.md 2.3, the note under the Order table): "enumerated values
 * differ by context. Transactions show positionFill DEFAULT ... and partialFill DEFAULT; Order
 * resources show POSITION_DEFAULT, TRIGGER_DEFAULT, DEFAULT_FILL". The facts sheet (3.3) has the
 * same from 2016 captures, while 2022 captures and OANDA's definitions (OrderPositionFill,
 * OrderTriggerCondition) spell it DEFAULT in Order resources too.
 *
 * - `interface` (the default): Order resources print POSITION_DEFAULT, TRIGGER_DEFAULT, DEFAULT_FILL.
 * - `documented`: Order resources print DEFAULT, as the definitions and current servers do.
 *
 * Transactions print DEFAULT under both, and the state (and journal) always holds DEFAULT: the
 * spelling is a view's choice only.
 */
export const ENUM_SPELLINGS = ['interface', 'documented'] as const;
export type EnumSpelling = (typeof ENUM_SPELLINGS)[number];
export const DEFAULT_ENUM_SPELLING: EnumSpelling = 'interface';

/** The Order resource's spelling of each field's DEFAULT under the interface (v3-interface.md 2.3). */
export const ORDER_RESOURCE_DEFAULTS = {
  positionFill: 'POSITION_DEFAULT',
  triggerCondition: 'TRIGGER_DEFAULT',
  partialFill: 'DEFAULT_FILL',
} as const;

export type DefaultedField = keyof typeof ORDER_RESOURCE_DEFAULTS;

/** A field's value as an Order resource prints it: DEFAULT becomes the interface's spelling, other values are unchanged. */
export function orderResourceValue(field: DefaultedField, value: unknown, spelling: EnumSpelling): unknown {
  return spelling === 'interface' && value === 'DEFAULT' ? ORDER_RESOURCE_DEFAULTS[field] : value;
}

/**
 * A requested value as it is stored: the Order resource's spelling (POSITION_DEFAULT,
 * TRIGGER_DEFAULT) means DEFAULT, so a client may send back what it read; anything else is
 * unchanged (and checked as it was sent).
 */
export function requestedValue(field: DefaultedField, value: unknown): unknown {
  return value === ORDER_RESOURCE_DEFAULTS[field] ? 'DEFAULT' : value;
}

/** positionFill values a request may carry: v20's OrderPositionFill and the Order resource's POSITION_DEFAULT. */
export const REQUEST_POSITION_FILL = [...POSITION_FILL, ORDER_RESOURCE_DEFAULTS.positionFill] as const;

/** triggerCondition values a request may carry: v20's OrderTriggerCondition and the Order resource's TRIGGER_DEFAULT. */
export const REQUEST_TRIGGER_CONDITION = [...TRIGGER_CONDITION, ORDER_RESOURCE_DEFAULTS.triggerCondition] as const;
export type RequestPositionFill = (typeof REQUEST_POSITION_FILL)[number];
export type RequestTriggerCondition = (typeof REQUEST_TRIGGER_CONDITION)[number];
