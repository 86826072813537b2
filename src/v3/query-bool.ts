/**
 * A boolean query parameter as real v20 reads it: `true` or `false` in any capitalisation. OANDA's
 * Python bindings send Python's spelling (`snapshot=True`, `includeFirst=False`), so an exact
 * `true`/`false` match would refuse what every bot built on them sends. Anything else is refused
 * by the request schema (src/api/schemas.ts QueryBool) with v20's 400 before it gets here.
 */
export const QUERY_BOOL_PATTERN = '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$';

/** The flag a query value sets, or `fallback` when the parameter is absent. */
export function queryFlag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined ? fallback : value.toLowerCase() === 'true';
}
