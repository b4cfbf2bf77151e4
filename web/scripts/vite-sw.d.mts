import type { Plugin } from 'vite';
export const AFTER_LOAD_INPUT: Record<string, string>;
export function precacheAssets(manifest: Record<string, { file: string; css?: string[] }>): string[];
export const EARLY_BUY_KEY: string;
export function serviceWorker(): Plugin;
export function buildAlone(root: string, input: string, format: 'es' | 'iife', define?: Record<string, string>): Promise<string>;
