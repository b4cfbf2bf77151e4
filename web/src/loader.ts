// The island loader's entry (web/ISLANDS.md): marks the page as having
// JavaScript (so CSS can tell), then loads each island's own chunk when its
// `data-when` says. The build (scripts/vite-islands.mjs) replaces the string
// below with each island's files; React lives in one shared chunk that only
// islands import. After load, the after-load chunk (its name written by
// scripts/vite-sw.mjs) prefetches likely next pages and registers the service worker.
import { afterLoad, boot, importersFrom, type IslandFiles } from './loader/core';

document.documentElement.classList.add('js');
boot(importersFrom('__ISLAND_FILES__' as unknown as IslandFiles, import.meta.env.BASE_URL));
afterLoad(import.meta.env.BASE_URL + '__AFTER_LOAD__');
