import type { components as api } from '../../generated/api';
import type { components } from '../../generated/islands';

/** Props of review-page: none; the path names the product (`/product/review/{id}`). */
export type ReviewPageProps = components['schemas']['ReviewPageProps'];

/** `GET /api/user/reviewable`. */
export type ReviewableResponse = api['schemas']['ReviewableResponse'];
/** A product delivered to the shopper, with their review of it if any. */
export type Reviewable = api['schemas']['ReviewableProduct'];
/** The shopper's own review. */
export type OwnReview = api['schemas']['OwnReview'];
/** `{success, message}` of review-store and review-update. */
export type MessageResponse = api['schemas']['MessageResponse'];
