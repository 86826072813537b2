import type { FastifyPluginCallback } from 'fastify';
import { parse } from 'lossless-json';
import { V20Error } from '../../v3/errors.js';
import { sharedScope } from './shared-scope.js';

/**
 * The JSON body parser. Two things real v20 accepts that a plain JSON.parse would get wrong:
 *
 * - Official clients send `Content-Type: application/json` with no body on cancel and close: an
 *   empty body is no body.
 * - Bots and OANDA's own JavaScript sample send DecimalNumbers as JSON numbers (`"units": 100`,
 *   `"price": 1.10`), which real v20 accepts (oandapyV20's trade-close fixture). Under /v3 every
 *   number becomes its exact source text ("1.10", not the double 1.1), read by lossless-json, so
 *   the string schemas and the decimal arithmetic see what the client wrote, trailing zeros and
 *   all; an exponent form (`1e2`) is kept as written and refused by the DecimalNumber pattern.
 *   No field of a v20 request is a JSON number, so nothing else changes. The /sim control API
 *   keeps JSON numbers (tick prices and times are numbers there).
 *
 * As Fastify's own parser does, a body with a `__proto__` key or a `constructor.prototype` is
 * refused, and a repeated key keeps its last value as JSON.parse does.
 */
class BadJson extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_CTP_INVALID_JSON_BODY';
}

const exactText = (text: string): string => text;
const lastValue = ({ newValue }: { newValue: unknown }): unknown => newValue;

const own = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** Iterative, so a body nested thousands deep (which the parser reads) cannot overflow the stack here. */
function poisoned(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (own(value, '__proto__')) return true;
    const ctor = own(value, 'constructor') ? (value as Record<string, unknown>)['constructor'] : undefined;
    if (ctor !== null && typeof ctor === 'object' && own(ctor, 'prototype')) return true;
    for (const item of Object.values(value)) stack.push(item);
  }
  return false;
}

/** Whether a JSON.parse result holds a number anywhere (iterative, as poisoned). */
function holdsNumber(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'number') return true;
    if (value === null || typeof value !== 'object') continue;
    for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push(item);
  }
  return false;
}

/**
 * What a text must hold for its value to need a walk; most bodies hold neither, and a walk costs
 * more than the parse. A key can spell __proto__ or constructor only in those letters or with a
 * \u escape; a number token follows the start, a colon, a bracket or a comma (and whitespace),
 * and starts with a digit or a minus. A match inside a string only costs the walk.
 */
const MAY_NAME_PROTOTYPE = /__proto__|constructor|\\u/;
const MAY_HOLD_NUMBER = /(?:^|[:[,])\s*[-\d]/;

function losslessParse(text: string, exactNumbers: boolean): unknown {
  try {
    return parse(text, null, { parseNumber: exactNumbers ? exactText : Number, onDuplicateKey: lastValue });
  } catch (error) {
    throw new BadJson(error instanceof Error ? error.message : String(error));
  }
}

const NOT_PARSED = Symbol('not parsed');

/**
 * A request body as lossless-json reads it. JSON.parse, about three times faster, reads it first:
 * its value is the same whenever it holds no number to keep exact (strings, booleans, null, and
 * the last of repeated keys are read alike). A body with a number under /v3, or one JSON.parse
 * refuses (the error message is lossless-json's), is read again by lossless-json.
 * json-body.prop.test.ts compares the two readings.
 */
export function parseBody(text: string, exactNumbers: boolean): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    value = NOT_PARSED;
  }
  if (value === NOT_PARSED || (exactNumbers && MAY_HOLD_NUMBER.test(text) && holdsNumber(value))) value = losslessParse(text, exactNumbers);
  if (MAY_NAME_PROTOTYPE.test(text) && poisoned(value)) throw new BadJson('the body names __proto__ or constructor.prototype');
  return value;
}

/** The charset parameter of a Content-Type, lower case and unquoted; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !contentType.includes(';')) return undefined;
  const m = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType);
  return m?.[2]?.toLowerCase();
}

/**
 * JSON is UTF-8 between systems (RFC 8259 section 8.1); the body is read as UTF-8 whatever the header
 * says, so a body declared in another charset (utf-16) would be misread: refused with 415 instead.
 */
const UNSUPPORTED_CHARSET = (charset: string): V20Error =>
  new V20Error(415, { errorMessage: `The request body must be UTF-8 JSON; charset=${charset} is not supported` });

/** Nothing but whitespace (what trim() removes), without copying the body to find out. */
const BLANK = /^\s*$/;

export const jsonBody: FastifyPluginCallback = sharedScope('v20sim-json-body', (app, _options, done) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, next) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
      next(UNSUPPORTED_CHARSET(charset.slice(0, 40)), undefined);
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (BLANK.test(text)) {
      next(null, undefined);
      return;
    }
    try {
      next(null, parseBody(text, request.url.startsWith('/v3/')));
    } catch (error) {
      next(error as BadJson, undefined);
    }
  });
  done();
});
