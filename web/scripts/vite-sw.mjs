// A Vite plugin for the slow-link helpers (web/README.md "Slow links"):
// - writes the after-load chunk's file name (src/after-load/index.ts: the
//   prefetcher and the service worker's registration) into the loader, in
//   place of "__AFTER_LOAD__", before the loader is re-hashed;
// - once the build is written, builds the service worker (src/sw/sw.ts) on
//   its own, as one classic script, into dist/sw.js (unhashed: it must keep
//   its URL), with this build's precache list (the loader, the after-load
//   chunk and every shared chunk with its CSS, from the manifest) and a
//   version that changes whenever the list or the worker's code does;
// - and the early Add to cart (src/early-buy/index.ts), on its own too, as
//   one classic script with nothing to import, into
//   dist/early-buy-<hash>.js, named in the manifest under its source path:
//   the generator writes it inline into the pages whose buy-buttons fallback
//   has a `data-buy` button, so it needs no round trip.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';

/**
 * Builds `input` on its own into one self-contained file (no imports: what it
 * shares with the islands is bundled into it) and answers its code.
 */
export async function buildAlone(root, input, format, define = {}) {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    define,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      copyPublicDir: false,
      rolldownOptions: { input, output: { format } },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result).output;
  const chunk = output.find((c) => c.type === 'chunk' && c.isEntry);
  if (!chunk || output.length !== 1) throw new Error(`${input} did not build into one file`);
  return chunk.code;
}

/** The after-load entry's build input. */
export const AFTER_LOAD_INPUT = { 'after-load': 'src/after-load/index.ts' };
const AFTER_LOAD_KEY = AFTER_LOAD_INPUT['after-load'];
const PLACEHOLDER = '__AFTER_LOAD__';
const VERSION = '__SW_VERSION__';
/** The early Add to cart's key in Vite's manifest (its source path). */
export const EARLY_BUY_KEY = 'src/early-buy/index.ts';

/**
 * The files the worker precaches, from Vite's manifest: the loader, the
 * after-load chunk, and every shared chunk (keys starting with `_`) with its CSS.
 */
export function precacheAssets(manifest) {
  const files = new Set();
  for (const key of ['src/loader.ts', AFTER_LOAD_KEY]) if (manifest[key]) files.add(manifest[key].file);
  for (const [key, entry] of Object.entries(manifest)) {
    if (!key.startsWith('_') || !entry.file.endsWith('.js')) continue;
    files.add(entry.file);
    for (const css of entry.css ?? []) files.add(css);
  }
  return [...files];
}

/** The plugin. */
export function serviceWorker() {
  let root = process.cwd();
  let outDir = 'dist';
  return {
    name: 'service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk' && c.isEntry);
      const loader = chunks.find((c) => c.name === 'loader');
      const after = chunks.find((c) => c.name === 'after-load');
      if (!loader) return;
      if (!after) this.error('no after-load chunk: is src/after-load/index.ts a build input?');
      if (!loader.code.includes(PLACEHOLDER)) this.error('the loader lost its "__AFTER_LOAD__" placeholder');
      loader.code = loader.code.replaceAll(PLACEHOLDER, after.fileName);
    },
    async closeBundle() {
      const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
      const assets = precacheAssets(manifest);
      const code = await buildAlone(root, 'src/sw/sw.ts', 'iife', {
        __SW_ASSETS__: JSON.stringify(assets),
        __SW_VERSION__: JSON.stringify(VERSION),
      });
      if (!code.includes(VERSION)) throw new Error(`the service worker lost its "${VERSION}" placeholder`);
      const version = createHash('sha256').update(code).digest('hex').slice(0, 10);
      writeFileSync(join(outDir, 'sw.js'), code.replaceAll(VERSION, version));

      const early = (await buildAlone(root, EARLY_BUY_KEY, 'iife')).trim();
      const file = `early-buy-${createHash('sha256').update(early).digest('base64url').slice(0, 6).replace(/[-_]/g, 'x')}.js`;
      writeFileSync(join(outDir, file), early);
      manifest[EARLY_BUY_KEY] = { file, src: EARLY_BUY_KEY, isEntry: true };
      writeFileSync(join(outDir, '.vite/manifest.json'), JSON.stringify(manifest, null, 2));
    },
  };
}
