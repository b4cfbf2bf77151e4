-- What shoppers create: accounts, tokens, addresses, carts, compare and
-- wishlist lists, orders, payments, reviews, questions, comments, newsletter
-- subscriptions, recently viewed products. Conventions: see 0001_catalogue.sql.
--
-- A guest is known only by the SELF-TOKEN header (`self_token` columns); a
-- signed-in shopper by `user_id`. Lists owned by either carry both columns
-- with a CHECK that exactly one is set.

CREATE TABLE app_user (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT UNIQUE,                     -- stored lower-case
    phone TEXT UNIQUE,                     -- 11 digits, 01XXXXXXXXX
    emergency_phone TEXT,
    password_hash TEXT,                    -- argon2id PHC string; NULL for social-only accounts
    birthday TEXT,                         -- YYYY-MM-DD
    gender TEXT,
    district TEXT,
    postcode TEXT,
    google_sub TEXT UNIQUE,
    facebook_id TEXT UNIQUE,
    default_billing_address_id INTEGER REFERENCES address(id) ON DELETE SET NULL,
    default_shipping_address_id INTEGER REFERENCES address(id) ON DELETE SET NULL,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK (email IS NOT NULL OR phone IS NOT NULL)
);

-- Bearer tokens. Only a hash of the token is kept.
CREATE TABLE auth_token (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT 'web_browser',
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER,
    last_used_at INTEGER,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX auth_token_user ON auth_token(user_id);

-- Single-use password reset links (hash of the secret part only).
CREATE TABLE password_reset (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE address (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    phone TEXT NOT NULL,
    address TEXT NOT NULL,
    region TEXT NOT NULL DEFAULT '',       -- the division's name
    district TEXT NOT NULL,
    thana TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX address_user ON address(user_id);

-- A cart and the checkout state that goes with it (address, delivery,
-- payment method, coupon, paying amount), one per guest token or per user.
CREATE TABLE cart (
    id INTEGER PRIMARY KEY,
    self_token TEXT UNIQUE,
    user_id INTEGER UNIQUE REFERENCES app_user(id) ON DELETE CASCADE,
    coupon_code TEXT,
    name TEXT, mobile TEXT, emergency_mobile TEXT, email TEXT,
    division TEXT, district TEXT, thana TEXT, address TEXT,
    delivery_fee INTEGER,
    payment_method TEXT,
    terms_accepted INTEGER NOT NULL DEFAULT 0 CHECK (terms_accepted IN (0, 1)),
    paying_amount INTEGER,                 -- pre-booking part payment, taka
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK ((self_token IS NULL) <> (user_id IS NULL))
);

-- A product set in a cart: one line, whose items are cart_item rows.
CREATE TABLE cart_set (
    id INTEGER PRIMARY KEY,
    cart_id INTEGER NOT NULL REFERENCES cart(id) ON DELETE CASCADE,
    product_set_id INTEGER NOT NULL REFERENCES product_set(id),
    fabric_id INTEGER REFERENCES fabric(id),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX cart_set_cart ON cart_set(cart_id);

CREATE TABLE cart_item (
    id INTEGER PRIMARY KEY,
    cart_id INTEGER NOT NULL REFERENCES cart(id) ON DELETE CASCADE,
    cart_set_id INTEGER REFERENCES cart_set(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id),
    variation_id INTEGER REFERENCES product_variation(id),
    item_code TEXT NOT NULL,               -- the line key: the variation's code or the product's
    qty INTEGER NOT NULL CHECK (qty > 0),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX cart_item_cart ON cart_item(cart_id);

CREATE TABLE compare_item (
    id INTEGER PRIMARY KEY,
    self_token TEXT,
    user_id INTEGER REFERENCES app_user(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK ((self_token IS NULL) <> (user_id IS NULL))
);
CREATE UNIQUE INDEX compare_item_guest ON compare_item(self_token, product_id) WHERE self_token IS NOT NULL;
CREATE UNIQUE INDEX compare_item_user ON compare_item(user_id, product_id) WHERE user_id IS NOT NULL;

CREATE TABLE wishlist_item (
    id INTEGER PRIMARY KEY,
    self_token TEXT,
    user_id INTEGER REFERENCES app_user(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK ((self_token IS NULL) <> (user_id IS NULL))
);
CREATE UNIQUE INDEX wishlist_item_guest ON wishlist_item(self_token, product_id) WHERE self_token IS NOT NULL;
CREATE UNIQUE INDEX wishlist_item_user ON wishlist_item(user_id, product_id) WHERE user_id IS NOT NULL;

CREATE TABLE recently_viewed (
    id INTEGER PRIMARY KEY,
    self_token TEXT,
    user_id INTEGER REFERENCES app_user(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    viewed_at INTEGER NOT NULL DEFAULT (unixepoch()),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK ((self_token IS NULL) <> (user_id IS NULL))
);
CREATE UNIQUE INDEX recently_viewed_guest ON recently_viewed(self_token, product_id) WHERE self_token IS NOT NULL;
CREATE UNIQUE INDEX recently_viewed_user ON recently_viewed(user_id, product_id) WHERE user_id IS NOT NULL;

-- An order. `order_random` is the public order number; `order_key` the secret
-- that, with it, opens the thank-you page.
CREATE TABLE order_master (
    id INTEGER PRIMARY KEY,
    order_random TEXT NOT NULL UNIQUE,
    order_key TEXT NOT NULL,
    user_id INTEGER REFERENCES app_user(id) ON DELETE SET NULL,
    self_token TEXT,
    idempotency_key TEXT UNIQUE,           -- scoped by the caller in the code that writes it
    customer_name TEXT NOT NULL,
    phone TEXT NOT NULL,
    emergency_phone TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL,
    division TEXT NOT NULL DEFAULT '',
    district TEXT NOT NULL,
    thana TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    payment_method TEXT NOT NULL,          -- cash_on_delivery, debitcredit, nagad, bkash, mobilebanking
    payment_term_status TEXT NOT NULL,     -- COD, Pending, Successful, Partial, Failed
    order_status TEXT NOT NULL DEFAULT 'placed',
    currency TEXT NOT NULL DEFAULT 'BDT',
    total_amount INTEGER NOT NULL CHECK (total_amount >= 0),
    delivery_fee INTEGER NOT NULL DEFAULT 0 CHECK (delivery_fee >= 0),
    coupon_code TEXT,
    coupon_discount INTEGER NOT NULL DEFAULT 0 CHECK (coupon_discount >= 0),
    grand_total INTEGER NOT NULL CHECK (grand_total >= 0),
    paying_amount INTEGER,                 -- pre-booking part payment asked for
    amount_paid INTEGER NOT NULL DEFAULT 0 CHECK (amount_paid >= 0),
    trans_id TEXT NOT NULL DEFAULT '',
    ordered_at INTEGER NOT NULL DEFAULT (unixepoch()),
    delivery_date INTEGER,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX order_master_user ON order_master(user_id, ordered_at);
CREATE INDEX order_master_phone ON order_master(phone);

CREATE TABLE order_detail (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES order_master(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id),
    variation_id INTEGER REFERENCES product_variation(id),
    product_set_id INTEGER REFERENCES product_set(id),
    fabric_id INTEGER REFERENCES fabric(id),
    product_code TEXT NOT NULL,
    name TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    qty INTEGER NOT NULL CHECK (qty > 0),
    local_selling_price INTEGER NOT NULL,  -- list price per unit at order time
    local_purchase_price INTEGER NOT NULL, -- price paid per unit
    total_purchase_price INTEGER NOT NULL,
    flash_item_id INTEGER REFERENCES flash_item(id) ON DELETE SET NULL,
    item_json TEXT NOT NULL DEFAULT '{}',  -- the cart line as it was
    od_status TEXT NOT NULL DEFAULT 'placed',
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX order_detail_order ON order_detail(order_id);

CREATE TABLE order_status_history (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES order_master(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX order_status_history_order ON order_status_history(order_id);

-- One attempt to pay an order through a gateway.
CREATE TABLE payment (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES order_master(id) ON DELETE CASCADE,
    gateway TEXT NOT NULL,                 -- sslcommerz, nagad
    tran_id TEXT NOT NULL UNIQUE,
    amount INTEGER NOT NULL CHECK (amount > 0),
    status TEXT NOT NULL DEFAULT 'initiated', -- initiated, validated, failed, cancelled
    gateway_ref TEXT NOT NULL DEFAULT '',
    raw TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX payment_order ON payment(order_id);

CREATE TABLE review (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
    order_detail_id INTEGER REFERENCES order_detail(id) ON DELETE SET NULL,
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    comment TEXT NOT NULL,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    UNIQUE (user_id, product_id)
);
CREATE INDEX review_product ON review(product_id);

CREATE TABLE product_question (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES app_user(id) ON DELETE SET NULL,
    username TEXT NOT NULL,
    description TEXT NOT NULL,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_question_product ON product_question(product_id, created_at);

CREATE TABLE product_question_answer (
    id INTEGER PRIMARY KEY,
    question_id INTEGER NOT NULL REFERENCES product_question(id) ON DELETE CASCADE,
    description TEXT NOT NULL,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE product_comment (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    user_id INTEGER REFERENCES app_user(id) ON DELETE SET NULL,
    username TEXT NOT NULL,
    comment TEXT NOT NULL,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_comment_product ON product_comment(product_id, created_at);

CREATE TABLE newsletter_subscriber (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
