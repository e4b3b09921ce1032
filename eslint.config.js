// ESLint (flat config): typescript-eslint's recommended rules and React's hooks rules (with the React
// Compiler's checks), the stylistic ones that fight the code base turned off; formatting is Prettier's
// (.prettierrc.json). `npm run lint` runs it with `prettier --check` and knip.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.astro/', '.node/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'src/shared/api-types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['src/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Unused names are TypeScript's to report (noUnusedLocals and noUnusedParameters in its strictest config).
      '@typescript-eslint/no-unused-vars': 'off',
      // A `let` declared before the closures that read it and assigned after them (src/client/time-bonus.ts).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `interface Locals extends RequestContext {}` is how Astro's locals are typed (src/env.d.ts).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  { files: ['public/sw.js'], languageOptions: { globals: globals.serviceworker } },
  {
    // Tests read JSON answers of any shape and pass malformed values on purpose.
    files: ['**/*.test.ts', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
