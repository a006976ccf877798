// ESLint (flat config): the recommended JavaScript and typescript-eslint rules, plus the few the
// codebase keeps on purpose. No style rules: Prettier formats (npm run format). `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // scripts/demo-analysis.js is guest code (it runs inside the sandbox, where award_data is a global)
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'test/fixtures/',
      '**/*.d.ts',
      '**/*.d.cts',
      'scripts/demo-analysis.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      'no-duplicate-imports': 'off',
      eqeqeq: ['error', 'smart'],
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // a sandbox for untrusted text matches control characters on purpose (sanitizers, checks, tests)
      'no-control-regex': 'off',
    },
  },
  {
    // the prelude runs inside the isolate: no Node globals there; it handles the guest's own
    // functions, whose type is honestly `Function`
    files: ['prelude/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
    // it also forwards `arguments` as they came (arity included) and handles untyped guest values
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'prefer-rest-params': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // tests and benchmarks poke at untyped guest values and third-party internals
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
