import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'out/',
      'node_modules/',
      'examples/',
      'bench/workspace/',
      'bench/workspace-libraries/',
      '.cache/',
      'test-output/',
      'test/fixtures/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Rules are pure functions of the model: what they need of the process (the
    // environment, the clock) comes with their input (the disk: .dependency-cruiser.cjs).
    files: ['server/src/engine/rules/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'rules take what they need as input' }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'rules read no clock' },
        { object: 'Math', property: 'random', message: 'rules are deterministic' },
        { object: 'performance', property: 'now', message: 'rules read no clock' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: 'rules read no clock' },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
