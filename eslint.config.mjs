// Type-aware lint. Boundaries: apps never import each other; kafkajs only inside libs/messaging;
// libs are imported through their public entry (@app/<lib>), never by deep or ../../ paths.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What every file may not import (a later block that sets no-restricted-imports repeats these). */
const BOUNDARIES = [
  { group: ['../../*'], message: 'Import other packages through @app/<lib>, not relative paths.' },
  { group: ['@app/*/*'], message: 'Import libs through their public entry only.' },
  { group: ['kafkajs'], message: 'kafkajs is wrapped in libs/messaging.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', '.run/**', 'coverage/**', '*.config.js', '*.mjs', 'jest/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      'no-restricted-imports': ['error', { patterns: BOUNDARIES }],
    },
  },
  {
    files: ['libs/messaging/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../../*'] }, { group: ['@app/*/*'] }] }] },
  },
  {
    // A read model's write side (projections, the projector's reads) and read side (repositories)
    // share only their slice's table file.
    files: ['libs/persistence/src/**/*.projection.ts', 'libs/persistence/src/**/*.events.ts', 'libs/persistence/src/projections/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [...BOUNDARIES, { group: ['**/*.repository'], message: "The write side does not import repositories: shared bits go into the slice's table file." }],
      }],
    },
  },
  {
    files: ['libs/persistence/src/**/*.repository.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [...BOUNDARIES, { group: ['**/*.projection'], message: "Repositories do not import projections: shared bits go into the slice's table file." }],
      }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
