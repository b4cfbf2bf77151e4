import type { Plugin } from 'vite';
export function islandInputs(): Record<string, string>;
export function islandFiles(): Plugin;
