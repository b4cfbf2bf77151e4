// ESLint for the islands, the per-visitor pages and the build and browser-test
// scripts. TypeScript gets typescript-eslint's type-aware recommended rules
// (floating promises, unsafe `any`, misused promises); the plain .mjs scripts,
// which no tsconfig covers, get the untyped ones. Layout is Prettier's job:
// eslint-config-prettier, last, turns off every rule that would fight it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'src/generated/'] },
  // A disable comment that no longer silences anything is an error: it goes.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // As tsc's noUnusedParameters: a leading _ marks a parameter kept for its type.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['e2e/**/*.mjs'],
    // Callbacks passed to page.evaluate run in the browser.
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  prettier,
);
