// Vite builds the islands and the per-visitor pages; the Rust generator reads
// dist/.vite/manifest.json to write each page's script and modulepreload tags.
// Entries: the loader and every island (scripts/vite-islands.mjs writes each
// island's files into the loader); React is one shared chunk every island imports.
// Also the after-load chunk (prefetching, the service worker's registration) and,
// built on their own by scripts/vite-sw.mjs, the service worker dist/sw.js and the
// early Add to cart that product pages hold inline.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { islandFiles, islandInputs } from './scripts/vite-islands.mjs';
import { AFTER_LOAD_INPUT, serviceWorker } from './scripts/vite-sw.mjs';

export default defineConfig(({ mode }) => ({
  plugins: [react(), islandFiles(), serviceWorker()],
  base: '/assets/',
  css: {
    modules: {
      // Short class names in the build (they ride in every island's JS).
      generateScopedName: mode === 'production' ? '_[hash:base64:5]' : '[name]__[local]',
    },
  },
  build: {
    manifest: true,
    outDir: 'dist',
    assetsDir: '',
    target: 'es2020',
    rolldownOptions: {
      input: { ...islandInputs(), ...AFTER_LOAD_INPUT },
      // Islands are entries whose default export (mount) the loader calls.
      preserveEntrySignatures: 'exports-only',
      output: {
        // Six hash characters (36 bits) are plenty to bust caches, and every
        // island's names ride in the loader.
        entryFileNames: '[name]-[hash:6].js',
        chunkFileNames: '[name]-[hash:6].js',
        assetFileNames: '[name]-[hash:6][extname]',
        codeSplitting: {
          // Two shared chunks, so a page with islands makes few requests on a
          // slow link: React, and the islands' own shared code.
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            // What the page-part islands share; the form helpers, used only by
            // the per-visitor pages, make a third chunk so product pages never load them.
            { name: 'lib', test: /[\\/]src[\\/](lib[\\/](?!validate)|styles[\\/]|components[\\/]Modal)/, priority: 1 },
            { name: 'forms', test: /[\\/]src[\\/](lib[\\/]validate|components[\\/](Field|forms))/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    // Unit tests only: e2e/*.test.mjs are browser tests run by `node --test` (e2e/run).
    include: ['src/**/*.test.{ts,tsx}'],
  },
}));
