-- Content around the catalogue: sliders, menus, widgets, settings, SEO texts,
-- CMS pages, posts, interior galleries, showrooms, the districts, delivery
-- charges and coupons. Conventions: see 0001_catalogue.sql.

CREATE TABLE slider (
    id INTEGER PRIMARY KEY,
    image_id INTEGER NOT NULL REFERENCES image_file(id),
    url TEXT NOT NULL DEFAULT '',          -- e.g. /c/bedroom
    title TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    type INTEGER NOT NULL DEFAULT 0 CHECK (type IN (0, 1)),        -- 0 main banner, 1 featured
    internal INTEGER NOT NULL DEFAULT 1 CHECK (internal IN (0, 1)),-- 1: url is a path of this shop
    device INTEGER NOT NULL DEFAULT 0,     -- 0 all devices, 1 desktop, 2 mobile
    color_code TEXT NOT NULL DEFAULT '',
    text_color TEXT NOT NULL DEFAULT '',
    border_bottom TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Menus: header top links (1), child menus (11), child sub-menus (12), the
-- product tree of the side menu (items under parent 21) and the footer columns.
CREATE TABLE menu (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',        -- a footer column's heading
    location TEXT NOT NULL DEFAULT '',     -- header, header_child, header_child_sub, products, footer
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE menu_item (
    id INTEGER PRIMARY KEY,
    menu_id INTEGER NOT NULL REFERENCES menu(id) ON DELETE CASCADE,
    parent INTEGER NOT NULL DEFAULT 0,     -- 0 top level; the original grouped the product tree under 21
    label TEXT NOT NULL,
    link TEXT NOT NULL,
    sort INTEGER NOT NULL DEFAULT 0,
    class TEXT NOT NULL DEFAULT '',
    depth INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX menu_item_menu ON menu_item(menu_id, sort);

-- HTML blocks edited by staff. Id 5 is the pre-load advert, 22 the EMI details.
CREATE TABLE widget (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL DEFAULT 'html',
    cssid TEXT NOT NULL DEFAULT '',
    cssclass TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',  -- HTML
    special TEXT NOT NULL DEFAULT '',
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Site-wide settings as name/value pairs (com_name, com_phone, disable_buy,
-- home_category...). The API returns them as one `setting` object.
CREATE TABLE setting (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- SEO texts for one product, category, page or post.
CREATE TABLE seo_content (
    id INTEGER PRIMARY KEY,
    post_type TEXT NOT NULL CHECK (post_type IN ('product', 'category', 'page', 'post')),
    post_id INTEGER NOT NULL,
    meta_title TEXT NOT NULL DEFAULT '',
    meta_description TEXT NOT NULL DEFAULT '',
    meta_keywords TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    UNIQUE (post_type, post_id)
);

-- CMS pages served at /page/{id}.
CREATE TABLE page (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    seo_url TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',  -- HTML
    image_file_id INTEGER REFERENCES image_file(id),
    is_sticky INTEGER NOT NULL DEFAULT 0 CHECK (is_sticky IN (0, 1)),
    lang TEXT NOT NULL DEFAULT 'en',
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Blog posts and news-events.
CREATE TABLE post (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('blog', 'news')),
    title TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    seo_url TEXT NOT NULL UNIQUE,
    short_description TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',  -- HTML
    image_file_id INTEGER REFERENCES image_file(id),
    author TEXT NOT NULL DEFAULT '',
    published_at INTEGER NOT NULL,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX post_kind ON post(kind, published_at);

CREATE TABLE post_image (
    id INTEGER PRIMARY KEY,
    post_id INTEGER NOT NULL REFERENCES post(id) ON DELETE CASCADE,
    image_file_id INTEGER NOT NULL REFERENCES image_file(id),
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Interior galleries ("/gallery"): a finished room, with its photos. Their
-- categories are category rows of type 'interior'.
CREATE TABLE interior (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    sub_title TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    image_id INTEGER NOT NULL REFERENCES image_file(id),
    category_id INTEGER REFERENCES category(id),
    user_id INTEGER,
    active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX interior_category ON interior(category_id);

CREATE TABLE interior_image (
    id INTEGER PRIMARY KEY,
    interior_id INTEGER NOT NULL REFERENCES interior(id) ON DELETE CASCADE,
    image_id INTEGER NOT NULL REFERENCES image_file(id),
    title TEXT NOT NULL DEFAULT '',
    caption TEXT NOT NULL DEFAULT '',
    info TEXT NOT NULL DEFAULT '',
    sort INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- The 8 divisions and 64 districts (shared/data/districts.csv).
CREATE TABLE division (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_bn TEXT NOT NULL,
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

CREATE TABLE district (
    id INTEGER PRIMARY KEY,
    division_id INTEGER NOT NULL REFERENCES division(id),
    name TEXT NOT NULL UNIQUE,
    name_bn TEXT NOT NULL,
    -- other accepted spellings, separated by '|' (Chittagong|Chattogram)
    aliases TEXT NOT NULL DEFAULT '',
    -- which delivery_charge_setting zone the district belongs to
    delivery_zone TEXT NOT NULL DEFAULT 'outside_dhaka' CHECK (delivery_zone IN ('inside_dhaka', 'outside_dhaka')),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Delivery charges per zone: `charge` below `free_from`, nothing from it.
CREATE TABLE delivery_charge_setting (
    zone TEXT PRIMARY KEY CHECK (zone IN ('inside_dhaka', 'outside_dhaka')),
    charge INTEGER NOT NULL CHECK (charge >= 0),
    free_from INTEGER NOT NULL CHECK (free_from >= 0),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);

-- Showrooms and chat-to-buy points.
CREATE TABLE showroom (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    sub_title TEXT NOT NULL DEFAULT '',
    seo_url TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    shop_type TEXT NOT NULL DEFAULT 'Showroom' CHECK (shop_type IN ('Showroom', 'Chatbuy')),
    district_id INTEGER NOT NULL REFERENCES district(id),
    thana TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    opening_hours TEXT NOT NULL DEFAULT '',
    latitude REAL,                         -- coordinates, not money: REAL is fine
    longitude REAL,
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX showroom_district ON showroom(district_id);

CREATE TABLE coupon (
    id INTEGER PRIMARY KEY,
    coupon_code TEXT NOT NULL UNIQUE,
    amount_type TEXT NOT NULL CHECK (amount_type IN ('Percentage', 'Fixed')),
    -- percent (1..100) for Percentage, taka for Fixed
    price INTEGER NOT NULL CHECK (price > 0),
    upto_amount INTEGER,                   -- cap of a percentage discount, taka
    purchase_min INTEGER NOT NULL DEFAULT 0,
    purchase_max INTEGER,                  -- NULL: no upper bound
    used_limit INTEGER,                    -- NULL: unlimited
    used_count INTEGER NOT NULL DEFAULT 0,
    per_user_limit INTEGER,                -- NULL: unlimited
    starts_at INTEGER NOT NULL,
    ends_at INTEGER NOT NULL,
    apply_for TEXT NOT NULL DEFAULT 'all' CHECK (apply_for IN ('all', 'category', 'product')),
    apply_id INTEGER,
    comment TEXT NOT NULL DEFAULT '',
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch()),
    CHECK (ends_at > starts_at),
    CHECK (amount_type = 'Fixed' OR price <= 100)
);
