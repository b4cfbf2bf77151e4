// The island loader's entry (web/ISLANDS.md): marks the page as having
// JavaScript (so CSS can tell), then loads each island's own chunk when its
// `data-when` says. `import.meta.glob` makes one lazy chunk per island; React
// lives in one shared chunk that only islands import.
import { boot, type Importer } from './loader/core';

document.documentElement.classList.add('js');
boot(import.meta.glob('./islands/*/index.tsx') as Record<string, Importer>);
