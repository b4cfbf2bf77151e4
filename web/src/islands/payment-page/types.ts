import type { components } from '../../generated/islands';

/** Props of payment-page: none. */
export type PaymentPageProps = components['schemas']['PaymentPageProps'];

/** The methods the original offered, by the names `cart/store-payment-method` takes. */
export type PaymentMethod = 'cash_on_delivery' | 'debitcredit' | 'bkash' | 'nagad';

export type { BkashCreateResponse, NagadPayResponse, PaymentGatewaysResponse, PlaceOrderResponse, SslcommerzPayResponse } from '../../lib/types';
