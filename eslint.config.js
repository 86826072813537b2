// @ts-check
/**
 * Lint = the enforcement of /work/shared/DESIGN.md: the deterministic core reads no clock, no
 * randomness, no locale, schedules nothing, does no I/O, and its dependencies point inward.
 *
 * Rule options do not merge across flat-config objects (a later object replaces an earlier
 * object's options for the same rule), so the restricted-* rules are generated once per zone
 * (folder x nesting depth x test-or-not) into objects whose `files` never overlap.
 *
 * Escape hatch for a single line: `// eslint-disable-next-line <rule> -- <why this is safe>`.
 */
import tseslint from 'typescript-eslint';

const TS = '{ts,mts,cts}';

/** Layers of the core and what each may import (besides itself). Dependencies point inward. */
const CORE_LAYERS = {
  domain: [],
  orders: ['domain'],
  matching: ['domain', 'orders'],
  account: ['domain', 'orders', 'matching'],
  journal: ['domain'],
  engine: ['domain', 'orders', 'matching', 'account', 'journal'],
};
/** decide/evolve and the order machines run synchronously, one message at a time. */
const SYNC_LAYERS = new Set(['orders', 'matching', 'account']);
/** The shell around the core; the core never imports it. */
const SHELL = ['api', 'cli', 'scenario', 'backtest'];
/** Nesting below a layer folder that the boundary rules cover (src/engine/a/b/c/d/e/x.ts = 5). */
const MAX_DEPTH = 6;

// ---------------------------------------------------------------------------------------------
// Determinism bans (core, non-test files)

const CLOCK = 'the core reads no clock: pass time in (Micros argument, simulated clock)';
const RANDOM = 'the core has no randomness outside the seeded generator: pass the generator in';
const TIMER = 'the core schedules nothing on the wall clock: use the simulated clock\'s deadline queue';
const LOCALE = 'locale formatting depends on the host: format explicitly (decimal.ts, price.ts, time.ts)';
const HOST_TZ = 'local-time Date methods depend on the host TZ: use the getUTC*/setUTC* forms or Date.UTC';
const GC = 'garbage-collection timing is not deterministic';

/** @type {Array<{ object?: string, property: string, message: string }>} */
const CORE_PROPERTIES = [
  { object: 'Date', property: 'now', message: `Date.now: ${CLOCK}` },
  { object: 'Date', property: 'parse', message: `Date.parse reads strings without an offset as host-local time: use parseDateTime (domain/time.ts)` },
  { object: 'Math', property: 'random', message: `Math.random: ${RANDOM}` },
  { object: 'crypto', property: 'randomUUID', message: `crypto.randomUUID: ${RANDOM}; ids are account-local consecutive integers` },
  { object: 'crypto', property: 'getRandomValues', message: `crypto.getRandomValues: ${RANDOM}` },
  { object: 'process', property: 'hrtime', message: `process.hrtime: ${CLOCK}` },
  { object: 'process', property: 'uptime', message: `process.uptime: ${CLOCK}` },
  { object: 'process', property: 'nextTick', message: `process.nextTick: ${TIMER}` },
  ...['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'].map((property) => ({
    object: 'globalThis', property, message: `${property}: ${TIMER}`,
  })),
  ...['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'toLocaleUpperCase', 'toLocaleLowerCase', 'localeCompare'].map(
    (property) => ({ property, message: `${property}: ${LOCALE}${property === 'localeCompare' ? '; sort by code unit and a sequence number' : ''}` }),
  ),
  ...['getTimezoneOffset', 'getFullYear', 'getMonth', 'getDate', 'getDay', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds',
    'setFullYear', 'setMonth', 'setDate', 'setHours', 'setMinutes', 'setSeconds', 'setMilliseconds', 'toDateString', 'toTimeString',
  ].map((property) => ({ property, message: `${property}: ${HOST_TZ}` })),
];

/** @type {Array<{ name: string, message: string }>} */
const CORE_GLOBALS = [
  { name: 'performance', message: `performance: ${CLOCK}` },
  { name: 'setTimeout', message: `setTimeout: ${TIMER}` },
  { name: 'setInterval', message: `setInterval: ${TIMER}` },
  { name: 'setImmediate', message: `setImmediate: ${TIMER}` },
  { name: 'queueMicrotask', message: `queueMicrotask: ${TIMER}` },
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
  { selector: 'ForInStatement', message: 'for...in iterates inherited and key-order-dependent properties: iterate arrays and Maps (for...of)' },
  { selector: 'ImportExpression', message: 'dynamic import() escapes the layer boundaries and is asynchronous: import statically' },
];

/** @type {Array<{ selector: string, message: string }>} */
const SYNC_SYNTAX = [
  { selector: ':function[async=true]', message: 'decide/evolve and order machines are synchronous: no async functions in account/orders/matching' },
  { selector: 'AwaitExpression', message: 'decide/evolve and order machines are synchronous: no await in account/orders/matching' },
  { selector: 'ForOfStatement[await=true]', message: 'decide/evolve and order machines are synchronous: no for await in account/orders/matching' },
  { selector: "NewExpression[callee.name='Promise']", message: 'decide/evolve and order machines are synchronous: no Promises in account/orders/matching' },
  { selector: "MemberExpression[object.name='Promise']", message: 'decide/evolve and order machines are synchronous: no Promises in account/orders/matching' },
];

const RXJS_TIME = [
  'delay', 'debounceTime', 'throttleTime', 'auditTime', 'sampleTime', 'timer', 'interval', 'timeout', 'timeoutWith',
  'bufferTime', 'windowTime', 'timeInterval', 'timestamp', 'animationFrames',
  'asyncScheduler', 'asapScheduler', 'animationFrameScheduler', 'queueScheduler', 'async', 'asap', 'queue', 'animationFrame',
];

/** @param {string} name */
const withNode = (name) => [name, `node:${name}`];

/** Restricted import paths of the core (non-test files). */
function coreTimePaths() {
  return [
    ...['rxjs', 'rxjs/operators'].map((name) => ({
      name, importNames: RXJS_TIME,
      message: `RxJS time operators and schedulers read the wall clock: ${CLOCK}`,
    })),
    ...['timers', 'timers/promises'].flatMap(withNode).map((name) => ({ name, message: `${name}: ${TIMER}` })),
    ...withNode('perf_hooks').map((name) => ({ name, message: `${name}: ${CLOCK}` })),
    ...withNode('crypto').map((name) => ({
      name, importNames: ['randomUUID', 'randomBytes', 'randomInt', 'randomFill', 'randomFillSync', 'getRandomValues'],
      message: `${RANDOM} (hashing with createHash is fine)`,
    })),
  ];
}

/** @param {boolean} allowFs */
function coreIoPaths(allowFs) {
  const io = ['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'child_process', 'cluster', 'worker_threads', 'os'];
  const files = ['fs', 'fs/promises', 'zlib', 'path', 'readline'];
  return [
    ...(allowFs ? io : [...io, ...files]).flatMap(withNode).map((name) => ({
      name,
      message: `the core does no I/O (${name}${files.includes(name.replace(/^node:/, '')) ? '; only src/engine/feeds and src/journal touch files' : ''}): I/O belongs to the shell`,
    })),
  ];
}

function processImportPaths() {
  return withNode('process').map((name) => ({
    name, importNames: ['argv', 'env', 'exit', 'exitCode'],
    message: 'argv, env and exit codes belong to src/cli: pass configuration in',
  }));
}

/** @type {Array<{ object: string, property: string, message: string }>} */
const PROCESS_PROPERTIES = ['argv', 'env', 'exit', 'exitCode'].map((property) => ({
  object: 'process', property, message: `process.${property} belongs to src/cli only: pass configuration in`,
}));

const escapeRe = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A relative import from a file `depth` folders below `src/<layer>/` reaches `src/` after
 * depth + 1 `../`; the next segment is then the layer it imports.
 * @param {number} depth
 */
const upToSrc = (depth) => `^(?:\\./)?(?:\\.\\./){${depth + 1}}`;

/**
 * Boundary patterns for a file `depth` folders below src/<layer>/.
 * @param {string} layer
 * @param {readonly string[]} allowed
 * @param {number} depth
 */
function corePatterns(layer, allowed, depth) {
  const ok = [layer, ...allowed, ...SHELL].map(escapeRe).join('|');
  return [
    {
      regex: `${upToSrc(depth)}(?!(?:${ok})(?:/|$))`,
      caseSensitive: true,
      message: `dependencies point inward: src/${layer} may import only ${allowed.length ? allowed.map((a) => `src/${a}`).join(', ') : 'nothing of ours outside itself'}`,
    },
    {
      regex: `${upToSrc(depth)}(?:${SHELL.join('|')})(?:/|$)`,
      caseSensitive: true,
      message: `the core never imports the shell (${SHELL.map((s) => `src/${s}`).join(', ')}): pass what it needs in`,
    },
    {
      regex: '^(?:fastify|@fastify/|fastify-)',
      caseSensitive: true,
      message: 'the core has no Fastify: HTTP belongs to src/api',
    },
    {
      regex: '^rxjs/(?:internal|ajax|fetch|webSocket)(?:/|$)',
      caseSensitive: true,
      message: 'the core uses the public rxjs entry points and does no I/O through RxJS',
    },
  ];
}

/** @param {string} dir @param {number} depth @param {boolean} test */
function filesAt(dir, depth, test) {
  return [`${dir}/${'*/'.repeat(depth)}*.${test ? 'test.' : ''}${TS}`];
}

/**
 * @param {{ name: string, files: string[], ignores?: string[], imports: { paths: object[], patterns: object[] },
 *   properties?: object[], globals?: object[], syntax?: object[] }} zone
 */
function zoneConfig({ name, files, ignores = [], imports, properties = [], globals = [], syntax = [] }) {
  /** @type {import('eslint').Linter.RulesRecord} */
  const rules = {};
  rules['no-restricted-imports'] = imports.paths.length + imports.patterns.length ? ['error', imports] : 'off';
  rules['no-restricted-properties'] = properties.length ? ['error', ...properties] : 'off';
  rules['no-restricted-globals'] = globals.length ? ['error', ...globals] : 'off';
  rules['no-restricted-syntax'] = syntax.length ? ['error', ...syntax] : 'off';
  return { name, files, ignores, rules };
}

/** All zone objects of the core layers. */
function coreZones() {
  const zones = [];
  for (const [layer, allowed] of Object.entries(CORE_LAYERS)) {
    const subzones = layer === 'engine'
      ? [{ dir: 'src/engine', base: 0, allowFs: false, skip: ['src/engine/feeds/**'] }, { dir: 'src/engine/feeds', base: 1, allowFs: true, skip: [] }]
      : [{ dir: `src/${layer}`, base: 0, allowFs: layer === 'journal', skip: [] }];
    for (const { dir, base, allowFs, skip } of subzones) {
      for (let d = 0; d + base <= MAX_DEPTH; d += 1) {
        const depth = d + base;
        const patterns = corePatterns(layer, allowed, depth);
        for (const test of [false, true]) {
          zones.push(zoneConfig({
            name: `v20sim/core/${dir.slice(4)}/depth-${depth}${test ? '/test' : ''}`,
            files: filesAt(dir, d, test),
            ignores: test ? skip : [...skip, '**/*.test.*'],
            imports: {
              // Tests may use timers, the clock and fixture files; layer boundaries still hold.
              paths: [...(test ? [] : [...coreTimePaths(), ...coreIoPaths(allowFs)]), ...processImportPaths()],
              patterns,
            },
            properties: [...(test ? [] : CORE_PROPERTIES), ...PROCESS_PROPERTIES],
            globals: test ? [] : CORE_GLOBALS,
            syntax: test ? [] : [...CORE_SYNTAX, ...(SYNC_LAYERS.has(layer) ? SYNC_SYNTAX : [])],
          }));
        }
      }
    }
  }
  return zones;
}

/** The shell and anything else in src except src/cli: no argv/env/exit; api never imports cli. */
function shellZones() {
  const zones = [
    zoneConfig({
      name: 'v20sim/src-outside-core-and-cli',
      files: [`src/**/*.${TS}`],
      ignores: [...Object.keys(CORE_LAYERS).map((l) => `src/${l}/**`), 'src/cli/**', 'src/api/**'],
      imports: { paths: processImportPaths(), patterns: [] },
      properties: PROCESS_PROPERTIES,
    }),
  ];
  for (let depth = 0; depth <= MAX_DEPTH; depth += 1) {
    zones.push(zoneConfig({
      name: `v20sim/api/depth-${depth}`,
      files: filesAt('src/api', depth, false).concat(filesAt('src/api', depth, true)),
      imports: {
        paths: processImportPaths(),
        patterns: [{
          regex: `${upToSrc(depth)}cli(?:/|$)`,
          caseSensitive: true,
          message: 'src/api must not import src/cli: the CLI wires the API, not the other way round',
        }],
      },
      properties: PROCESS_PROPERTIES,
    }));
  }
  return zones;
}

export default tseslint.config(
  { name: 'v20sim/ignores', ignores: ['**/node_modules/', 'dist/', 'coverage/', 'bench/.results/', 'out/'] },
  { name: 'v20sim/linter-options', linterOptions: { reportUnusedDisableDirectives: 'error' } },
  ...tseslint.configs.recommended,
  {
    name: 'v20sim/general',
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrorsIgnorePattern: '^_',
        destructuredArrayIgnorePattern: '^_',
      }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  ...coreZones(),
  ...shellZones(),
);
