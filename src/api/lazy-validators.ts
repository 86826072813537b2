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

/** Fastify's `schemaController.compilersFactory.buildValidator`, compiling each schema when first used. */
export function lazyValidatorFactory(): Factory {
  const pool = AjvCompiler() as unknown as (externalSchemas: unknown, options: unknown) => Compile;
  const factory = (externalSchemas: unknown, options: unknown): Compile => {
    let compile: Compile | undefined;
    return (route) => {
      let validate: Validate | undefined;
      const lazy: Validate = (data) => {
        validate ??= (compile ??= pool(externalSchemas, options))(route);
        const valid = validate(data);
        // Fastify reads the errors from the function it was given.
        lazy.errors = validate.errors;
        return valid;
      };
      return lazy;
    };
  };
  return factory as unknown as Factory;
}
