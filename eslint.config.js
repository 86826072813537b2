// @ts-check
/**
 * Lint enforces what review would miss.
 *
 * - The core (src/domain, orders, matching, account, engine, journal) is deterministic: it reads
 *   no clock, no randomness, no locale and no host time zone, schedules nothing, does no I/O
 *   (except src/engine/feeds and src/journal, which read and write files), and keeps no mutable
 *   module state. decide/evolve and the order machines (orders, matching, account) are
 *   synchronous.
 * - Only src/cli touches argv, env and exit codes.
 * - Which folder may import which (the layers) and "no import cycle" are checked on the resolved
 *   import graph by dependency-cruiser (.dependency-cruiser.cjs), the second half of `npm run lint`.
 * - Type-aware rules catch unhandled promises and switches that miss a case of a union.
 *
 * Rule options do not merge across flat-config objects (a later object replaces an earlier
 * object's options for the same rule), so each restricted-* rule is set once per zone, and the
 * zones' `files` never overlap.
 *
 * A rule at "warn" is one the tree does not satisfy yet; make it "error" once its warnings are
 * gone. Escape hatch for a single line: `// eslint-disable-next-line <rule> -- <why this is safe>`.
 */
import tseslint from 'typescript-eslint';

const TS = '{ts,mts,cts}';
const TESTS = [`**/*.test.${TS}`];

const CORE = ['domain', 'orders', 'matching', 'account', 'engine', 'journal'];
/** decide/evolve and the order machines run synchronously, one message at a time. */
const SYNC = ['orders', 'matching', 'account'];
/** The only core folders that touch files. */
const FILE_IO = ['src/journal', 'src/engine/feeds'];

/** @param {string[]} dirs */
const tsUnder = (dirs) => dirs.map((dir) => `${dir}/**/*.${TS}`);
const coreDirs = (/** @type {string[]} */ layers) => layers.map((layer) => `src/${layer}`);

// ---------------------------------------------------------------------------------------------
// Determinism bans (core, non-test files)

const CLOCK = 'the core reads no clock: pass time in (Micros argument, simulated clock)';
const RANDOM = 'the core has no randomness outside the seeded generator: pass the generator in';
const TIMER = "the core schedules nothing on the wall clock: use the simulated clock's deadline queue";
const LOCALE = 'locale formatting depends on the host: format explicitly (decimal.ts, price.ts, time.ts)';
const HOST_TZ = 'local-time Date methods depend on the host TZ: use the getUTC*/setUTC* forms or Date.UTC';
const GC = 'garbage-collection timing is not deterministic';
const SYNC_MSG = 'decide/evolve and order machines are synchronous';

/** @type {Array<{ object?: string, property: string, message: string }>} */
const CORE_PROPERTIES = [
  { object: 'Date', property: 'now', message: `Date.now: ${CLOCK}` },
  {
    object: 'Date',
    property: 'parse',
    message: 'Date.parse reads strings without an offset as host-local time: use parseDateTime (domain/time.ts)',
  },
  { object: 'Math', property: 'random', message: `Math.random: ${RANDOM}` },
  {
    object: 'crypto',
    property: 'randomUUID',
    message: `crypto.randomUUID: ${RANDOM}; ids are account-local consecutive integers`,
  },
  { object: 'crypto', property: 'getRandomValues', message: `crypto.getRandomValues: ${RANDOM}` },
  { object: 'process', property: 'hrtime', message: `process.hrtime: ${CLOCK}` },
  { object: 'process', property: 'uptime', message: `process.uptime: ${CLOCK}` },
  { object: 'process', property: 'nextTick', message: `process.nextTick: ${TIMER}` },
  ...['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'].map((property) => ({
    object: 'globalThis',
    property,
    message: `${property}: ${TIMER}`,
  })),
  ...['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'toLocaleUpperCase', 'toLocaleLowerCase'].map((property) => ({
    property,
    message: `${property}: ${LOCALE}`,
  })),
  { property: 'localeCompare', message: `localeCompare: ${LOCALE}; sort by code unit and a sequence number` },
  ...[
    'getTimezoneOffset',
    'getFullYear',
    'getMonth',
    'getDate',
    'getDay',
    'getHours',
    'getMinutes',
    'getSeconds',
    'getMilliseconds',
    'setFullYear',
    'setMonth',
    'setDate',
    'setHours',
    'setMinutes',
    'setSeconds',
    'setMilliseconds',
    'toDateString',
    'toTimeString',
  ].map((property) => ({ property, message: `${property}: ${HOST_TZ}` })),
];

/** @type {Array<{ name: string, message: string }>} */
const CORE_GLOBALS = [
  { name: 'performance', message: `performance: ${CLOCK}` },
  ...['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'].map((name) => ({
    name,
    message: `${name}: ${TIMER}`,
  })),
  { name: 'Intl', message: `Intl: ${LOCALE}` },
  { name: 'WeakRef', message: `WeakRef: ${GC}` },
  { name: 'FinalizationRegistry', message: `FinalizationRegistry: ${GC}` },
];

/** @type {Array<{ selector: string, message: string }>} */
const CORE_SYNTAX = [
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: `new Date() without an argument: ${CLOCK}` },
  { selector: "NewExpression[callee.name='Date'][arguments.length>1]", message: `new Date(y, m, ...) is host-local time: ${HOST_TZ}` },
  { selector: "CallExpression[callee.name='Date']", message: `Date() returns the current time: ${CLOCK}` },
  { selector: "CallExpression[callee.name='randomUUID']", message: `randomUUID(): ${RANDOM}` },
  {
    selector: 'ForInStatement',
    message: 'for...in iterates inherited and key-order-dependent properties: iterate arrays and Maps (for...of)',
  },
  {
    selector: 'ImportExpression',
    message: 'dynamic import() escapes the layer boundaries and is asynchronous: import statically',
  },
];

/** @type {Array<{ selector: string, message: string }>} */
const SYNC_SYNTAX = [
  { selector: ':function[async=true]', message: `${SYNC_MSG}: no async functions in account/orders/matching` },
  { selector: 'AwaitExpression', message: `${SYNC_MSG}: no await in account/orders/matching` },
  { selector: 'ForOfStatement[await=true]', message: `${SYNC_MSG}: no for await in account/orders/matching` },
  { selector: "NewExpression[callee.name='Promise']", message: `${SYNC_MSG}: no Promises in account/orders/matching` },
  { selector: "MemberExpression[object.name='Promise']", message: `${SYNC_MSG}: no Promises in account/orders/matching` },
];

const RXJS_TIME = [
  'delay',
  'debounceTime',
  'throttleTime',
  'auditTime',
  'sampleTime',
  'timer',
  'interval',
  'timeout',
  'timeoutWith',
  'bufferTime',
  'windowTime',
  'timeInterval',
  'timestamp',
  'animationFrames',
  'asyncScheduler',
  'asapScheduler',
  'animationFrameScheduler',
  'queueScheduler',
  'async',
  'asap',
  'queue',
  'animationFrame',
];

/** @param {string} name */
const withNode = (name) => [name, `node:${name}`];

const TIME_PATHS = [
  ...['rxjs', 'rxjs/operators'].map((name) => ({
    name,
    importNames: RXJS_TIME,
    message: `RxJS time operators and schedulers read the wall clock: ${CLOCK}`,
  })),
  ...['timers', 'timers/promises'].flatMap(withNode).map((name) => ({ name, message: `${name}: ${TIMER}` })),
  ...withNode('perf_hooks').map((name) => ({ name, message: `${name}: ${CLOCK}` })),
  ...withNode('crypto').map((name) => ({
    name,
    importNames: ['randomUUID', 'randomBytes', 'randomInt', 'randomFill', 'randomFillSync', 'getRandomValues'],
    message: `${RANDOM} (hashing with createHash is fine)`,
  })),
];

const NET_MODULES = ['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'child_process', 'cluster', 'worker_threads', 'os'];
const FILE_MODULES = ['fs', 'fs/promises', 'zlib', 'path', 'readline'];

/** @param {string[]} modules */
const ioPaths = (modules) =>
  modules.flatMap(withNode).map((name) => ({
    name,
    message: `the core does no I/O (${name}${
      FILE_MODULES.includes(name.replace(/^node:/, '')) ? '; only src/engine/feeds and src/journal touch files' : ''
    }): I/O belongs to the shell`,
  }));

const PROCESS_PATHS = withNode('process').map((name) => ({
  name,
  importNames: ['argv', 'env', 'exit', 'exitCode'],
  message: 'argv, env and exit codes belong to src/cli: pass configuration in',
}));

/** @type {Array<{ object: string, property: string, message: string }>} */
const PROCESS_PROPERTIES = ['argv', 'env', 'exit', 'exitCode'].map((property) => ({
  object: 'process',
  property,
  message: `process.${property} belongs to src/cli only: pass configuration in`,
}));

/** Packages the core never imports (tests included). Which of our folders it imports: .dependency-cruiser.cjs. */
const CORE_PACKAGE_PATTERNS = [
  { regex: '^(?:fastify|@fastify/|fastify-)', message: 'the core has no Fastify: HTTP belongs to src/api' },
  {
    regex: '^rxjs/(?:internal|ajax|fetch|webSocket)(?:/|$)',
    message: 'the core uses the public rxjs entry points and does no I/O through RxJS',
  },
].map((pattern) => ({ ...pattern, caseSensitive: true }));

/**
 * One zone: the restricted-* rules for a set of files that no other zone covers.
 * @param {{ name: string, files: string[], ignores?: string[], paths?: object[], patterns?: object[],
 *   properties?: object[], globals?: object[], syntax?: object[] }} zone
 * @returns {import('eslint').Linter.Config}
 */
function zone({ name, files, ignores = [], paths = [], patterns = [], properties = [], globals = [], syntax = [] }) {
  return {
    name: `v20sim/zone/${name}`,
    files,
    ignores,
    rules: {
      'no-restricted-imports': paths.length + patterns.length ? ['error', { paths, patterns }] : 'off',
      'no-restricted-properties': properties.length ? ['error', ...properties] : 'off',
      'no-restricted-globals': globals.length ? ['error', ...globals] : 'off',
      'no-restricted-syntax': syntax.length ? ['error', ...syntax] : 'off',
    },
  };
}

const CORE_SOURCE = { properties: [...CORE_PROPERTIES, ...PROCESS_PROPERTIES], globals: CORE_GLOBALS };

const ZONES = [
  zone({
    name: 'core-sync',
    files: tsUnder(coreDirs(SYNC)),
    ignores: TESTS,
    paths: [...TIME_PATHS, ...ioPaths([...NET_MODULES, ...FILE_MODULES]), ...PROCESS_PATHS],
    patterns: CORE_PACKAGE_PATTERNS,
    ...CORE_SOURCE,
    syntax: [...CORE_SYNTAX, ...SYNC_SYNTAX],
  }),
  zone({
    name: 'core',
    files: tsUnder(coreDirs(['domain', 'engine'])),
    ignores: [...TESTS, ...tsUnder(FILE_IO)],
    paths: [...TIME_PATHS, ...ioPaths([...NET_MODULES, ...FILE_MODULES]), ...PROCESS_PATHS],
    patterns: CORE_PACKAGE_PATTERNS,
    ...CORE_SOURCE,
    syntax: CORE_SYNTAX,
  }),
  zone({
    name: 'core-files',
    files: tsUnder(FILE_IO),
    ignores: TESTS,
    paths: [...TIME_PATHS, ...ioPaths(NET_MODULES), ...PROCESS_PATHS],
    patterns: CORE_PACKAGE_PATTERNS,
    ...CORE_SOURCE,
    syntax: CORE_SYNTAX,
  }),
  // Tests may use timers, the clock and fixture files; argv/env and the package bans still hold.
  zone({
    name: 'core-tests',
    files: TESTS.flatMap((test) => coreDirs(CORE).map((dir) => `${dir}/${test}`)),
    paths: PROCESS_PATHS,
    patterns: CORE_PACKAGE_PATTERNS,
    properties: PROCESS_PROPERTIES,
  }),
  zone({
    name: 'shell',
    files: [`src/**/*.${TS}`],
    ignores: [...coreDirs(CORE).map((dir) => `${dir}/**`), 'src/cli/**'],
    paths: PROCESS_PATHS,
    properties: PROCESS_PROPERTIES,
  }),
];

/**
 * Module-level mutable state in the core: a top-level `let` (exported or not) is shared by every
 * engine in the process, so two engines (or two tests) see each other's caches and switches.
 * Keep such state in a per-engine object.
 * @type {import('eslint').Rule.RuleModule}
 */
const noModuleLet = {
  meta: {
    type: 'problem',
    docs: { description: 'disallow top-level `let` (mutable module state)' },
    schema: [],
    messages: {
      moduleLet: 'top-level `let` is module state shared by every engine in the process: keep it in a per-engine object (or make it const)',
    },
  },
  create(context) {
    return {
      'Program > VariableDeclaration[kind="let"], Program > ExportNamedDeclaration > VariableDeclaration[kind="let"]'(node) {
        context.report({ node, messageId: 'moduleLet' });
      },
    };
  },
};

export default tseslint.config(
  {
    name: 'v20sim/ignores',
    ignores: ['**/node_modules/', 'dist/', 'coverage/', 'bench/.results/', 'out/', '.ci/out/', 'backtest-out/'],
  },
  { name: 'v20sim/linter-options', linterOptions: { reportUnusedDisableDirectives: 'error' } },
  ...tseslint.configs.recommended,
  {
    name: 'v20sim/general',
    plugins: { v20sim: { rules: { 'no-module-let': noModuleLet } } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    name: 'v20sim/type-aware',
    files: [`**/*.${TS}`],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    name: 'v20sim/size',
    files: [`src/**/*.${TS}`, `bench/**/*.${TS}`, `examples/**/*.${TS}`, 'bin/**/*.js'],
    ignores: [...TESTS, 'test/**'],
    rules: {
      'max-lines': ['warn', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  ...ZONES,
  {
    name: 'v20sim/core-module-state',
    files: tsUnder(coreDirs(CORE)),
    ignores: TESTS,
    rules: { 'v20sim/no-module-let': 'error' },
  },
);
