import { describe, expect, it } from 'vitest';
import { ENUM_SPELLINGS, ORDER_RESOURCE_DEFAULTS, orderResourceValue, requestedValue, type DefaultedField } from './enum-spelling.js';
import { POSITION_FILL, TRIGGER_CONDITION } from './order-types.js';

const FIELDS = Object.keys(ORDER_RESOURCE_DEFAULTS) as DefaultedField[];

describe('orderResourceValue', () => {
  it("interface: DEFAULT as the Order resource's spelling (v3-interface.md 2.3)", () => {
    expect(FIELDS.map((f) => orderResourceValue(f, 'DEFAULT', 'interface'))).toEqual([
      'POSITION_DEFAULT',
      'TRIGGER_DEFAULT',
      'DEFAULT_FILL',
    ]);
  });

  it('documented: DEFAULT stays DEFAULT', () => {
    for (const f of FIELDS) expect(orderResourceValue(f, 'DEFAULT', 'documented')).toBe('DEFAULT');
  });

  it('other values are never respelled, under either spelling', () => {
    for (const spelling of ENUM_SPELLINGS) {
      for (const v of POSITION_FILL.filter((p) => p !== 'DEFAULT')) expect(orderResourceValue('positionFill', v, spelling)).toBe(v);
      for (const v of TRIGGER_CONDITION.filter((t) => t !== 'DEFAULT')) expect(orderResourceValue('triggerCondition', v, spelling)).toBe(v);
      expect(orderResourceValue('positionFill', undefined, spelling)).toBeUndefined();
    }
  });
});

describe('requestedValue', () => {
  it("reads the Order resource's spelling of its own field as DEFAULT", () => {
    expect(requestedValue('positionFill', 'POSITION_DEFAULT')).toBe('DEFAULT');
    expect(requestedValue('triggerCondition', 'TRIGGER_DEFAULT')).toBe('DEFAULT');
  });

  it("leaves everything else as sent, another field's spelling included (it is then refused)", () => {
    expect(requestedValue('positionFill', 'TRIGGER_DEFAULT')).toBe('TRIGGER_DEFAULT');
    expect(requestedValue('triggerCondition', 'POSITION_DEFAULT')).toBe('POSITION_DEFAULT');
    expect(requestedValue('positionFill', 'DEFAULT')).toBe('DEFAULT');
    expect(requestedValue('positionFill', 'OPEN_ONLY')).toBe('OPEN_ONLY');
    expect(requestedValue('triggerCondition', undefined)).toBeUndefined();
  });

  it('round trip: a value read from an Order resource and sent back is stored as it was', () => {
    for (const spelling of ENUM_SPELLINGS) {
      for (const v of POSITION_FILL) expect(requestedValue('positionFill', orderResourceValue('positionFill', v, spelling))).toBe(v);
      for (const v of TRIGGER_CONDITION)
        expect(requestedValue('triggerCondition', orderResourceValue('triggerCondition', v, spelling))).toBe(v);
    }
  });
});
