import type { components } from '../../generated/islands';

/** Props of payment-page: none. */
export type PaymentPageProps = components['schemas']['PaymentPageProps'];

/** The methods the original offered, by the names `cart/store-payment-method` takes. */
export type PaymentMethod = 'cash_on_delivery' | 'debitcredit' | 'bkash' | 'nagad';

/** `GET /api/cart/get-payment-gateway`: which methods are on. */
export type GatewaysResponse = Partial<
  Record<'cash_on_delivery' | 'bkash' | 'nagad' | 'mobile_banking' | 'debitcredit', { active?: boolean | number | string }>
>;

/** `POST /api/cod-place-order`. */
export interface PlaceOrderResponse {
  uri?: string;
  order_random?: string | number;
  order_key?: string;
}
