import type { components } from '../../generated/islands';

/** Props of account-page: none; the view comes from the path (/user/<view>). */
export type AccountPageProps = components['schemas']['AccountPageProps'];

export type View = 'profile' | 'wishlist' | 'orders' | 'reviews' | 'address' | 'change-password';

export type { Address, ChangePasswordResponse, DistrictsResponse, OrdersResponse, ReviewsResponse, UserUpdateResponse } from '../../lib/types';
export type { AddressListResponse as AddressesResponse, UserProfile as User, UserResponse } from '../../lib/types';
