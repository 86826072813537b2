/**
 * One assertion for a v20 response: status, headers every response carries, and the body against
 * the spec (see contract.ts).
 */
import { expect } from 'vitest';
import { documentedHeaders, expectConformsTo } from './contract.js';
import type { Sent } from './harness.js';

export interface ExpectV20Options {
  /** Expected Location header value on 201 (and wherever the spec documents one). */
  readonly location?: string | RegExp;
  /** The spec has no such operation: only the generic checks. */
  readonly notInSpec?: boolean;
}

/** Status, RequestID, JSON Content-Type, and the body against the spec for method+template+status. */
export function expectV20(
  res: Sent,
  method: string,
  template: string,
  status: number,
  options: ExpectV20Options = {},
): Record<string, unknown> {
  expect(res.status, `${method} ${template}: ${res.text.slice(0, 1500)}`).toBe(status);
  expect(res.headers['requestid'], 'RequestID header').toMatch(/^\S+$/);
  expect(String(res.headers['content-type']), 'Content-Type').toMatch(/^application\/json(;|$)/);
  expect(res.body, `JSON body: ${res.text.slice(0, 300)}`).toBeTypeOf('object');
  expect(res.body).not.toBeNull();
  if (options.notInSpec !== true) {
    expectConformsTo(method, template, status, res.body);
    for (const header of documentedHeaders(method, template, status)) {
      // Link only when there is a next page; the other documented headers always.
      if (header === 'Link' || header === 'RequestID' || header === 'Content-Encoding') continue;
      expect(res.headers[header.toLowerCase()], `${header} header documented for ${method} ${template} ${status}`).toBeTypeOf('string');
    }
  } else if (status >= 400) {
    expect((res.body as Record<string, unknown>)['errorMessage']).toBeTypeOf('string');
  }
  if (options.location !== undefined) {
    const location = res.headers['location'];
    if (typeof options.location === 'string') expect(location).toBe(options.location);
    else expect(String(location)).toMatch(options.location);
  }
  return res.body as Record<string, unknown>;
}
