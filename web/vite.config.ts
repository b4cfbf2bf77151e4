// Vite builds the islands and the per-visitor pages; the Rust generator reads
// dist/.vite/manifest.json to write each page's script and modulepreload tags.
// One entry (the loader); each island is a lazy chunk of its own (the
// loader's import.meta.glob), and React is one shared chunk every island imports.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig(({ mode }) => ({
  plugins: [react()],
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
      input: { loader: 'src/loader.ts' },
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
  },
}));
