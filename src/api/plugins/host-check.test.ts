import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hostName, isLoopbackName, originFormUrl } from './host-check.js';

describe('hostName', () => {
  it('reads a name or an IP literal with an optional port, lower case', () => {
    expect(hostName('Example.COM:8080')).toBe('example.com');
    expect(hostName('[::1]:80')).toBe('::1');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
  });

  it.each(['evil.example/phish?', 'a b', '', ':80', 'host:port', 'x@y', '[::1'])('refuses %j', (value) => {
    expect(hostName(value)).toBeNull();
  });
});

describe('isLoopbackName', () => {
  it.each(['localhost', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1'])('%s is loopback', (name) => {
    expect(isLoopbackName(name)).toBe(true);
  });
  it.each(['localhost.evil.example', '128.0.0.1', '10.0.0.1', 'example.com'])('%s is not', (name) => {
    expect(isLoopbackName(name)).toBe(false);
  });
});

describe('originFormUrl', () => {
  const req = (url: string, host?: string): IncomingMessage => ({ url, headers: host === undefined ? {} : { host } }) as IncomingMessage;

  it('keeps an origin-form URL', () => {
    expect(originFormUrl(req('/v3/accounts?x=1'))).toBe('/v3/accounts?x=1');
  });

  it('turns the absolute form into its path and takes the authority as the Host', () => {
    const r = req('http://127.0.0.1:8080/v3/accounts?x=1', 'other.example');
    expect(originFormUrl(r)).toBe('/v3/accounts?x=1');
    expect(r.headers.host).toBe('127.0.0.1:8080');
  });

  it('drops user info and gives a bare authority the root path', () => {
    const r = req('HTTP://user:pw@localhost:1');
    expect(originFormUrl(r)).toBe('/');
    expect(r.headers.host).toBe('localhost:1');
  });
});
