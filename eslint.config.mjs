// Lint: type-aware TypeScript rules, the layering of docs/architecture.md §3 and §5 as import
// boundaries, and no import cycles (types included). Run by `make test` before any test tier.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

/** Files of a server feature that are neither its edge (routes, handlers) nor its assembly. */
// session-cookie.ts builds the Set-Cookie headers the accounts and OAuth routes answer with.
const FEATURE_EDGES = ['server/src/features/*/*-routes.ts', 'server/src/features/*/*-handlers.ts', 'server/src/features/accounts/session-cookie.ts'];
// The assembly and the modules every feature shares (types, domain errors, their edges, request fields).
const FEATURE_ASSEMBLY = ['server/src/features/*.ts', 'server/src/features/*/index.ts'];
const REPOSITORIES = ['server/src/features/*/*-repository.ts'];

/** The client's features, a folder each under client/src/features. */
const CLIENT_FEATURES = fs
  .readdirSync(path.join(import.meta.dirname, 'client/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The client's layers, bottom up: i18n/; sw/, services/, components/, kernel/ (and the stylesheets
 * of styles/); features/; app/, the composition root, which only main.tsx imports (and tests, for
 * its test support). Each layer imports only itself and those below it; a feature imports another
 * only through that feature's index.ts.
 */
function clientLayerZones({ tests }) {
  const app = tests ? ['./app'] : [];
  const only = (...allowed) => ({ from: './client/src', except: [...allowed, ...app] });
  const featureZone = (name) => ({
    target: `./client/src/features/${name}`,
    from: './client/src/features',
    except: [`./${name}`, ...CLIENT_FEATURES.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
    message: "A feature uses another only through that feature's index.ts (its actions, selectors and components for others).",
  });
  return [
    { target: './client/src', from: ['./server', './protocol-harness', './bench'], message: 'The client shares code with the server only through common/.' },
    { target: './client/src/i18n', ...only('./i18n'), message: 'i18n/ is the bottom layer: it imports nothing of the client.' },
    { target: './client/src/sw', ...only('./sw', './i18n'), message: 'The service worker is built on its own (/sw.js): of the client it imports only i18n/.' },
    { target: './client/src/services', ...only('./services', './sw', './i18n'), message: 'services/ wrap the browser and the server: they import no component, kernel, feature or app code.' },
    { target: './client/src/components', ...only('./components', './i18n', './styles'), message: 'components/ are generic: they import no service, kernel, feature or app code.' },
    { target: './client/src/kernel', ...only('./kernel', './services', './components', './sw', './i18n', './styles'), message: 'kernel/ is below the features: it imports no feature and no app code.' },
    { target: './client/src/features', ...only('./features', './kernel', './services', './components', './sw', './i18n', './styles'), message: 'Features use the layers below them; app/ composes them and only main.tsx imports it.' },
    ...CLIENT_FEATURES.map(featureZone),
    { target: './client/src/app', from: './client/src/main.tsx', message: 'main.tsx is the entry point: nothing imports it.' },
  ];
}

const knexOnlyInRepositories = { name: 'knex', message: 'Only repositories (*-repository.ts) and server/src/db use knex.' };
const ioredisOnlyInCluster = {
  name: 'ioredis',
  message: 'Only server/src/cluster talks to Redis: features get interfaces (ClusterDeps in features/types.ts), the Redis implementations live in cluster/.',
};
const serverModules = { paths: [knexOnlyInRepositories, ioredisOnlyInCluster] };
// `any` may not spread in product code: a value typed `any` by a library (knex rows, JSON, uWS)
// is typed where it enters, saga results by typed-redux-saga's effects used with yield*. Tests
// read fixtures and answers loosely and then assert, so they may.
const UNSAFE_ANY_OFF = {
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
};
const noDatabaseModule = { group: ['**/db/knex'], message: 'Only repositories (*-repository.ts) and the composition root use the database module.' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'var/**', 'bench/results/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Without these the import rules never open a .ts file, and no-cycle silently finds nothing.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'client/tsconfig.json', 'protocol-harness/tsconfig.json', 'bench/tsconfig.json', 'client/test/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      // No import cycles, type-only imports included: a cycle of types is still a tangle.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Sagas and uWS callbacks return nothing; a floating promise must be marked with `void`.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // redux-saga's call([object, object.method]) binds the method; the rule cannot see that,
      // and React props pass plain functions.
      '@typescript-eslint/unbound-method': 'off',
      // Event handlers in React and callbacks given to libraries may be async on purpose.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Generators of redux-saga may legitimately contain no yield in a branch.
      'require-yield': 'off',
    },
  },

  // ---- The wire contract imports nothing of its users ----
  {
    files: ['common/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', {
        zones: [{ target: './common', from: ['./client', './server', './protocol-harness', './bench'], message: 'common/ is the contract: it imports nothing of client, server, harness or bench.' }],
      }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'uWebSockets.js', 'react', 'react-dom'], message: 'common/ runs in the browser and in Node: no platform modules.' }] }],
    },
  },

  // ---- The harness is a client: it talks to the server only over the wire ----
  {
    files: ['protocol-harness/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', {
        // Its tests start a real server in-process; the harness itself never imports one.
        zones: [{ target: './protocol-harness/src', from: ['./server', './client'], message: 'The harness drives a server over HTTP and STOMP only; share code through common/.' }],
      }],
    },
  },

  // ---- Server layers: transport ← stomp ← router ← handlers/routes ← services ← repositories ----
  {
    files: ['server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', serverModules],
      'import-x/no-restricted-paths': ['error', {
        zones: [
          { target: './server/src/transport', from: ['./server/src/features', './server/src/db', './server/src/cli', './server/src/main.ts'], message: 'transport/ owns bytes and sockets; it knows no feature or database.' },
          { target: './server/src/stomp', from: ['./server/src/features', './server/src/db', './server/src/cli', './server/src/main.ts', './server/src/transport'], message: 'stomp/ is frames, sessions and fan-out; features plug in through stomp/api.ts.' },
          // The Redis call store implements the calls feature's CallStore: that interface is the one way in.
          { target: './server/src/cluster', from: './server/src/features', except: ['./calls/call-store.ts', './group-calls/group-call-store.ts'], message: 'cluster/ implements interfaces features define (calls/call-store.ts, group-calls/group-call-store.ts) and knows no other feature code.' },
          { target: './server/src/cluster', from: ['./server/src/db', './server/src/cli', './server/src/main.ts', './server/src/transport'], message: 'cluster/ joins nodes: no database, no HTTP, no composition root.' },
          { target: './server/src/observability', from: ['./server/src/features', './server/src/cli', './server/src/main.ts'], message: 'observability/ reads the server from outside: no feature, no composition root.' },
          // The outbound-request guard sits below the features (they import it) and knows none of them.
          { target: './server/src/outbound', from: ['./server/src/features', './server/src/db', './server/src/transport', './server/src/stomp', './server/src/cluster', './server/src/cli', './server/src/main.ts'], message: 'outbound/ is the guard features send through: it imports no feature, database, transport, STOMP or cluster code.' },
          // Janus' API client and the embedded Janus sit below the features (group calls use them) and know none of them.
          { target: './server/src/media', from: ['./server/src/features', './server/src/db', './server/src/transport', './server/src/stomp', './server/src/cluster', './server/src/cli', './server/src/main.ts'], message: 'media/ drives the media servers: it imports no feature, database, transport, STOMP or cluster code.' },
          { target: './server/src', from: ['./client', './bench', './server/test'], message: 'The product imports no client, bench or test code.' },
        ],
      }],
    },
  },
  {
    files: [...REPOSITORIES, 'server/src/db/**/*.ts', 'server/src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ioredisOnlyInCluster] }] },
  },
  {
    files: ['server/src/cluster/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [knexOnlyInRepositories] }] },
  },
  {
    // Routes and STOMP handlers decode, call one service and reply: never a repository.
    files: FEATURE_EDGES,
    rules: {
      'no-restricted-imports': ['error', {
        ...serverModules,
        patterns: [noDatabaseModule, { group: ['./*-repository', '../*/*-repository'], allowTypeImports: true, message: 'Routes and handlers call services; only services use repositories.' }],
      }],
    },
  },
  {
    // Services (every other file of a feature) hold the rules: no HTTP, no STOMP machinery, no
    // edges of their own feature.
    files: ['server/src/features/**/*.ts'],
    ignores: [...FEATURE_EDGES, ...FEATURE_ASSEMBLY, ...REPOSITORIES],
    rules: {
      'no-restricted-imports': ['error', {
        ...serverModules,
        patterns: [
          noDatabaseModule,
          // Types only: the accounts sessions are the transport's SessionAuthenticator.
          { group: ['**/transport/*'], allowTypeImports: true, message: 'Services throw domain errors (features/errors.ts) and know no HTTP.' },
          { group: ['**/stomp/*', '!**/stomp/api'], message: 'Services reach STOMP only through the Publisher of stomp/api.ts.' },
          { group: ['./*-routes', './*-handlers'], message: 'Services do not import their edges.' },
        ],
      }],
    },
  },


  // ---- Client layers and conventions (docs/architecture.md §5) ----
  {
    files: ['client/src/**/*.ts', 'client/src/**/*.tsx'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: clientLayerZones({ tests: false }) }],
      // webpack.config.ts marks the client's modules free of side effects (a feature's index.ts then
      // costs an importer only what it uses): a module imported for its effect alone would be dropped.
      'import-x/no-unassigned-import': ['error', { allow: ['**/*.css'] }],
    },
  },
  {
    files: ['client/src/**/*.test.ts', 'client/src/**/*.test.tsx', 'client/src/**/*.test-support.ts', 'client/src/**/*.test-support.tsx'],
    rules: {
      // Tests may use app/: its store, its fakes and its test support.
      'import-x/no-restricted-paths': ['error', { zones: clientLayerZones({ tests: true }) }],
      'import-x/no-unassigned-import': 'off',
    },
  },
  {
    files: ['client/src/**/*.ts', 'client/src/**/*.tsx'],
    ignores: ['client/src/services/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: '@stomp/stompjs', message: 'Only client/src/services talks STOMP; sagas get the service from their context.' }],
      }],
    },
  },
  {
    files: ['client/src/**/*.tsx', 'client/src/features/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: '@stomp/stompjs', message: 'Only client/src/services talks STOMP; sagas get the service from their context.' },
          { name: 'react-redux', importNames: ['useDispatch', 'useSelector'], message: 'Use the typed hooks of client/src/kernel/hooks.ts.' },
        ],
      }],
    },
  },

  // ---- Tests may reach into what they test ----
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts', '**/*.test-support.ts', '**/*.test-support.tsx'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      // chai's `expect(x).to.be.true` is an expression statement by design.
      '@typescript-eslint/no-unused-expressions': 'off',
      // Test labels stringify whatever value a table row holds.
      '@typescript-eslint/no-base-to-string': 'off',
      // JSON answers of the server under test are read loosely, then asserted; DOM queries are
      // cast to the element the test knows it found.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      ...UNSAFE_ANY_OFF,
      'no-restricted-imports': 'off',
    },
  },
);
