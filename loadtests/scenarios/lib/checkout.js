// The checkout funnel as the web client runs it (web/src/lib/cart.ts, the
// cart, checkout and payment islands; ORIGINAL-API.md §2): a new guest adds a
// product, views the cart, confirms it for checkout, gives a delivery address,
// chooses cash on delivery and places the order, tapping "Place order" twice
// with one idempotency key. Both taps must name the same order; a confirmed
// order is logged (`ORDER <order_random>`) for the runner to find in the
// database afterwards.
import { check, sleep } from 'k6';
import { Counter, Rate, Trend } from 'k6/metrics';
import { DATA, get, guestToken, json, post } from './common.js';

/** A fresh key for a call that only overwrites the cart (a replay changes nothing). */
const replayKey = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

const HOT = __ENV.HOT_FILE ? JSON.parse(open(__ENV.HOT_FILE)) : [];

export const orderPlaced = new Counter('order_placed');
export const orderSoldOut = new Counter('order_sold_out');
export const orderSameOnRetry = new Rate('order_same_on_retry');
export const orderRetriedAfter5xx = new Counter('order_retried_after_5xx');
export const orderMs = new Trend('order_place_ms', true);
export const cartStepOk = new Rate('cart_step_ok');

function product() {
  if (HOT.length && Math.random() < 0.5) return HOT[Math.floor(Math.random() * HOT.length)];
  return DATA.buyable[Math.floor(Math.random() * DATA.buyable.length)];
}

/** A refusal because the product sold out (409, or a message about stock). */
function soldOut(res, body) {
  return res.status === 409 || (!!body && body.success === false && /stock/i.test(body.message || ''));
}

/**
 * One step: good when it answered 2xx with a body that is not `false`; a
 * sell-out is not a failure. A shopper meeting a 5xx waits a second before
 * giving up (no busy loop while the origin is away).
 */
function step(res, what) {
  const body = json(res);
  const good = res.status >= 200 && res.status < 300 && body !== false && !(body && body.success === false);
  const out = !good && soldOut(res, body);
  if (!out) cartStepOk.add(good, { step: what });
  if (res.status >= 500 || res.status === 0) sleep(1);
  return { good, out, unavailable: res.status >= 500 || res.status === 0, body };
}

const failed = (s) => (s.unavailable ? 'unavailable' : 'failed');

/**
 * Runs the funnel once. `retry5xx`: seconds to keep retrying a placement that
 * met a 5xx (the origin down), with the same idempotency key.
 * Returns 'placed', 'sold_out', 'failed' or 'unavailable'.
 */
export function checkout({ think = 0, retry5xx = 0 } = {}) {
  const token = guestToken();
  const p = product();
  const pause = () => think && sleep(think * (0.5 + Math.random()));

  const add = step(get(`/api/cart/add-to-cart?main_pid=${p.id}&qty=1`, { token, name: '/api/cart/add-to-cart' }), 'add');
  if (!add.good) return add.out ? sold() : failed(add);
  pause();
  step(get('/api/cart/view', { token }), 'view');
  pause();
  const confirm = step(get('/api/cart/checkout-address?coupon=false', { token, name: '/api/cart/checkout-address' }), 'checkout-address');
  if (!confirm.good) return failed(confirm);
  step(get('/api/cart/get-delivery-charge?district=Dhaka', { token, name: '/api/cart/get-delivery-charge' }), 'delivery-charge');
  pause();
  const address = {
    name: 'Load Test',
    mobile: `017${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    emergency_mobile: '01811111111',
    email: 'loadtest@example.com',
    district: 'Dhaka',
    division: 'Dhaka',
    address: 'House 7, Road 12, Dhanmondi',
    username: '',
    password: '',
    create: false,
    self_token: token,
  };
  const delivery = step(post('/api/cart/checkout-delivery-address', address, { token, key: replayKey() }), 'delivery-address');
  if (!delivery.good) return failed(delivery);
  pause();
  const method = { self_token: token, terms_check: true, payment_method: 'cash_on_delivery' };
  const payment = step(post('/api/cart/store-payment-method', method, { token, key: replayKey() }), 'payment-method');
  if (!payment.good) return failed(payment);
  pause();

  const key = `${Date.now()}-${token}`;
  const place = () => post('/api/cod-place-order', { idempotency_key: key }, { token, key });
  let first = place();
  const deadline = Date.now() + retry5xx * 1000;
  while ((first.status >= 500 || first.status === 0) && Date.now() < deadline) {
    orderRetriedAfter5xx.add(1);
    sleep(1);
    first = place();
  }
  orderMs.add(first.timings.duration);
  const a = json(first);
  if (soldOut(first, a)) return sold();
  if (first.status >= 500 || first.status === 0) return 'unavailable';
  if (!check(first, { 'order placed': (r) => r.status === 200 && a && a.order_random })) return 'failed';
  // The double tap: the same key must give the same order.
  const again = json(place());
  orderSameOnRetry.add(!!again && again.order_random === a.order_random);
  console.log(`ORDER ${a.order_random}`);
  orderPlaced.add(1);
  const details = get(`/api/cart/order-details?order_random=${a.order_random}&secret_key=${a.order_key}`, {
    token,
    name: '/api/cart/order-details',
  });
  const d = json(details);
  check(details, { 'order readable': (r) => r.status === 200 && d && d.order_masters && !Array.isArray(d.order_masters) });
  return 'placed';
}

function sold() {
  orderSoldOut.add(1);
  return 'sold_out';
}
