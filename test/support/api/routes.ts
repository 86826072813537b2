/**
 * The v20 endpoints v20sim serves or is meant to serve (facts sheet section 2), with the spec
 * template each one is validated against.
 */
import type { HttpMethod } from './contract.js';

export interface V20Route {
  readonly method: HttpMethod;
  /** With `/v3` and `{param}` placeholders, as in the spec. */
  readonly template: string;
  /** The spec (2018) has no such operation: body shape checks only. */
  readonly notInSpec?: true;
  /** Never-ending response on success: not for `inject`. */
  readonly stream?: true;
  /** Takes a JSON body. */
  readonly body?: true;
}

const A = '/v3/accounts/{accountID}';

export const V20_ROUTES: readonly V20Route[] = [
  { method: 'GET', template: '/v3/accounts' },
  { method: 'GET', template: A },
  { method: 'GET', template: `${A}/summary` },
  { method: 'GET', template: `${A}/instruments` },
  { method: 'PATCH', template: `${A}/configuration`, body: true },
  { method: 'GET', template: `${A}/changes` },
  { method: 'POST', template: `${A}/orders`, body: true },
  { method: 'GET', template: `${A}/orders` },
  { method: 'GET', template: `${A}/pendingOrders` },
  { method: 'GET', template: `${A}/orders/{orderSpecifier}` },
  { method: 'PUT', template: `${A}/orders/{orderSpecifier}`, body: true },
  { method: 'PUT', template: `${A}/orders/{orderSpecifier}/cancel` },
  { method: 'PUT', template: `${A}/orders/{orderSpecifier}/clientExtensions`, body: true },
  { method: 'GET', template: `${A}/trades` },
  { method: 'GET', template: `${A}/openTrades` },
  { method: 'GET', template: `${A}/trades/{tradeSpecifier}` },
  { method: 'PUT', template: `${A}/trades/{tradeSpecifier}/close`, body: true },
  { method: 'PUT', template: `${A}/trades/{tradeSpecifier}/clientExtensions`, body: true },
  { method: 'PUT', template: `${A}/trades/{tradeSpecifier}/orders`, body: true },
  { method: 'GET', template: `${A}/positions` },
  { method: 'GET', template: `${A}/openPositions` },
  { method: 'GET', template: `${A}/positions/{instrument}` },
  { method: 'PUT', template: `${A}/positions/{instrument}/close`, body: true },
  { method: 'GET', template: `${A}/transactions` },
  { method: 'GET', template: `${A}/transactions/{transactionID}` },
  { method: 'GET', template: `${A}/transactions/idrange` },
  { method: 'GET', template: `${A}/transactions/sinceid` },
  { method: 'GET', template: `${A}/transactions/stream`, stream: true },
  { method: 'GET', template: `${A}/pricing` },
  { method: 'GET', template: `${A}/pricing/stream`, stream: true },
  { method: 'GET', template: `${A}/candles/latest`, notInSpec: true },
  { method: 'GET', template: `${A}/instruments/{instrument}/candles` },
  { method: 'GET', template: '/v3/instruments/{instrument}/candles' },
  { method: 'GET', template: '/v3/instruments/{instrument}/orderBook' },
  { method: 'GET', template: '/v3/instruments/{instrument}/positionBook' },
];

export function routeKey(r: { method: string; template: string }): string {
  return `${r.method} ${r.template}`;
}

/** Fills `{param}` placeholders (values are used as given: encode them yourself if needed). */
export function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return v;
  });
}

export function isAccountScoped(template: string): boolean {
  return template.startsWith('/v3/accounts/{accountID}');
}
