/** v20 error bodies and the few HTTP errors the adapter raises itself. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body['errorMessage'] ?? 'error'));
  }
}

export function invalidValue(field: string): ApiError {
  return new ApiError(400, { errorMessage: `Invalid value specified for '${field}'` });
}

export const UNAUTHORIZED = (): ApiError => new ApiError(401, { errorMessage: 'Insufficient authorization to perform request.' });
export const FORBIDDEN = (): ApiError => new ApiError(403, { errorMessage: 'The provided request was forbidden.' });
export const NO_ACCOUNT = (): ApiError => new ApiError(404, { errorMessage: 'The specified Account does not exist.' });
export const METHOD_NOT_ALLOWED = (): ApiError => new ApiError(405, { errorMessage: 'The method is not allowed for the requested resource.' });
export const NOT_FOUND = (): ApiError => new ApiError(404, { errorMessage: 'The requested resource was not found.' });
export const RANGE_NOT_SATISFIABLE = (message = 'The requested range cannot be satisfied.'): ApiError => new ApiError(416, { errorMessage: message });

/**
 * A schema failure as v20 words it: the dotted path of the field, e.g. 'order.units'. Fastify's
 * validation errors carry a JSON pointer (instancePath) and the part of the request.
 */
export function fieldOfValidation(context: string | undefined, instancePath: string, missingProperty: string | undefined): string {
  const parts = instancePath.split('/').filter((p) => p.length > 0);
  if (missingProperty !== undefined) parts.push(missingProperty);
  if (parts.length === 0) return context === 'body' ? 'body' : (context ?? 'request');
  return parts.join('.');
}
