import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Imports form a graph without cycles, and lower layers of the API never import upper ones
// (docs/decisions/009). The code imports with explicit .ts extensions, so the node resolver suffices.
const api = 'apps/api/src';
const layerMessage = 'Layering (docs/decisions/009): db/schema, drivers and lib import no modules or jobs, http imports no modules, and only the entry points import app.ts.';

// The web's shape (docs/decisions/012): routes compose features, features use the shared folders, and no
// feature imports another. Every folder under features/ gets its own zone, so a new feature is covered.
const web = 'apps/web/src';
const webFeatures = readdirSync(new URL(`./${web}/features`, import.meta.url), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
const webMessage = 'Web shape (docs/decisions/012): lib, components and config import no features or routes; features import no routes and no other feature. Move shared code to lib/ or components/.';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-test-*/**', '**/dist-ssr/**', '**/node_modules/**', 'data/**', 'apps/api/src/db/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Forms go through useSchemaForm, which reports validation errors no field shows (issue 8, item 1).
      'no-restricted-imports': ['error', { paths: [{ name: 'react-hook-form', importNames: ['useForm'], message: 'Use useSchemaForm from lib/forms.ts: a failed validation must never be silent.' }] }],
    },
  },
  {
    files: ['apps/api/**/*.ts'],
    rules: {
      // A route whose policy requires an account gets a typed user from signedInRoutes (http/auth.ts), so the
      // policy and the handler's type cannot drift apart; asserting one (`req.user!`) is never needed.
      'no-restricted-syntax': ['error', {
        selector: "TSNonNullExpression > MemberExpression.expression[property.name='user']",
        message: 'Register the route with signedInRoutes(app) from http/auth.ts: its handler gets a typed req.user.',
      }],
    },
  },
  { files: ['apps/web/src/lib/forms.ts'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['scripts/**', 'apps/web/scripts/**', 'apps/api/src/cli/**', 'apps/api/bench/**', 'e2e/**'], rules: { 'no-console': 'off' } },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts', 'e2e/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
    },
    // Import cycles are refused by `npm run lint:cycles` (dpdm, part of `npm run lint`) over the same files, type-only
    // imports included; import-x/no-cycle checked them once more and took three quarters of ESLint's time (issue 26).
  },
  {
    files: [`${api}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', {
        zones: [
          {
            target: [`${api}/db/schema`, `${api}/db/client.ts`, `${api}/db/jobs.ts`, `${api}/drivers`, `${api}/lib`, `${api}/env.ts`],
            from: [`${api}/modules`, `${api}/jobs`, `${api}/deps.ts`],
            message: layerMessage,
          },
          { target: `${api}/http`, from: [`${api}/modules`, `${api}/jobs`], message: layerMessage },
          // jobs/ is the platform (runner, scheduler, definitions, mail): modules define their jobs with it,
          // it never imports a module (docs/decisions/011).
          { target: `${api}/jobs`, from: `${api}/modules`, message: layerMessage },
          // Only the entry points (main.ts, server.ts, the tests' harness) import the composition root.
          {
            target: [`${api}/modules`, `${api}/jobs`, `${api}/http`, `${api}/lib`, `${api}/drivers`, `${api}/db`, `${api}/deps.ts`, `${api}/env.ts`],
            from: [`${api}/app.ts`, `${api}/main.ts`, `${api}/server.ts`],
            message: layerMessage,
          },
        ],
      }],
    },
  },
  {
    files: [`${web}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': ['error', {
        zones: [
          { target: [`${web}/lib`, `${web}/components`, `${web}/config`], from: [`${web}/features`, `${web}/routes`, `${web}/app`], message: webMessage },
          { target: `${web}/features`, from: [`${web}/routes`, `${web}/app`], message: webMessage },
          ...webFeatures.map((feature) => ({ target: `${web}/features/${feature}`, from: `${web}/features`, except: [`./${feature}`], message: webMessage })),
        ],
      }],
    },
  },
);
