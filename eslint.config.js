// The lint of the browser page's modules (tobruk/web/static) and of the node script of the JavaScript tests
// (tests/web/js): ESLint's recommended rules, with each file's own globals (the browser's, or node's).
import js from '@eslint/js';
import globals from 'globals';

export default [
  {ignores: ['node_modules/', 'mutants/', '.venv/']},
  js.configs.recommended,
  {
    files: ['tobruk/web/static/**/*.js'],
    languageOptions: {ecmaVersion: 2022, sourceType: 'module', globals: globals.browser},
    rules: {
      // the pages' modules talk through imports and exports only; a global would hide a dependency
      'no-implicit-globals': 'error',
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    files: ['tests/web/js/**/*.mjs', 'eslint.config.js'],
    languageOptions: {ecmaVersion: 2022, sourceType: 'module', globals: globals.node},
  },
];
