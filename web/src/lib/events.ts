// Typed DOM events between islands. Islands never import each other: one
// island fires an event on `window`, others listen (web/ISLANDS.md).

/** Every event an island may fire or hear, with its `detail`. */
export interface IslandEvents {
  /**
   * The cart changed (an add or a removal); `count` is the pieces in the
   * cart (the sum of its quantities: count-notification's `cartQty`, an
   * add's `total_qty`), when the change's answer told it: the header shows
   * it without asking again.
   */
  'cart:changed': { count?: number };
  /** The wishlist changed. */
  'wishlist:changed': { count?: number };
  /** The compare list changed. */
  'compare:changed': { count?: number };
  /** A modal opened or closed (drawers use them too, to flag the page). */
  'modal:open': { id?: string };
  'modal:close': { id?: string };
  /** The api wrapper started a request, finished one, or one failed. */
  'loading:start': { url: string };
  'loading:finish': { url: string };
  'loading:fail': { url: string; status: number };
  /** The page is going to `url` (`navigate`): the loading bar runs until it has gone. */
  'loading:route': { url: string };
  /** An island failed to load or to mount; its fallback stays (fired by the loader). */
  'island-error': { name: string; error: unknown };
}

export type IslandEventName = keyof IslandEvents;

/** Fires `name` on `window` with `detail`. */
export function emit<K extends IslandEventName>(name: K, detail: IslandEvents[K]): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Listens to `name` on `window`; returns the function that stops listening. */
export function on<K extends IslandEventName>(name: K, handler: (detail: IslandEvents[K]) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<IslandEvents[K]>).detail);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}
