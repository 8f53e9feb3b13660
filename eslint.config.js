// Type-aware lint (typescript-eslint) over the TypeScript of the service, its workflows, tests and scripts.
// `npm run lint`; scripts/test runs it after the type check, so a lint error fails `npm test` and CI.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const UNSAFE_ANY_RULES = {
  '@typescript-eslint/no-explicit-any': 'off',
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
};

export default tseslint.config(
  {
    ignores: ['src/generated/**', 'node_modules/**', '.data/**', '.tools/**', 'coverage/**', '**/*.{js,cjs,mjs}'],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    files: ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', '*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `x == null` is the idiom for null or undefined (optional and nullable fields); everything else is ===.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A `default:` branch is a decision about the other members; a switch without one must name them all.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // A `return promise` inside try/catch skips the catch and the finally's ordering: await it there.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      // Off: zod 4 keeps its v3 forms (z.string().uuid(), .datetime(), { message }) as deprecated aliases, about 260
      // schema calls; moving them to z.uuid()/z.iso.datetime() is a change of its own, not a lint fix.
      '@typescript-eslint/no-deprecated': 'off',
      // `_name` is the codebase's way to drop a value on purpose (a rest-destructured key, an unused callback argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Async without await is deliberate here: it fulfils a Promise-returning interface (providers, page loaders,
      // test doubles of third parties) and turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests and benchmarks read the API's JSON answers (`await res.json()` is any) and poke at untyped internals.
    files: ['test/**/*.ts', 'scripts/**/*.ts'],
    rules: UNSAFE_ANY_RULES,
  },
);
