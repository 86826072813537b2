/**
 * Route validators compiled on a route's first request instead of at start-up. Fastify compiles
 * every route's schemas with ajv before it listens: for the v3 routes that was about 90 ms of
 * `serve`'s start-up, most of it for routes a given client never calls. Each validator here is the
 * one Fastify's own compiler (@fastify/ajv-compiler, the same ajv options) builds, only later, so
 * a request is judged exactly as before. The ajv instance itself is also made on first use.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;
type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Compile = (route: unknown) => Validate;

type Pool = (externalSchemas: unknown, options: unknown) => Compile;

/**
 * One pool for every app of the thread: @fastify/ajv-compiler keeps one ajv per set of options in
 * it, and ajv keeps each compiled schema by the schema object, so the apps a scenario run builds
 * (one per file) compile each route schema once per thread, not once per file.
 */
let shared: Pool | undefined;

/** Fastify's `schemaController.compilersFactory.buildValidator`, compiling each schema when first used. */
export function lazyValidatorFactory(): Factory {
  const pool = (shared ??= AjvCompiler() as unknown as Pool);
  const factory = (externalSchemas: unknown, options: unknown): Compile => {
    let compile: Compile | undefined;
    return (route) => {
      let validate: Validate | undefined;
      const lazy: Validate = (data) => (validate ??= (compile ??= pool(externalSchemas, options))(route))(data);
      // Fastify reads a failure's errors from the function it was given: read through, rather than
      // copied onto it after every call.
      Object.defineProperty(lazy, 'errors', { get: () => validate?.errors });
      return lazy;
    };
  };
  return factory as unknown as Factory;
}
