import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'data/**', 'apps/api/src/db/migrations/**', 'test-results/**', 'playwright-report/**'] },
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
);
