// The early Add to cart's entry (src/early-buy/buy.ts says what it does).
// Built on its own into one self-contained script (scripts/vite-sw.mjs),
// which the generator writes inline into the pages whose fallback has such a
// button: it must work before any other file has arrived.
import { earlyBuy } from './buy';

earlyBuy();
