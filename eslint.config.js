// ESLint (flat config): `npm run lint` runs it with Prettier's check and the folder-cycle check
// (scripts/lint/folderCycles.ts). typescript-eslint needs TypeScript's JS API, which TypeScript 7
// does not ship: package.json installs 7 as `@typescript/native` (it owns `tsc`) and the 6.x API as
// `typescript` (`@typescript/typescript6`), which is what typescript-eslint loads.
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import prettier from 'eslint-config-prettier';

const root = import.meta.dirname;

// The layers point inward: domain <- application <- (infrastructure, projections, http), and the
// composition roots (src/composition/, src/*.ts) put them together. Each layer may import files
// only from the folders named here; `except` is relative to `from` (the whole repository), and
// node_modules is excepted because packages are governed by `restrictedPackages` below.
const layers = {
  domain: ['src/domain'],
  application: ['src/domain', 'src/application'],
  projections: ['src/domain', 'src/application', 'src/projections'],
  infrastructure: ['src/domain', 'src/application', 'src/infrastructure'],
  http: ['src/domain', 'src/application', 'src/http'],
};
const layerRule = (layer) => ({
  target: `./src/${layer}`,
  from: './',
  except: [...layers[layer].map((folder) => `./${folder}`), './node_modules'],
  message: `src/${layer} may import only ${layers[layer].join(', ')} (layers point inward: domain <- application <- infrastructure, projections, http).`,
});

// Frameworks and I/O drivers stay at the edges; the application owns ports and the adapters
// implementing them bring the drivers.
const drivers = ['pg', 'mongodb', 'agenda', '@agendajs/*', '@eventstore/*', '@aws-sdk/*'];
const edgeLibraries = [
  ...drivers,
  'express',
  'libxmljs',
  'io-ts',
  'multer',
  'pdfmake',
  'pdfjs-dist',
  'pdf-lib',
  'nodemailer',
  'xml-crypto',
  'prom-client',
];
/** A package name and its subpaths (`io-ts` and `io-ts/PathReporter`). */
const withSubpaths = (names) => names.flatMap((name) => (name.endsWith('/*') ? [name] : [name, `${name}/*`]));
const restrictedPackages = (names, message) => ['error', { patterns: [{ group: withSubpaths(names), message }] }];
// The restricted-imports rules see static imports only; these layers name packages statically
// so that the rules see every one (a dynamic import of a relative path stays allowed).
const noDynamicPackageImport = {
  selector: "ImportExpression:not([source.type='Literal'][source.value=/^[.]/])",
  message: 'Import packages statically in this layer, so that the boundary rules see them.',
};

export default defineConfig(
  {
    // test/openapi-client is compiled by its test, against types generated at run time.
    ignores: [
      'dist/',
      'build/',
      'test-output/',
      'node_modules/',
      'coverage/',
      'reports/',
      '.stryker-tmp/',
      'var/',
      '.ci/bin/',
      'test/openapi-client/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      // Type-checked files need none (tsc knows Node's types); the .js/.mjs configs and scripts do.
      globals: globals.node,
    },
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads the files an import leads to (no-cycle walks them) only with these: by
      // default it parses .js alone, and a cycle through .ts files would go unseen.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // `./x.js` names `./x.ts` under nodenext: TypeScript's resolution, with our tsconfig.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      // Unused names are errors, except the ones that say on purpose that they are unused.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Input hygiene (inputText, the XML tree, PDF text, blob names) matches control characters
      // on purpose: that is what those expressions are for.
      'no-control-regex': 'off',
    },
  },
  {
    // A few rules that need the types, chosen for what they catch here: a promise nobody awaits
    // (a lost error, a test that passes before its assertion runs), a promise where a callback
    // must return nothing, and a switch over a union that misses a member. They cost about five
    // seconds; the rest of recommendedTypeChecked would flag some 1,300 places, mostly `any`
    // from JSON and supertest bodies in tests, for little gain.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // chai's property assertions (`expect(x).to.be.empty`) are expressions by design.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // The web console (web/console, its own tsconfig): browser code, outside the layers of src/.
    // Async event handlers are React's ordinary way (their errors are caught inside them).
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  {
    // The benchmarks read the service's JSON answers loosely; src and test keep the rule.
    files: ['scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Cycles between files of src (type-only imports excepted: they vanish at run time; the
    // folder-cycle check counts them).
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [layerRule('domain')] }],
      // The domain is plain TypeScript: of packages only decimal.js (money), and no node:* module.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?![.]{1,2}/)(?!decimal[.]js$)',
              message: 'src/domain imports no framework and no I/O: of packages only decimal.js, and no node:* module.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', noDynamicPackageImport],
    },
  },
  {
    files: ['src/application/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [layerRule('application')] }],
      '@typescript-eslint/no-restricted-imports': restrictedPackages(
        edgeLibraries,
        'src/application uses ports: drivers, frameworks, parsers and renderers live in infrastructure or http.',
      ),
      'no-restricted-syntax': ['error', noDynamicPackageImport],
    },
  },
  {
    files: ['src/projections/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [layerRule('projections')] }],
    },
  },
  {
    files: ['src/infrastructure/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [layerRule('infrastructure')] }],
    },
  },
  {
    files: ['src/http/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [layerRule('http')] }],
      '@typescript-eslint/no-restricted-imports': restrictedPackages(
        drivers,
        'src/http talks to application handlers and queries, not to storage drivers.',
      ),
      'no-restricted-syntax': ['error', noDynamicPackageImport],
    },
  },
  // Last: turns off the rules that would fight Prettier's formatting.
  prettier,
);
