import type { Plugin } from 'vite';
export const EARLY_BUY_KEY: string;
export function earlyBuy(): Plugin;
