import type { components } from '../../generated/islands';

/** Props of payment-page: none. */
export type PaymentPageProps = components['schemas']['PaymentPageProps'];

/** The methods the original offered, by the names `cart/store-payment-method` takes. */
export type PaymentMethod = 'cash_on_delivery' | 'debitcredit' | 'bkash' | 'nagad';

export type { PaymentGatewaysResponse, PlaceOrderResponse } from '../../lib/types';

// Untyped on the server yet (origin/tests/untyped_answers.txt).
/** `GET /api/nagad/pay-via-ajax`: the gateway's page. */
export type NagadPayResponse = { url?: string } | false;
// Untyped on the server yet (origin/tests/untyped_answers.txt).
/** `POST /api/bkash/create`: the gateway's page. */
export type BkashCreateResponse = { bkashURL?: string } | false;
// Untyped on the server yet (origin/tests/untyped_answers.txt).
/** `POST /sslcommerz/pay-via-ajax`: the gateway's page in `data`. */
export interface SslcommerzPayResponse {
  status?: string;
  data?: string | null;
  message?: string;
}
