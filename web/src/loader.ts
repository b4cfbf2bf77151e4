// The island loader's entry (web/ISLANDS.md): loads each island's own chunk
// when its `data-when` says (the page flags itself `js` in its head). The
// build (scripts/vite-islands.mjs) replaces the string below with each
// island's files; React lives in one shared chunk that only
// islands import. After load, the after-load chunk (its name written by
// scripts/vite-sw.mjs) prefetches likely next pages and registers the service worker.
import { afterLoad, boot, importersFrom, type IslandFiles } from './loader/core';

boot(importersFrom('__ISLAND_FILES__' as unknown as IslandFiles, import.meta.env.BASE_URL));
afterLoad(import.meta.env.BASE_URL + '__AFTER_LOAD__');
