import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ON_FILL_DEFAULT_TIME_IN_FORCE,
  ON_FILL_TIME_IN_FORCE,
  ORDER_FILL_REASON,
  ORDER_STATE,
  ORDER_STATE_FILTER,
  ORDER_TYPE_RULES,
  ORDER_TYPES,
  POSITION_FILL,
  TIME_IN_FORCE,
  TRIGGER_CONDITION,
  isEntryType,
  isOrderType,
  orderTransactionType,
  orderTypeOfTransaction,
  type OrderType,
} from './order-types.js';

/** src/domain -> repository root -> its sibling `shared/spec`. */
const SPEC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'spec');

interface Definition {
  readonly enum?: readonly string[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, Definition>>;
}
const DEFINITIONS = (
  JSON.parse(readFileSync(path.join(SPEC_DIR, 'oanda-v20-openapi.json'), 'utf8')) as { definitions: Record<string, Definition> }
).definitions;
const FACTS = readFileSync(path.join(SPEC_DIR, 'oanda-v20-facts.md'), 'utf8');

function definition(name: string): Definition {
  const d = DEFINITIONS[name];
  if (d === undefined) throw new Error(`no definition ${name} in the OpenAPI document`);
  return d;
}

function enumOf(name: string): readonly string[] {
  const values = definition(name).enum;
  if (values === undefined) throw new Error(`${name} is not an enumeration`);
  return values;
}

const sorted = (values: readonly string[]): string[] => [...values].sort();

/** MARKET_IF_TOUCHED -> MarketIfTouchedOrderRequest. */
function requestDefinition(type: OrderType): Definition {
  const pascal = type
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return definition(`${pascal}OrderRequest`);
}

/** The values a "Restricted to ..." / "may only be ..." sentence names, or the whole enumeration without one. */
function allowedByDescription(field: Definition): string[] {
  const all = field.enum ?? [];
  const sentence = /(?:Restricted to|may only be)([^.]*)/.exec(field.description ?? '')?.[1];
  if (sentence === undefined) return sorted(all);
  return sorted(all.filter((v) => new RegExp(`\\b${v}\\b`).test(sentence)));
}

/** The default time in force of each request type in the facts sheet's field table ("timeInForce*=FOK"; "as LIMIT plus ..."). */
function factsDefaultTimeInForce(type: string): string | undefined {
  const row = new RegExp(`^\\| ${type} \\| (.*)$`, 'm').exec(FACTS)?.[1];
  if (row === undefined) return undefined;
  const own = /timeInForce\*=\**([A-Z]+)/.exec(row)?.[1];
  if (own !== undefined) return own;
  const base = /^as ([A-Z_]+)/.exec(row)?.[1];
  return base === undefined ? undefined : factsDefaultTimeInForce(base);
}

describe('the v20 enumerations are the OpenAPI definitions', () => {
  it.each([
    ['TimeInForce', TIME_IN_FORCE],
    ['OrderPositionFill', POSITION_FILL],
    ['OrderTriggerCondition', TRIGGER_CONDITION],
    ['OrderState', ORDER_STATE],
    ['OrderStateFilter', ORDER_STATE_FILTER],
    ['OrderFillReason', ORDER_FILL_REASON],
  ] as const)('%s', (name, values) => {
    expect(sorted(values)).toEqual(sorted(enumOf(name)));
    expect(new Set(values).size).toBe(values.length);
  });

  it('OrderType: every type but FIXED_PRICE (created administratively, never by clients), in OANDA order', () => {
    expect(ORDER_TYPES).toEqual(enumOf('OrderType').filter((t) => t !== 'FIXED_PRICE'));
  });

  it('the types a client can cancel are CancellableOrderType', () => {
    expect(ORDER_TYPES.filter((t) => ORDER_TYPE_RULES[t].cancellable)).toEqual(enumOf('CancellableOrderType'));
  });

  it('on-fill orders take GTC, GTD or GFD, GTC by default (TakeProfitDetails, StopLossDetails, TrailingStopLossDetails)', () => {
    for (const name of ['TakeProfitDetails', 'StopLossDetails', 'TrailingStopLossDetails']) {
      const tif = definition(name).properties?.['timeInForce'];
      expect(tif, name).toBeDefined();
      expect(allowedByDescription(tif as Definition), name).toEqual(sorted(ON_FILL_TIME_IN_FORCE));
    }
    expect(ON_FILL_DEFAULT_TIME_IN_FORCE).toBe('GTC');
  });
});

describe.each(ORDER_TYPES)('%s: the row is its OpenAPI request definition', (type) => {
  const rule = ORDER_TYPE_RULES[type];
  const properties = requestDefinition(type).properties ?? {};
  const has = (field: string): boolean => Object.hasOwn(properties, field);

  it('entry orders name an instrument, units and a position fill; dependent orders a trade', () => {
    const entry = rule.kind === 'ENTRY';
    expect(isEntryType(type)).toBe(entry);
    for (const field of [
      'instrument',
      'units',
      'positionFill',
      'takeProfitOnFill',
      'stopLossOnFill',
      'trailingStopLossOnFill',
      'tradeClientExtensions',
    ]) {
      expect(has(field), field).toBe(entry);
    }
    expect(has('tradeID')).toBe(!entry);
    expect(has('clientTradeID')).toBe(!entry);
  });

  it('price, distance, priceBound and triggerCondition exactly where the row says', () => {
    expect(has('price')).toBe(rule.threshold === 'PRICE' || rule.threshold === 'PRICE_OR_DISTANCE');
    expect(has('distance')).toBe(rule.threshold === 'DISTANCE' || rule.threshold === 'PRICE_OR_DISTANCE');
    expect(has('priceBound')).toBe(rule.priceBound);
    expect(has('triggerCondition')).toBe(rule.triggerCondition);
    expect(rule.trigger !== null).toBe(rule.triggerCondition);
  });

  it('time in force: the allowed values of the definition and the default of the facts sheet; gtdTime where GTD is allowed', () => {
    const tif = properties['timeInForce'];
    expect(tif).toBeDefined();
    expect(sorted(rule.timeInForce)).toEqual(allowedByDescription(tif as Definition));
    expect(rule.timeInForce).toContain(rule.defaultTimeInForce);
    expect(rule.defaultTimeInForce).toBe(factsDefaultTimeInForce(type));
    expect(has('gtdTime')).toBe((rule.timeInForce as readonly string[]).includes('GTD'));
  });

  it('transaction types and fill reason are v20 values named after the type', () => {
    const transactionTypes = enumOf('TransactionType');
    expect(rule.transactionType).toBe(`${type}_ORDER`);
    expect(orderTransactionType(type)).toBe(rule.transactionType);
    expect(transactionTypes).toContain(rule.transactionType);
    expect(transactionTypes).toContain(`${rule.transactionType}_REJECT`);
    expect(orderTypeOfTransaction(rule.transactionType)).toBe(type);
    expect(orderTypeOfTransaction(`${rule.transactionType}_REJECT`)).toBe(type);
    expect(rule.fillReason).toBe(rule.transactionType);
    expect(ORDER_FILL_REASON).toContain(rule.fillReason);
  });
});

describe('the table', () => {
  it('is frozen, rows and lists included', () => {
    expect(Object.isFrozen(ORDER_TYPE_RULES)).toBe(true);
    expect(Object.isFrozen(ORDER_TYPES)).toBe(true);
    for (const type of ORDER_TYPES) {
      expect(Object.isFrozen(ORDER_TYPE_RULES[type])).toBe(true);
      expect(Object.isFrozen(ORDER_TYPE_RULES[type].timeInForce)).toBe(true);
    }
  });

  it('orderTypeOfTransaction refuses anything but an order creation or reject', () => {
    expect(() => orderTypeOfTransaction('ORDER_FILL' as never)).toThrow('not an order transaction type: ORDER_FILL');
  });

  it('isOrderType accepts exactly the rows', () => {
    for (const type of ORDER_TYPES) expect(isOrderType(type)).toBe(true);
    for (const value of ['FIXED_PRICE', 'GUARANTEED_STOP_LOSS', 'market', 'toString', '__proto__', '', 7, null, undefined, {}]) {
      expect(isOrderType(value), String(value)).toBe(false);
    }
  });
});
