-- The catalogue: everything the public pages show. Shop staff edit these rows
-- from an admin system outside this project; triggers (0004) log each change.
--
-- Conventions for every migration in this folder:
--   * table names are singular and lower case; `app_user` because `user` is
--     reserved in PostgreSQL;
--   * money is INTEGER whole taka, never floating point; rates are INTEGER
--     basis points (1/100 of a percent);
--   * instants are INTEGER unix seconds (UTC); the shop's time zone
--     (Asia/Dhaka, UTC+6) is applied when showing them;
--   * flags are INTEGER 0/1 with a CHECK;
--   * every table has created_at and updated_at; the code that updates a row
--     sets updated_at.
-- Applied migrations are never edited: add a new file instead.

-- An uploaded image. The paths are relative to the origin's /storage/ root,
-- e.g. `storage/uploads/fullsize/2024-01/bed-12.jpg`.
CREATE TABLE image_file (
    id INTEGER PRIMARY KEY,
    original_name TEXT NOT NULL,
    filename TEXT NOT NULL,
    file_type TEXT NOT NULL,               -- MIME type, e.g. image/webp
    file_size INTEGER NOT NULL CHECK (file_size >= 0),
    file_extension TEXT NOT NULL,
    full_size_directory TEXT NOT NULL,
    icon_size_directory TEXT NOT NULL,
    width INTEGER NOT NULL DEFAULT 0,
    height INTEGER NOT NULL DEFAULT 0,
    status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
    user_id INTEGER,                       -- the staff member who uploaded it (admin system)
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- The category tree ("terms" in the original). Id 1 is the root, seo_url
-- `products`, meaning "all products". `type` separates product categories from
-- the interior-gallery categories and the post categories.
CREATE TABLE category (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_bn TEXT,                          -- Bangla name, used by search
    seo_url TEXT NOT NULL UNIQUE,
    seo_h1 TEXT, seo_h2 TEXT, seo_h3 TEXT, seo_h4 TEXT, seo_h5 TEXT,
    type TEXT NOT NULL DEFAULT 'product' CHECK (type IN ('product', 'interior', 'post')),
    position INTEGER NOT NULL DEFAULT 0,
    serial INTEGER NOT NULL DEFAULT 0,
    cssid TEXT, cssclass TEXT,
    description TEXT,
    keywords TEXT,
    parent INTEGER REFERENCES category(id) ON DELETE RESTRICT,
    connected_with INTEGER,
    page_image INTEGER REFERENCES image_file(id),
    home_image INTEGER REFERENCES image_file(id),
    term_menu_icon TEXT,
    term_menu_arrow TEXT,
    with_sub_menu INTEGER NOT NULL DEFAULT 0 CHECK (with_sub_menu IN (0, 1)),
    sub_menu_width TEXT,
    column_count INTEGER NOT NULL DEFAULT 1,
    timespan_id INTEGER,
    is_published INTEGER NOT NULL DEFAULT 1 CHECK (is_published IN (0, 1)),
    in_product_home INTEGER NOT NULL DEFAULT 0 CHECK (in_product_home IN (0, 1)),
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    banner1 INTEGER REFERENCES image_file(id),
    banner2 INTEGER REFERENCES image_file(id),
    home_img INTEGER REFERENCES image_file(id),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX category_parent ON category(parent);

-- A product. `price_before` is the list price (the original's
-- local_selling_price); `price_now` the regular selling price after the
-- product's own discount. A running flash sale may lower it further
-- (flash_item); that overlay is computed in catalog::pricing, never stored here.
CREATE TABLE product (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    product_code TEXT NOT NULL UNIQUE,     -- e.g. SDC-201
    sku TEXT NOT NULL UNIQUE,
    seo_url TEXT NOT NULL UNIQUE,
    short_description TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',  -- HTML written by staff
    price_before INTEGER NOT NULL CHECK (price_before >= 0),
    price_now INTEGER NOT NULL CHECK (price_now >= 0 AND price_now <= price_before),
    stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
    cash_on_delivery INTEGER NOT NULL DEFAULT 1 CHECK (cash_on_delivery IN (0, 1)),
    pre_booking INTEGER NOT NULL DEFAULT 0 CHECK (pre_booking IN (0, 1)),
    -- minimum part payment for a pre-booking, in percent of the price
    pre_booking_min_percent INTEGER NOT NULL DEFAULT 0 CHECK (pre_booking_min_percent BETWEEN 0 AND 100),
    emi_available INTEGER NOT NULL DEFAULT 0 CHECK (emi_available IN (0, 1)),
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    disable_buy INTEGER NOT NULL DEFAULT 0 CHECK (disable_buy IN (0, 1)),
    new_arrival INTEGER NOT NULL DEFAULT 0 CHECK (new_arrival IN (0, 1)),
    recommended INTEGER NOT NULL DEFAULT 0 CHECK (recommended IN (0, 1)),
    recommended_serial INTEGER NOT NULL DEFAULT 0,
    best_selling INTEGER NOT NULL DEFAULT 0 CHECK (best_selling IN (0, 1)),
    enable_comment INTEGER NOT NULL DEFAULT 1 CHECK (enable_comment IN (0, 1)),
    enable_review INTEGER NOT NULL DEFAULT 1 CHECK (enable_review IN (0, 1)),
    enable_variation INTEGER NOT NULL DEFAULT 0 CHECK (enable_variation IN (0, 1)),
    variation_show_as TEXT NOT NULL DEFAULT 'button',
    -- a score (views and sales) used to sort by popularity and to break search ties
    popularity INTEGER NOT NULL DEFAULT 0,
    delivery_time TEXT NOT NULL DEFAULT '',
    pro_warranty TEXT NOT NULL DEFAULT '',
    care_info TEXT NOT NULL DEFAULT '',
    seo_title TEXT, seo_description TEXT, seo_keywords TEXT,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_price_now ON product(price_now);
CREATE INDEX product_created ON product(created_at);
CREATE INDEX product_popularity ON product(popularity);

CREATE TABLE product_category (
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    category_id INTEGER NOT NULL REFERENCES category(id) ON DELETE CASCADE,
    is_primary INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (product_id, category_id)
);
CREATE INDEX product_category_category ON product_category(category_id, product_id);

CREATE TABLE product_image (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    image_file_id INTEGER NOT NULL REFERENCES image_file(id),
    sort INTEGER NOT NULL DEFAULT 0,
    is_main INTEGER NOT NULL DEFAULT 0 CHECK (is_main IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_image_product ON product_image(product_id, sort);

-- The 36 frames of a 360-degree view, in turning order.
CREATE TABLE product_360_frame (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    image_file_id INTEGER NOT NULL REFERENCES image_file(id),
    frame_no INTEGER NOT NULL CHECK (frame_no >= 0),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    UNIQUE (product_id, frame_no)
);

CREATE TABLE product_video (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    url TEXT NOT NULL,                     -- an embeddable video URL (YouTube in the original)
    title TEXT NOT NULL DEFAULT '',
    poster_image_id INTEGER REFERENCES image_file(id),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_video_product ON product_video(product_id);

-- Card instalments offered for a product by a bank.
CREATE TABLE product_emi (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    bank TEXT NOT NULL,
    months INTEGER NOT NULL CHECK (months > 0),
    interest_bp INTEGER NOT NULL DEFAULT 0 CHECK (interest_bp >= 0),  -- basis points per year
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_emi_product ON product_emi(product_id);

-- Attributes (material, colour, size...) and their values are the listing filters.
CREATE TABLE attribute (
    id INTEGER PRIMARY KEY,
    field_label TEXT NOT NULL,             -- shown: "Material"
    field_name TEXT NOT NULL UNIQUE,       -- in query strings: filterby_material
    is_filterable INTEGER NOT NULL DEFAULT 1 CHECK (is_filterable IN (0, 1)),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE attribute_value (
    id INTEGER PRIMARY KEY,
    attribute_id INTEGER NOT NULL REFERENCES attribute(id) ON DELETE CASCADE,
    value TEXT NOT NULL,
    slug TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    UNIQUE (attribute_id, slug)
);

CREATE TABLE product_attribute (
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    attribute_value_id INTEGER NOT NULL REFERENCES attribute_value(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (product_id, attribute_value_id)
);
CREATE INDEX product_attribute_value ON product_attribute(attribute_value_id, product_id);

CREATE TABLE tag (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE product_tag (
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (product_id, tag_id)
);

-- Image tiles linking to a listing or product ("tag gallery" on home and
-- category pages). category_id NULL means the home page's gallery.
CREATE TABLE tag_gallery_item (
    id INTEGER PRIMARY KEY,
    category_id INTEGER REFERENCES category(id) ON DELETE CASCADE,
    term_name TEXT NOT NULL,
    term_url TEXT NOT NULL,
    url TEXT NOT NULL,
    url_type INTEGER NOT NULL DEFAULT 1,   -- 1 internal link, 0 external
    image_file_id INTEGER NOT NULL REFERENCES image_file(id),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX tag_gallery_item_category ON tag_gallery_item(category_id, sort);

-- A variation of a product (a colour or size) with its own code, price and image.
CREATE TABLE product_variation (
    id INTEGER PRIMARY KEY,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    attribute TEXT NOT NULL,               -- the group title, e.g. "Colour"
    value TEXT NOT NULL,                   -- e.g. "Walnut"
    product_code TEXT NOT NULL UNIQUE,
    sub_title TEXT NOT NULL DEFAULT '',
    price_before INTEGER NOT NULL CHECK (price_before >= 0),
    price_now INTEGER NOT NULL CHECK (price_now >= 0 AND price_now <= price_before),
    stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
    image_file_id INTEGER REFERENCES image_file(id),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX product_variation_product ON product_variation(product_id, sort);

-- Bundles (a bedroom set...) sold as one cart line, in a choice of fabrics.
CREATE TABLE product_set (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    slug TEXT NOT NULL UNIQUE,
    category_id INTEGER REFERENCES category(id),
    image_file_id INTEGER REFERENCES image_file(id),
    description TEXT NOT NULL DEFAULT '',
    price_info TEXT NOT NULL DEFAULT '',
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE product_set_item (
    product_set_id INTEGER NOT NULL REFERENCES product_set(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    qty INTEGER NOT NULL DEFAULT 1 CHECK (qty > 0),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (product_set_id, product_id)
);

CREATE TABLE fabric (
    id INTEGER PRIMARY KEY,
    product_set_id INTEGER NOT NULL REFERENCES product_set(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    image_file_id INTEGER REFERENCES image_file(id),
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX fabric_set ON fabric(product_set_id);

CREATE TABLE fabric_image (
    id INTEGER PRIMARY KEY,
    fabric_id INTEGER NOT NULL REFERENCES fabric(id) ON DELETE CASCADE,
    image_file_id INTEGER NOT NULL REFERENCES image_file(id),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- "Additional info" blocks of a product set (dimensions, care, delivery...).
CREATE TABLE product_set_info (
    id INTEGER PRIMARY KEY,
    product_set_id INTEGER NOT NULL REFERENCES product_set(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Flash sales: a schedule (start and end instants) and its discounted items.
CREATE TABLE flash_schedule (
    id INTEGER PRIMARY KEY,
    fs_name TEXT NOT NULL,
    fs_description TEXT NOT NULL DEFAULT '',
    starts_at INTEGER NOT NULL,            -- unix seconds, inclusive
    ends_at INTEGER NOT NULL,              -- unix seconds, exclusive
    show_price INTEGER NOT NULL DEFAULT 1 CHECK (show_price IN (0, 1)),
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK (ends_at > starts_at)
);
CREATE INDEX flash_schedule_time ON flash_schedule(starts_at, ends_at);

CREATE TABLE flash_item (
    id INTEGER PRIMARY KEY,
    schedule_id INTEGER NOT NULL REFERENCES flash_schedule(id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES product(id) ON DELETE CASCADE,
    discount_percent INTEGER NOT NULL CHECK (discount_percent BETWEEN 1 AND 90),
    show_tag INTEGER NOT NULL DEFAULT 1 CHECK (show_tag IN (0, 1)),
    qty INTEGER NOT NULL DEFAULT 0 CHECK (qty >= 0),  -- units offered at the sale price; 0 = no cap
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    UNIQUE (schedule_id, product_id)
);
CREATE INDEX flash_item_product ON flash_item(product_id);
