// A Vite plugin: once the build is written, builds the early Add to cart
// (src/early-buy/index.ts) on its own, as one classic script with nothing to
// import, into dist/early-buy-<hash>.js, and names it in Vite's manifest
// under its source path. The generator writes it inline into the pages whose
// buy-buttons fallback has a `data-buy` button, so it needs no round trip.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildAlone } from './vite-sw.mjs';

/** The early Add to cart's key in Vite's manifest (its source path). */
export const EARLY_BUY_KEY = 'src/early-buy/index.ts';

/** The plugin. */
export function earlyBuy() {
  let root = process.cwd();
  let outDir = 'dist';
  return {
    name: 'early-buy',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const code = (await buildAlone(root, EARLY_BUY_KEY, 'iife')).trim();
      const file = `early-buy-${createHash('sha256').update(code).digest('base64url').slice(0, 6).replace(/[-_]/g, 'x')}.js`;
      writeFileSync(join(outDir, file), code);
      const manifestPath = join(outDir, '.vite/manifest.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      manifest[EARLY_BUY_KEY] = { file, src: EARLY_BUY_KEY, isEntry: true };
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    },
  };
}
