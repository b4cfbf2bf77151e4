-- Refunds and expiry of online payments (issue 18; origin/src/domain/payments/mod.rs).
--
-- payment.session: the gateway's own id for the checkout it opened (bKash's
-- paymentID), kept when settling writes the gateway's transaction id into
-- gateway_ref: a refund needs both. payment.status gains 'expired' (its order
-- was cancelled unpaid after PAYMENT_EXPIRY_MINUTES) and 'late' (the gateway
-- confirmed it after that: refunded automatically, or left to the operator).
ALTER TABLE payment ADD COLUMN session TEXT NOT NULL DEFAULT '';

-- What was given back, per payment. status: 'refunded' (the gateway took the
-- refund), 'requested' (being asked), 'failed' (the gateway refused: nothing
-- was given back), 'operator' (no refund through this gateway: the operator
-- must give the money back by hand).
CREATE TABLE payment_refund (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES order_master(id) ON DELETE CASCADE,
    payment_id INTEGER NOT NULL REFERENCES payment(id) ON DELETE CASCADE,
    amount INTEGER NOT NULL CHECK (amount > 0),
    status TEXT NOT NULL DEFAULT 'requested',
    reason TEXT NOT NULL DEFAULT '',
    refund_ref TEXT NOT NULL DEFAULT '',   -- the gateway's id of the refund
    message TEXT NOT NULL DEFAULT '',      -- the gateway's answer when it refused
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX payment_refund_order ON payment_refund(order_id);

-- Taka given back so far (refunds the gateway took).
ALTER TABLE order_master ADD COLUMN amount_refunded INTEGER NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0);

-- The expiry sweep looks for old attempts still waiting.
CREATE INDEX payment_waiting ON payment(status, created_at);
