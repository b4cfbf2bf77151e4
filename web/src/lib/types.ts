// The names the web code uses for what the Rust side sends: aliases of the
// types generated from the API's OpenAPI document (web/src/generated, written
// by scripts/generate-types, never edited by hand). A change to an answer's
// Rust type reaches the islands' type check through here.

import type { components, operations } from '../generated/api';

/** Every schema of the API's document, by its Rust type's name. */
export type ApiSchemas = components['schemas'];
/** The JSON of an operation's 200 answer; `never` for one that documents none. */
type SuccessOf<Op> = Op extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

/** An error answer: `{success: false, message, errors?}`. */
export type ErrorBody = ApiSchemas['ErrorBody'];
/** `GET /api/home/sliders`. */
export type SlidersResponse = ApiSchemas['SlidersResponse'];
/** A home page slider. */
export type Slider = ApiSchemas['Slider'];

/** `GET /api/cart/view` (also checkout-address and store-payment-method): the cart and its checkout state. */
export type CartResponse = ApiSchemas['CartResponse'];
/** The cart itself: lines, sets (by id, or `[]` when there is none), totals and the coupon. */
export type Cart = ApiSchemas['CartContents'];
/** One cart line. */
export type CartLine = ApiSchemas['CartLine'];
/** A product set in the cart. */
export type CartSet = ApiSchemas['CartSet'];
/** `GET /api/cart/count-notification`. */
export type CountResponse = ApiSchemas['CountResponse'];

/**
 * The part of `GET|POST /api/cart/add-to-cart` every add answers: the cart's
 * new size. The schema is these properties *and* one of AddedLine/AddedSet;
 * openapi-typescript writes that as a union of the three, so the parts are
 * put together here.
 */
type AddToCartSize = Exclude<ApiSchemas['AddToCartResponse'], ApiSchemas['AddedLine'] | ApiSchemas['AddedSet']>;
/** `GET|POST /api/cart/add-to-cart`: the cart's new size and the line or set added. */
export type AddToCartResponse = AddToCartSize & (ApiSchemas['AddedLine'] | ApiSchemas['AddedSet']);
/** The add-to-cart answer to adding one product (`main_pid`): the line it went into. */
export type AddProductResponse = AddToCartSize & ApiSchemas['AddedLine'];
/** The add-to-cart answer to adding a product set (`psets`, `pset_id`). */
export type AddSetResponse = AddToCartSize & ApiSchemas['AddedSet'];
/** `GET /api/product/product-set-products`: a set's products with their quantity in the set. */
export type SetProductsResponse = ApiSchemas['SetProductsResponse'];
/** `GET /api/product/product-set-fabrics`: a set's active fabrics. */
export type SetFabricsResponse = ApiSchemas['SetFabricsResponse'];
/** `GET /api/common/districts`. */
export type DistrictsResponse = ApiSchemas['DistrictsResponse'];
/** `GET /api/cart/get-delivery-charge?district=`. */
export type DeliveryChargeResponse = ApiSchemas['DeliveryChargeResponse'];
/** `POST /api/cart/coupon-apply`. */
export type CouponApplyResponse = ApiSchemas['CouponApplyResponse'];
/** `GET /api/user/get-default-address`: the address, or `[]` when there is none. */
export type DefaultAddressResponse = ApiSchemas['DefaultAddressResponse'];
/** `GET /api/auth/user`. */
export type UserResponse = ApiSchemas['UserResponse'];
/** `GET /api/cart/get-payment-gateway`: which methods are on. */
export type PaymentGatewaysResponse = ApiSchemas['PaymentGatewaysResponse'];
/** `POST /sslcommerz/pay-via-ajax` and `POST /sslcommerz/existing-order-pay`: the card gateway's page in `data`. */
export type SslcommerzPayResponse = ApiSchemas['SslcommerzPayResponse'];
/** `GET /api/nagad/pay-via-ajax`: Nagad's page in `url`. */
export type NagadPayResponse = ApiSchemas['NagadPayResponse'];
/** `POST /api/bkash/create`: bKash is not built (issue 18), the call only answers 503, so `never`. */
export type BkashCreateResponse = SuccessOf<operations['post_bkash_create']>;
/** `POST /api/cod-place-order`. */
export type PlaceOrderResponse = ApiSchemas['PlaceOrderResponse'];
/** `POST /api/auth/login` and `POST /api/auth/register`: the token and the user. */
export type SignedInResponse = ApiSchemas['SignedInResponse'];
/** A signed-in shopper as `GET /api/auth/user` sends them. */
export type UserProfile = ApiSchemas['UserProfile'];
/** `GET /api/user/orders`: a page of the shopper's orders. */
export type OrdersResponse = ApiSchemas['OrdersResponse'];
/** `GET /api/user/reviews`: an object keyed by review id, or `[]`. */
export type ReviewsResponse = ApiSchemas['ReviewsResponse'];
/** One saved address. */
export type Address = ApiSchemas['Address'];
/** `GET /api/user/address-list`: an object keyed by id, or `[]`. */
export type AddressListResponse = ApiSchemas['AddressListResponse'];
/** `GET /api/cart/order-details?order_random=&secret_key=`. */
export type OrderDetailsResponse = ApiSchemas['OrderDetailsResponse'];
/** An order's head: who, where, how it is paid, its totals. */
export type OrderHead = ApiSchemas['OrderHead'];
/** One line of an order. */
export type OrderLine = ApiSchemas['OrderLine'];
/** `GET /api/cart/track-order?phone=&id=`. */
export type TrackOrderResponse = ApiSchemas['TrackOrderResponse'];
/** `GET /api/common/main-search-product?keyword=`. */
export type SearchResponse = ApiSchemas['SearchResponse'];
/** `GET /api/common/compare` and `GET /api/user/wishlist`: the products on the list. */
export type ProductListResponse = ApiSchemas['ProductListResponse'];
/** A product on the compare list or the wishlist. */
export type ListedProduct = ApiSchemas['ListedProduct'];
/** An attribute row of a listed product. */
export type ListedAttribute = ApiSchemas['ListedAttribute'];
/** `GET /api/common/add-to-compare` and `GET /api/user/add-to-wishlist`. */
export type ListAddResponse = ApiSchemas['ListAddResponse'];
/** A product card (PCARD) as the product lists send it. */
export type ProductCard = ApiSchemas['ProductCard'];
/** `GET /api/product/recent-views-product` and the other card lists: `{products}`. */
export type ProductsResponse = ApiSchemas['ProductsResponse'];
/** `GET /api/category/products`: `{products: paginator, facets}`. */
export type CategoryProductsResponse = ApiSchemas['CategoryProductsResponse'];
/** `GET /api/category/filters`: the category's filters with their counts, and its price bounds. */
export type FiltersResponse = ApiSchemas['FiltersResponse'];
/** A plain answer: `{success, message}` (forgot-password, reset-password, subscribe and others). */
export type MessageResponse = ApiSchemas['MessageResponse'];
/** `POST /api/user/user-update`: the message and the user as saved. */
export type UserUpdateResponse = ApiSchemas['UserUpdateResponse'];
/** `POST /api/user/change-password`. */
export type ChangePasswordResponse = ApiSchemas['ChangePasswordResponse'];
/** `GET /api/product/360degreeImages`: the frames' paths, in order. */
export type Images360Response = ApiSchemas['Images360Response'];
