// ESLint flat config (STYLE.md rule 12): strict type-aware lint, exhaustive switches, no deep
// relative imports across libs, and imports that go one way only: apps → extensions → libs.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const TS_FILES = ['**/*.ts', '**/*.mts', '**/*.cts'];
const JS_FILES = ['**/*.js', '**/*.mjs', '**/*.cjs'];
const CJS_FILES = ['**/*.cjs'];
const TEST_FILES = ['test/**/*.ts', '**/*.spec.ts', 'extensions/**/*.e2e-spec.ts'];

// --- Import boundaries --------------------------------------------------------------------
// Inside one app or lib, code imports its own files by relative path; anything in another lib
// goes through that lib's alias (`#core/...`, `#database/...`, see "imports" in package.json),
// which is also what the compiled code resolves at run time. So a relative import must never
// climb out of the `src/` folder it starts in (`../../../database/src/x.js` from
// libs/core/src/feature/ is wrong). How many `../` that takes depends on how deep the importing
// file sits, so the rule is generated once per depth: a file N folders below `src/` may use at
// most N `../`. Test files under test/ are held to the same limit relative to test/.
const MAX_DEPTH = 8;

/** Matches a relative specifier that climbs more than `allowed` levels (`../`, `..`). */
const climbsMoreThan = (allowed) => `^(\\.\\.(/|$)){${allowed + 1},}`;

// The libs are the bottom layer: no lib depends on an app (`#api/*`, `#worker/*`, `#admin/*`,
// `#mcp/*`, a path through `apps/`), on the extension registry or on an extension (`#extensions/*`,
// a path through `extensions/`). The apps hand the enabled extensions to the libs at start
// (extensions/index.ts, enableExtensions). No file is excepted.
const LIB_MUST_NOT_IMPORT_UPWARD = [
  {
    regex: '^#(api|worker|admin|mcp)/',
    message: 'Libraries must not import an app; move the shared code into a lib.',
  },
  {
    regex: '(^|/)apps(/|$)',
    message: 'Libraries must not import an app; move the shared code into a lib.',
  },
  {
    regex: '^#extensions/',
    message: 'Libraries must not import the extension registry or an extension; the apps hand the enabled extensions to the libs at start.',
  },
  {
    regex: '(^|/)extensions(/|$)',
    message: 'Libraries must not import the extension registry or an extension; the apps hand the enabled extensions to the libs at start.',
  },
];

// The libs have layers of their own (docs/design-record.md#layout): the route layer (`libs/http`)
// and the queue engine (`libs/jobs`) build on the rules and the documents (`libs/core`,
// `libs/contract`, `libs/database`, `libs/config`), which never import them back; the public
// extension API (`libs/extensions`) sits on top and re-exports the route layer, never the reverse.
const upperLibs = (names, message) => ({ regex: `^#(${names.join('|')})/`, message });
const LIB_BELOW_HTTP_AND_JOBS = [
  ...LIB_MUST_NOT_IMPORT_UPWARD,
  upperLibs(
    ['http', 'jobs', 'extensions-api'],
    'The rules and the documents (libs/core, libs/contract, libs/database, libs/config, libs/sdk, libs/mcp-tools) must not import the route layer, the queue engine or the extension API; they build on these libs.',
  ),
];
const LIB_HTTP = [
  ...LIB_MUST_NOT_IMPORT_UPWARD,
  upperLibs(
    ['jobs', 'extensions-api'],
    'The route layer (libs/http) must not import the queue engine or the extension API, which re-exports it.',
  ),
];
const LIB_JOBS = [
  ...LIB_MUST_NOT_IMPORT_UPWARD,
  upperLibs(['http', 'extensions-api'], 'The queue engine (libs/jobs) must not import the route layer or the extension API.'),
];

// No app imports another (or itself through an alias): the worker, the API and the admin command
// line share code through the libs only (the jobs through libs/jobs). test/ and bench/ may import apps.
const APP_MUST_NOT_IMPORT_APPS = [
  {
    regex: '^#(api|worker|admin|mcp)/',
    message: 'An app must not import an app; import its own files by relative path, and move shared code into a lib.',
  },
  {
    regex: '(^|/)apps(/|$)',
    message: 'An app must not import an app; import its own files by relative path, and move shared code into a lib.',
  },
];

// An extension (extensions/<name>/, docs/extending.md) builds on the libs (#core, #database,
// #contract, #jobs, #config, #http) and the public extension API (#extensions-api, a lib); never on an
// app, the registry or another extension, so that removing its registry line removes it entirely.
const EXTENSION_MUST_STAY_OUTSIDE_APPS = [
  {
    regex: '^#(api|worker|admin|mcp)/',
    message: 'An extension must not import an app; use the public extension API (#extensions-api/...).',
  },
  {
    regex: '(^|/)apps(/|$)',
    message: 'An extension must not import an app; use the public extension API (#extensions-api/...).',
  },
  {
    regex: '^#extensions/',
    message: 'An extension must not import the registry or another extension.',
  },
];

/**
 * One config block per folder depth for the files of `root` (`libs/*\/src`, `apps/*\/src`, `test`).
 * The blocks' `files` globs are disjoint, so each file gets exactly one `no-restricted-imports`
 * setting (a later block would otherwise replace, not merge, an earlier one's options).
 */
function importBoundaries(root, where, extraPatterns = []) {
  const blocks = [];
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const last = depth === MAX_DEPTH;
    const dirs = '*/'.repeat(depth) + (last ? '**/' : '');
    blocks.push({
      name: `project/import-boundaries/${root}/depth-${depth}${last ? '+' : ''}`,
      files: [`${root}/${dirs}*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: climbsMoreThan(depth),
                message: `Relative imports must stay inside ${where}; import another lib through its alias (#core/..., #database/..., see "imports" in package.json).`,
              },
              ...extraPatterns,
            ],
          },
        ],
      },
    });
  }
  return blocks;
}

// Node's globals for the untyped .mjs/.js files (config files, scripts). TypeScript files don't
// need this: the compiler reports undefined names and typescript-eslint turns no-undef off there.
// (The `globals` package would give the full list; it is not a dependency, and these suffice.)
const NODE_GLOBALS = Object.fromEntries(
  [
    'AbortController',
    'AbortSignal',
    'Buffer',
    'TextDecoder',
    'TextEncoder',
    'URL',
    'URLSearchParams',
    'clearImmediate',
    'clearInterval',
    'clearTimeout',
    'console',
    'fetch',
    'performance',
    'process',
    'queueMicrotask',
    'setImmediate',
    'setInterval',
    'setTimeout',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  globalIgnores([
    '**/dist/',
    '**/node_modules/',
    '**/coverage/',
    '.data/',
    'bench/results/',
    'test/artifacts/',
    // Generated from openapi/v1.5.0.yaml by `npm run contract:generate`; never edited by hand.
    'libs/contract/src/generated/**',
    'libs/sdk/src/generated/**',
    'extensions/*/generated/**',
  ]),

  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,

  {
    name: 'project/typescript',
    files: TS_FILES,
    languageOptions: {
      parserOptions: {
        // Type information from the tsconfig.json that includes each file.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch over a union (error codes, statuses, enums) must name every member; a `default`
      // does not count, so adding a member to the contract breaks the build where it matters.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }],
      // OFF on purpose: Nest's dependency injection reads constructor parameter types from the
      // metadata that `emitDecoratorMetadata` emits. `import type { FooService }` is erased, so
      // the metadata becomes `Object` and Nest can no longer resolve the dependency. Injected
      // classes must be imported as values even when only used as types.
      '@typescript-eslint/consistent-type-imports': 'off',
      // `_`-prefixed names are deliberately unused (interface-mandated parameters, rest omits).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },

  ...importBoundaries('libs/{config,contract,core,database,sdk,mcp-tools}/src', 'its lib', LIB_BELOW_HTTP_AND_JOBS),
  ...importBoundaries('libs/http/src', 'its lib', LIB_HTTP),
  ...importBoundaries('libs/jobs/src', 'its lib', LIB_JOBS),
  ...importBoundaries('libs/extensions/src', 'its lib', LIB_MUST_NOT_IMPORT_UPWARD),
  ...importBoundaries('apps/*/src', 'its app', APP_MUST_NOT_IMPORT_APPS),
  ...importBoundaries('test', 'test/'),
  ...importBoundaries('extensions/*', 'its extension folder', EXTENSION_MUST_STAY_OUTSIDE_APPS),
  {
    // The registry is the extensions' layer too: it imports the extensions and the libs, never an app.
    name: 'project/import-boundaries/extension-registry',
    files: ['extensions/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: EXTENSION_MUST_STAY_OUTSIDE_APPS.filter(({ regex }) => regex !== '^#extensions/').map((pattern) => ({
            ...pattern,
            message: 'The extension registry must not import an app; the apps import it.',
          })),
        },
      ],
    },
  },
  {
    // An extension's e2e tests run through the repository's test harness (test/utils), as the
    // core's do; they still import no app directly.
    name: 'project/import-boundaries/extension-e2e-tests',
    files: ['extensions/**/*.e2e-spec.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: EXTENSION_MUST_STAY_OUTSIDE_APPS }] },
  },

  {
    name: 'project/tests',
    files: TEST_FILES,
    rules: {
      // Relaxed in tests only: supertest's `response.body` (and jest's asymmetric matchers such
      // as `expect.any()`) are typed `any`, so reading a response would need a cast on every
      // line. Tests check those values at run time anyway; production code stays strict.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  {
    // Config files and scripts in plain JavaScript are linted without type information (they
    // are not part of any tsconfig project), so the type-checked rules are turned off for them.
    name: 'project/javascript',
    files: JS_FILES,
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'module',
      globals: NODE_GLOBALS,
    },
  },
  {
    name: 'project/commonjs',
    files: CJS_FILES,
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly', __filename: 'readonly' },
    },
  },
);
