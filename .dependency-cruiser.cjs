// @ts-check
/**
 * The layers of src/ (ARCHITECTURE.md, "Layers"), checked on the resolved import graph:
 * type-only imports, re-exports and dynamic import() count like any other import.
 *
 *   core:  domain <- orders <- matching <- account <- engine, and domain <- journal <- engine
 *   v3:    the v3 operations every adapter shares; uses the core, never an adapter
 *   shell: api, backtest, scenario use the core and v3, and each other only through a folder's
 *          index.ts; workers (the worker pool) knows none of them; cli wires everything;
 *          queue (sweeps on Redis) runs backtest cells for cli only;
 *          src/index.ts is the library's entry point
 *
 * `npm run lint` runs this after ESLint (ESLint keeps the per-file bans: clock, randomness,
 * timers, I/O modules, Fastify in the core). A rule at severity "warn" is one the tree does
 * not satisfy yet; make it "error" once the warnings are gone.
 */

const CORE = ['domain', 'orders', 'matching', 'account', 'journal', 'engine'];

/** What each core folder may import besides itself (and packages). Dependencies point inward. */
const CORE_LAYERS = {
  domain: [],
  orders: ['domain'],
  matching: ['domain', 'orders'],
  account: ['domain', 'orders', 'matching'],
  journal: ['domain'],
  engine: ['domain', 'orders', 'matching', 'account', 'journal'],
};

const ADAPTERS = ['api', 'backtest', 'scenario'];

/** Every folder of src/. */
const KNOWN = [...CORE, 'v3', ...ADAPTERS, 'cli', 'workers', 'queue'];

/** `^src/(a|b)/` */
const under = (/** @type {string[]} */ folders) => `^src/(${folders.join('|')})/`;

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const coreRules = Object.entries(CORE_LAYERS).map(([layer, allowed]) => ({
  name: `core-${layer}`,
  comment: `dependencies point inward: src/${layer} may import ${
    allowed.length ? allowed.map((a) => `src/${a}`).join(', ') : 'nothing of ours outside itself'
  } (and packages)`,
  severity: 'error',
  from: {
    path: `^src/${layer}/`,
    // The account property test drives whole sessions through the engine and its journal and
    // compares with the naive reference model in test/; nothing else in the core may.
    ...(layer === 'account' ? { pathNot: '^src/account/account[.]prop[.]test[.]ts$' } : {}),
  },
  to: {
    dependencyTypesNot: ['core'],
    pathNot: [`^src/${layer}/`, ...allowed.map((a) => `^src/${a}/`), '(^|/)node_modules/'],
  },
}));

module.exports = {
  forbidden: [
    ...coreRules,
    {
      name: 'core-account-prop-test',
      comment:
        'the account property test may also use the engine, the journal and test/reference-account.ts; ' +
        'it is still a core file: no v3, no adapters, no cli',
      severity: 'error',
      from: { path: '^src/account/account[.]prop[.]test[.]ts$' },
      to: {
        dependencyTypesNot: ['core'],
        pathNot: [under(CORE), '^test/reference-account[.]ts$', '(^|/)node_modules/'],
      },
    },
    {
      name: 'v3-uses-core-only',
      comment: 'src/v3 sits between the engine and the adapters: it may import the core, never api, backtest, scenario or cli',
      severity: 'error',
      from: { path: '^src/v3/' },
      to: { path: ['^src/(api|backtest|scenario|cli)/', '^src/index[.]ts$'] },
    },
    {
      name: 'adapters-not-into-each-other',
      comment:
        "api, backtest and scenario do not reach into each other's internals: share through src/v3 or the " +
        "core, or import the other folder's index.ts; only src/cli wires adapters together",
      severity: 'error',
      from: { path: under(ADAPTERS) },
      to: {
        path: under(ADAPTERS),
        pathNot: ['^src/$1/', `${under(ADAPTERS)}index[.]ts$`],
      },
    },
    {
      name: 'workers-plumbing',
      comment: 'src/workers runs any module in a worker pool; it knows no adapter, v3 or cli module',
      severity: 'error',
      from: { path: '^src/workers/' },
      to: { path: ['^src/(api|backtest|scenario|v3|cli)/', '^src/index[.]ts$'] },
    },
    {
      name: 'queue-runs-backtests',
      comment:
        'src/queue (sweeps across machines on Redis) runs backtest cells through src/backtest/index.ts and the worker ' +
        'pool; it knows no other adapter, and only src/cli imports it',
      severity: 'error',
      from: { path: '^src/queue/' },
      to: { path: ['^src/(api|scenario|cli)/', '^src/backtest/(?!index[.]ts$)', '^src/index[.]ts$'] },
    },
    {
      name: 'only-cli-into-queue',
      comment: 'the queue loads BullMQ; only src/cli imports it, and only when a command asks for the queue',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/queue/'] },
      to: { path: '^src/queue/' },
    },
    {
      name: 'known-folders',
      comment: `every folder of src/ has a place in the layers above (${KNOWN.join(', ')}): add a new one here first`,
      severity: 'error',
      from: { path: `^src/(?!(${KNOWN.join('|')})/)[^/]+/` },
      to: {},
    },
    {
      name: 'adapters-not-cli',
      comment: 'only src/cli handles argv, env, exit codes and listen(); nothing imports it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'not-the-library-entry',
      comment: 'src/index.ts is the public entry point for library users; modules import what they need directly',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/index[.]ts$' },
    },
    {
      name: 'src-not-test-or-bench',
      comment: 'src/ is the published package: it does not import test/, bench/ or examples/ (account.prop.test.ts excepted above)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/account/account[.]prop[.]test[.]ts$' },
      to: { path: '^(test|bench|examples)/' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle anywhere in src/ (type-only imports included): a cycle makes load order and layers meaningless',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that does not resolve is a typo or a missing dependency',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^dist/', '(^|/)node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
