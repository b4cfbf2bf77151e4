// Vite builds the islands and the per-visitor pages; the Rust generator reads
// dist/.vite/manifest.json to write each page's script and modulepreload tags.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  base: '/assets/',
  build: {
    manifest: true,
    outDir: 'dist',
    assetsDir: '',
    target: 'es2020',
    rollupOptions: {
      input: { loader: 'src/loader.ts' },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
  },
});
