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
});
