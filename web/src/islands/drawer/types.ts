import type { components } from '../../generated/islands';

/** Props of drawer: the id of the generator's drawer `<nav>` (default "menu"). */
export type DrawerProps = components['schemas']['DrawerProps'];

/** `GET /api/product/recent-views-product` (cards; the strip reads these). */
export type { ProductsResponse as RecentViewsResponse } from '../../lib/types';

/** `GET /api/auth/user` (the account drawer reads the name). */
export type { UserResponse as AccountUserResponse } from '../../lib/types';
