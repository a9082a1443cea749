// Jest runs the TypeScript sources as native ES modules (NestJS 12 ships ESM only),
// so it needs node --experimental-vm-modules (see the npm test script).
const esm = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^#(config|contract|core|database|http|jobs|sdk|mcp-tools)/(.*)\\.js$': '<rootDir>/libs/$1/src/$2',
    '^#(api|admin|worker|mcp)/(.*)\\.js$': '<rootDir>/apps/$1/src/$2',
    '^#extensions-api/(.*)\\.js$': '<rootDir>/libs/extensions/src/$1',
    '^#extensions/(.*)\\.js$': '<rootDir>/extensions/$1',
    // Relative imports name the compiled .js file; map them to the sources, except packages'
    // own `.json.js` modules (libphonenumber-js metadata).
    '^(\\.{1,2}/(?!.*\\.json\\.js$).*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  testEnvironment: 'node',
};

export default {
  rootDir: '.',
  testTimeout: 30000,
  // The suites share one test database, so they run one at a time (npm test: --maxWorkers=1), in
  // a worker process rather than in Jest's own: every suite's native ES modules stay in memory
  // after it ends, and run in band the whole suite outgrew Node's 4 GB heap. The worker is
  // replaced by a fresh one whenever it holds more than this after a suite.
  workerIdleMemoryLimit: '1536MB',
  projects: [
    // test/lint: the lint rules' own tests (no database).
    { ...esm, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,extensions}/**/*.spec.ts', '<rootDir>/test/lint/*.spec.ts'] },
    {
      ...esm,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/utils/migrate-once.ts'],
    },
    {
      ...esm,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/extensions/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/utils/migrate-once.ts'],
    },
    {
      // Issue 8: generated requests, access matrices, hostile bodies, outages, Prism, two processes.
      ...esm,
      displayName: 'robustness',
      testMatch: ['<rootDir>/test/robustness/**/*.robust-spec.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/utils/migrate-once.ts'],
    },
    {
      // Issue 26: one hostile business beside a victim, for each shared resource (docs/design-record.md#d24).
      ...esm,
      displayName: 'isolation',
      testMatch: ['<rootDir>/test/isolation/**/*.isolation-spec.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/utils/migrate-once.ts'],
    },
    {
      // Issue 34: many writers, duplicates in flight, a business at its full legal rate (docs/design-record.md#d27, #d28).
      ...esm,
      displayName: 'concurrency',
      testMatch: ['<rootDir>/test/concurrency/**/*.concurrency-spec.ts'],
      globalSetup: '<rootDir>/test/utils/global-setup.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/utils/migrate-once.ts'],
    },
    // The reference page in headless Chromium: only with TEST_BROWSER=1 (`npm run test:browser`),
    // so that `npm test` passes on a machine without Chromium.
    ...(process.env.TEST_BROWSER === '1'
      ? [
          {
            ...esm,
            displayName: 'browser',
            testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
            globalSetup: '<rootDir>/test/utils/global-setup.mjs',
            setupFilesAfterEnv: ['<rootDir>/test/utils/migrate-once.ts'],
          },
        ]
      : []),
  ],
};
