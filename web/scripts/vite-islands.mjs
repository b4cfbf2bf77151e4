// A Vite plugin for the island loader. Each island (src/islands/<name>/index.tsx)
// is a build entry of its own, so Vite makes one chunk per island, and the
// loader (src/loader.ts) receives, in place of the string "__ISLAND_FILES__",
// the files each island needs: `{s: [files every island needs], i: {name:
// "its chunk, then its other chunks and CSS"}}` (space-separated; a bare
// hash stands for `<name>-<hash>.js` first, `<name>-<hash>.css` after), which
// the loader fetches in parallel (modulepreload and stylesheet links). This replaces Vite's
// generic dynamic-import preload helper, which alone weighed more than half
// of the loader's 1.5 KB budget. The loader's file name is re-hashed after the
// map is written, so any change to an island gives the loader a new name too.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PLACEHOLDER = /(["'`])__ISLAND_FILES__\1/;

/** Build inputs: the loader plus every island that has an index.tsx. */
export function islandInputs() {
  const dir = fileURLToPath(new URL('../src/islands', import.meta.url));
  const inputs = { loader: 'src/loader.ts' };
  for (const name of readdirSync(dir).sort()) {
    if (existsSync(join(dir, name, 'index.tsx'))) inputs[name] = `src/islands/${name}/index.tsx`;
  }
  return inputs;
}

/** The plugin: writes the island map into the loader chunk. */
export function islandFiles() {
  return {
    name: 'island-files',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const map = {};
        for (const chunk of chunks) {
          const m = chunk.facadeModuleId?.replace(/\\/g, '/').match(/\/src\/islands\/([^/]+)\/index\.tsx$/);
          if (!m) continue;
          const files = [chunk.fileName];
          const add = (f) => {
            if (!files.includes(f)) files.push(f);
          };
          const walk = (c) => {
            for (const css of c.viteMetadata?.importedCss ?? []) add(css);
            for (const i of c.imports) {
              if (files.includes(i)) continue;
              add(i);
              const next = byFile.get(i);
              if (next) walk(next);
            }
          };
          walk(chunk);
          map[m[1]] = files;
        }
        // Files every island needs (React, the islands' lib) are listed once.
        const lists = Object.values(map);
        const shared = lists.length ? lists[0].slice(1).filter((f) => lists.every((l) => l.indexOf(f) > 0)) : [];
        // Each island's own files as short tokens: the hash alone when the file is
        // `<name>-<hash>.js` (its chunk, first) or `<name>-<hash>.css`, else the whole name.
        const own = Object.fromEntries(
          Object.entries(map).map(([name, files]) => [
            name,
            files
              .filter((f) => !shared.includes(f))
              .map((f, k) => {
                const prefix = `${name}-`;
                const ext = k ? '.css' : '.js';
                const hash = f.startsWith(prefix) && f.endsWith(ext) ? f.slice(prefix.length, -ext.length) : '';
                return hash && !/[.\s/]/.test(hash) ? hash : f;
              })
              .join(' '),
          ]),
        );
        const loader = chunks.find((c) => c.isEntry && c.name === 'loader');
        if (!loader) return;
        if (!PLACEHOLDER.test(loader.code)) this.error('the loader lost its "__ISLAND_FILES__" placeholder');
        loader.code = loader.code.replace(PLACEHOLDER, () => JSON.stringify({ s: shared, i: own }));
      },
    },
    // Rolldown hashed the loader before the map was written: give the written
    // file a name from its final content, and point the manifest at it.
    writeBundle(options, bundle) {
      const loader = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === 'loader');
      if (!loader || !options.dir) return;
      const oldPath = join(options.dir, loader.fileName);
      const hash = createHash('sha256').update(readFileSync(oldPath)).digest('base64url').slice(0, 8).replace(/[-_]/g, 'x');
      const renamed = loader.fileName.replace(/[^/]*$/, `${loader.name}-${hash}.js`);
      renameSync(oldPath, join(options.dir, renamed));
      const manifestPath = join(options.dir, '.vite/manifest.json');
      if (existsSync(manifestPath)) {
        const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
        for (const entry of Object.values(manifest)) if (entry.file === loader.fileName) entry.file = renamed;
        writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
      }
    },
  };
}
