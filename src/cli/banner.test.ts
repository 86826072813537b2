import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine.js';
import { banner } from './banner.js';
import { parseServeArgs } from './args.js';
import { resolveSettings } from './settings.js';

describe('serve banner', () => {
  const engine = createEngine({ accounts: [{ id: '101-004-1000000-001', currency: 'USD' }] });
  const token = (): string => 'a'.repeat(48);

  it('shows the address it listens on as the base URL', () => {
    const settings = resolveSettings({}, parseServeArgs([]), token);
    const text = banner(settings, 'http://127.0.0.1:8080', engine, false, undefined).join('\n');
    expect(text).toContain('base URL:    http://127.0.0.1:8080\n');
    expect(text).not.toContain('listening:');
  });

  it('shows a configured --base-url as the base URL, and where it listens beside it', () => {
    const settings = resolveSettings({}, parseServeArgs(['--base-url', 'https://sim.example.com']), token);
    const text = banner(settings, 'http://127.0.0.1:8080', engine, false, undefined).join('\n');
    expect(text).toContain('base URL:    https://sim.example.com\n');
    expect(text).toContain('listening:   http://127.0.0.1:8080\n');
  });

  it('says when the instrument it suggests trading is closed, until when, and how to trade anyway', () => {
    const settings = resolveSettings({}, parseServeArgs([]), token);
    const at = (iso: string, alwaysOpen = false): string => {
      const start = Date.parse(iso) * 1000;
      const instruments = alwaysOpen ? [{ name: 'EUR_USD', marketHours: { weekly: 'ALWAYS' as const } }] : [];
      const e = createEngine({ accounts: [{ id: '101-004-1000000-001', currency: 'USD' }], start, instruments });
      return banner(settings, 'http://127.0.0.1:8080', e, false, undefined).join('\n');
    };
    // Saturday: FX reopens Sunday 17:00 New York, 22:00 UTC in winter.
    expect(at('2024-01-06T12:00:00Z')).toContain(
      'market:      EUR_USD is closed until 2024-01-07T22:00:00.000000000Z (its market hours): MARKET orders are cancelled MARKET_HALTED',
    );
    expect(at('2024-01-06T12:00:00Z')).toContain('"marketHours": {"weekly": "ALWAYS"}');
    expect(at('2024-01-09T12:00:00Z')).not.toContain('market:');
    expect(at('2024-01-06T12:00:00Z', true)).not.toContain('market:');
  });
});
