/** The Fastify adapter, as the other adapters and the CLI use it. */
export { buildApp, buildReusableApp, type App, type ReusableApp } from './app.js';
export type { ApiOptions, TokenGrant } from './context.js';
