// Lint for the whole monorepo: typed rules so floating promises are errors (STYLE.md habit 11).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Control characters are matched on purpose when rejecting hostile input.
      'no-control-regex': 'off',
    },
  },
  {
    // Dependencies point one way (STYLE.md habit 5): the web app never imports server code,
    // the contract imports nothing but zod, features do not import each other.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@rpc/server', '@rpc/db', '@rpc/gateway', '**/apps/server/**'],
              message: 'The web app talks to the server through the contract only.',
            },
            {
              // antd/locale/* is a CommonJS re-export: Rollup's default import of it is the module object, so the
              // built app fell back to English in every antd component (seen as "5 / page" on /zh pages).
              group: ['antd/locale/*', 'antd/lib/*'],
              message: 'Import antd locales from antd/es/locale/* (ES modules).',
            },
          ],
          paths: [
            {
              // The plain entry injects Stripe.js into every page at import time; /pure loads it only when a card
              // form opens (lib/stripe.ts).
              name: '@stripe/stripe-js',
              importNames: ['loadStripe'],
              message: "Import loadStripe from '@stripe/stripe-js/pure'.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contract/src/**/*.ts'],
    // Tests are not part of the package: they may use vitest.
    ignores: ['packages/contract/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // A regex, not a gitignore group: '!./*' never re-allowed './x', so every relative import failed.
              regex: '^(?!zod$|\\.{1,2}/)',
              message: 'The contract depends on zod alone.',
            },
          ],
        },
      ],
    },
  },
);
