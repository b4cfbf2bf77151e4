#!/usr/bin/env bash
# Checks that migrations/postgres matches migrations/sqlite where the Rust code
# can tell: runs the same writes on a fresh SQLite file and a fresh throw-away
# PostgreSQL (scripts/pg.sh) and compares what the change-log triggers wrote
# (`SELECT entity, entity_id, op FROM change_log ORDER BY id`), then the
# tables' columns in order, the named indexes and the foreign keys. On
# PostgreSQL alone: the LISTEN change_log notification, and that a second
# writer waits for the first one's commit (change_log ids in commit order).
# Exits non-zero on any difference.
#
#   migrations/postgres/check-triggers.sh      (PORT=55432 by default; KEEP=1 keeps the work dir)
#
# The statements below are written once and run on both databases, one per
# line. The rows that one statement logs are compared as a set: their order
# within the statement differs where PostgreSQL visits rows in another order
# (a multi-row UPDATE goes by rowid in SQLite, in storage order in
# PostgreSQL) or where foreign keys cascade (see 0004_change_log.sql). Across
# statements the order must be the same.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source scripts/pg.sh

PORT="${PORT:-55432}"
KEEP="${KEEP:-0}"

if ! command -v sqlite3 >/dev/null; then
  step "installing Debian's sqlite3" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends sqlite3
fi
# unixepoch() arrived in SQLite 3.38.
if ! sqlite3 :memory: 'SELECT unixepoch()' >/dev/null 2>&1; then
  echo "sqlite3 $(sqlite3 --version | cut -d' ' -f1) has no unixepoch(): 3.38 or later is needed" >&2
  exit 1
fi
pg_install

WORK="$(mktemp -d)"
chmod o+x "$WORK" # the postgres user (when root) must reach $WORK/pg
cleanup() {
  pg_stop "$WORK/pg" || true
  if [ "$KEEP" = 1 ]; then echo "kept $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

step "PostgreSQL on 127.0.0.1:$PORT ($WORK/pg) and SQLite ($WORK/shop.db)"
URL="$(pg_start "$WORK/pg" "$PORT")"
psql_() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$URL" "$@"; }
for f in migrations/postgres/0*.sql; do
  psql_ --single-transaction -f "$f" # as sqlx: one transaction per file
done
for f in migrations/sqlite/0*.sql; do
  sqlite3 -bail "$WORK/shop.db" <"$f"
done

# One statement per line.
cat >"$WORK/statements.sql" <<'SQL'
-- not logged: fixtures
INSERT INTO image_file (id, original_name, filename, file_type, file_size, file_extension, full_size_directory, icon_size_directory) VALUES (1, 'a.jpg', 'a.jpg', 'image/jpeg', 10, 'jpg', 'storage/uploads/fullsize/a.jpg', 'storage/uploads/icon/a.jpg');
INSERT INTO attribute (id, field_label, field_name) VALUES (1, 'Material', 'filterby_material');
INSERT INTO attribute_value (id, attribute_id, value, slug) VALUES (1, 1, 'Oak', 'oak'), (2, 1, 'Teak', 'teak');
INSERT INTO tag (id, name, slug) VALUES (1, 'Sale', 'sale'), (2, 'New', 'new');
INSERT INTO app_user (id, name, email) VALUES (1, 'Rahim', 'rahim@example.com'), (2, 'Karim', 'karim@example.com');
INSERT INTO division (id, name, name_bn) VALUES (1, 'Dhaka', 'ঢাকা');
INSERT INTO district (id, division_id, name, name_bn, delivery_zone) VALUES (1, 1, 'Dhaka', 'ঢাকা', 'inside_dhaka');
INSERT INTO menu (id, name, location) VALUES (1, 'Header', 'header'), (2, 'Footer', 'footer');
UPDATE tag SET name = 'Offer' WHERE id = 1;
-- category
INSERT INTO category (id, name, seo_url) VALUES (1, 'All products', 'products');
INSERT INTO category (id, name, seo_url, parent, type, with_sub_menu) VALUES (2, 'Beds', 'beds', 1, 'product', TRUE), (3, 'Rooms', 'rooms', 1, 'interior', FALSE), (4, 'Sofas', 'sofas', 1, 'product', FALSE);
UPDATE category SET is_active = FALSE, updated_at = unixepoch() WHERE id = 2;
UPDATE category SET serial = serial + 1 WHERE parent = 1;
UPDATE category SET serial = 0 WHERE id = 999;
-- product
INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now) VALUES (10, 'Bed', 'B-10', 'b10', 'bed-10', 1000, 900);
INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now, new_arrival, cash_on_delivery) VALUES (11, 'Bed 2', 'B-11', 'b11', 'bed-11', 1000, 900, TRUE, FALSE), (12, 'Sofa', 'S-12', 's12', 'sofa-12', 500, 500, FALSE, TRUE), (13, 'Chair', 'C-13', 'c13', 'chair-13', 300, 250, FALSE, TRUE);
UPDATE product SET price_now = 800, updated_at = unixepoch() WHERE id = 10;
UPDATE product SET stock = stock + 1;
UPDATE product SET stock = 0 WHERE id = 999;
INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now) VALUES (14, 'Lamp', 'L-14', 'l14', 'lamp-14', 100, 100);
DELETE FROM product WHERE id = 14;
-- the product's parts, logged as `product`
INSERT INTO product_category (product_id, category_id, is_primary) VALUES (10, 2, TRUE), (11, 2, TRUE), (12, 4, TRUE), (10, 1, FALSE);
UPDATE product_category SET is_primary = FALSE WHERE product_id = 10 AND category_id = 2;
UPDATE product_category SET product_id = 13 WHERE product_id = 12 AND category_id = 4;
DELETE FROM product_category WHERE product_id = 10 AND category_id = 1;
INSERT INTO product_image (id, product_id, image_file_id, sort, is_main) VALUES (1, 10, 1, 0, TRUE), (2, 11, 1, 0, TRUE), (3, 12, 1, 0, TRUE);
UPDATE product_image SET sort = 5 WHERE id = 2;
DELETE FROM product_image WHERE id = 2;
INSERT INTO product_360_frame (id, product_id, image_file_id, frame_no) VALUES (1, 10, 1, 0), (2, 10, 1, 1), (3, 12, 1, 0);
UPDATE product_360_frame SET frame_no = 2 WHERE id = 2;
DELETE FROM product_360_frame WHERE id = 1;
INSERT INTO product_video (id, product_id, url) VALUES (1, 11, 'https://www.youtube.com/embed/x'), (2, 12, 'https://www.youtube.com/embed/y');
UPDATE product_video SET title = 'Tour' WHERE id = 1;
DELETE FROM product_video WHERE id = 1;
INSERT INTO product_emi (id, product_id, bank, months, interest_bp) VALUES (1, 10, 'City Bank', 6, 0), (2, 12, 'EBL', 12, 900);
UPDATE product_emi SET months = 12 WHERE id = 1;
DELETE FROM product_emi WHERE id = 1;
INSERT INTO product_attribute (product_id, attribute_value_id) VALUES (10, 1), (11, 2), (12, 1);
UPDATE product_attribute SET attribute_value_id = 2 WHERE product_id = 10;
DELETE FROM product_attribute WHERE product_id = 11;
INSERT INTO product_tag (product_id, tag_id) VALUES (10, 1), (11, 1), (12, 2);
UPDATE product_tag SET tag_id = 2 WHERE product_id = 11;
DELETE FROM product_tag WHERE product_id = 10;
INSERT INTO product_variation (id, product_id, attribute, value, product_code, price_before, price_now) VALUES (1, 10, 'Colour', 'Walnut', 'B-10-W', 1000, 900), (2, 12, 'Colour', 'Grey', 'S-12-G', 500, 450);
UPDATE product_variation SET stock = 3 WHERE id = 1;
DELETE FROM product_variation WHERE id = 1;
INSERT INTO review (id, product_id, user_id, rating, comment) VALUES (1, 10, 1, 5, 'Solid'), (2, 11, 1, 4, 'Good'), (3, 12, 2, 3, 'Fine');
UPDATE review SET is_active = FALSE WHERE id = 1;
DELETE FROM review WHERE id = 1;
INSERT INTO product_question (id, product_id, user_id, username, description) VALUES (1, 10, 1, 'Rahim', 'Solid wood?'), (2, 11, 1, 'Rahim', 'Size?'), (3, 12, 2, 'Karim', 'Colour?');
INSERT INTO product_question_answer (id, question_id, description) VALUES (1, 1, 'Yes');
UPDATE product_question SET is_active = FALSE WHERE id = 1;
DELETE FROM product_question WHERE id = 1;
INSERT INTO product_comment (id, product_id, user_id, username, comment) VALUES (1, 10, 1, 'Rahim', 'Nice'), (2, 11, 1, 'Rahim', 'Wow'), (3, 12, 2, 'Karim', 'Hm');
UPDATE product_comment SET comment = 'Very nice' WHERE id = 1;
DELETE FROM product_comment WHERE id = 1;
-- the tag gallery: category_id NULL (the home page) is logged as 0
INSERT INTO tag_gallery_item (id, category_id, term_name, term_url, url, image_file_id) VALUES (1, NULL, 'Beds', '/c/beds', '/c/beds', 1), (2, 2, 'Oak beds', '/c/beds', '/c/beds?filterby_material=oak', 1), (3, 4, 'Sofas', '/c/sofas', '/c/sofas', 1);
UPDATE tag_gallery_item SET sort = 1 WHERE id = 1;
UPDATE tag_gallery_item SET category_id = 2 WHERE id = 1;
UPDATE tag_gallery_item SET category_id = NULL WHERE id = 2;
DELETE FROM tag_gallery_item WHERE category_id IS NULL;
INSERT INTO tag_gallery_item (id, category_id, term_name, term_url, url, image_file_id) VALUES (4, NULL, 'Home', '/', '/', 1);
-- flash sales, logged as `flash_schedule`
INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (1, 'Eid', 1700000000, 1700086400), (2, 'Puja', 1700100000, 1700186400);
UPDATE flash_schedule SET ends_at = ends_at + 3600, show_price = FALSE WHERE id = 1;
INSERT INTO flash_item (id, schedule_id, product_id, discount_percent) VALUES (1, 1, 10, 10), (2, 1, 11, 20), (3, 2, 12, 5), (4, 2, 13, 5);
UPDATE flash_item SET discount_percent = 15, show_tag = FALSE WHERE id = 1;
UPDATE flash_item SET schedule_id = 2 WHERE id = 2;
DELETE FROM flash_item WHERE id = 1;
-- product sets, logged as `product_set`
INSERT INTO product_set (id, title, slug, category_id, image_file_id) VALUES (1, 'Bedroom set', 'bedroom-set', 2, 1), (2, 'Living set', 'living-set', 4, 1);
UPDATE product_set SET active = FALSE WHERE id = 2;
INSERT INTO product_set_item (product_set_id, product_id, qty) VALUES (1, 10, 1), (1, 11, 2), (2, 12, 1), (2, 13, 4);
UPDATE product_set_item SET qty = 3 WHERE product_set_id = 1 AND product_id = 11;
UPDATE product_set_item SET product_set_id = 2 WHERE product_set_id = 1 AND product_id = 10;
DELETE FROM product_set_item WHERE product_set_id = 1;
INSERT INTO fabric (id, product_set_id, title, image_file_id) VALUES (1, 1, 'Velvet', 1), (2, 2, 'Linen', 1);
INSERT INTO fabric_image (id, fabric_id, image_file_id) VALUES (1, 1, 1);
UPDATE fabric SET active = FALSE WHERE id = 1;
UPDATE fabric_image SET sort = 1 WHERE id = 1;
DELETE FROM fabric WHERE id = 1;
INSERT INTO product_set_info (id, product_set_id, title) VALUES (1, 1, 'Dimensions'), (2, 2, 'Care');
UPDATE product_set_info SET description = '200 x 180 cm' WHERE id = 1;
DELETE FROM product_set_info WHERE id = 1;
-- content
INSERT INTO slider (id, image_id, url, type, internal) VALUES (1, 1, '/c/beds', 0, TRUE), (2, 1, 'https://example.com', 1, FALSE);
UPDATE slider SET active = FALSE WHERE type = 1;
DELETE FROM slider WHERE id = 2;
INSERT INTO menu_item (id, menu_id, label, link) VALUES (1, 1, 'Beds', '/c/beds'), (2, 1, 'Sofas', '/c/sofas'), (3, 2, 'About', '/page/1');
UPDATE menu_item SET sort = 2 WHERE id = 1;
UPDATE menu_item SET menu_id = 2 WHERE id = 2;
DELETE FROM menu_item WHERE id = 1;
UPDATE menu SET name = 'Top' WHERE id = 1;
INSERT INTO widget (id, name, description) VALUES (5, 'Pre-load advert', '<p>Eid</p>'), (22, 'EMI details', '<p>EMI</p>');
UPDATE widget SET is_active = FALSE WHERE id = 5;
DELETE FROM widget WHERE id = 5;
-- settings: entity_id 0, upserts logged as the insert or update they become
INSERT INTO setting (name, value) VALUES ('com_name', 'Furniture'), ('com_phone', '01700000000');
UPDATE setting SET value = 'Furniture Ltd' WHERE name = 'com_name';
INSERT INTO setting (name, value) VALUES ('com_name', 'Furniture BD') ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = unixepoch();
INSERT INTO setting (name, value) VALUES ('disable_buy', '0') ON CONFLICT (name) DO UPDATE SET value = excluded.value;
INSERT INTO setting (name, value) VALUES ('com_phone', '01800000000') ON CONFLICT DO NOTHING;
DELETE FROM setting WHERE name = 'com_phone';
INSERT INTO seo_content (id, post_type, post_id, meta_title) VALUES (1, 'product', 10, 'Bed'), (2, 'category', 2, 'Beds');
UPDATE seo_content SET meta_description = 'Beds' WHERE id = 2;
DELETE FROM seo_content WHERE id = 1;
INSERT INTO page (id, title, seo_url, is_sticky) VALUES (1, 'About', 'about', TRUE), (2, 'Terms', 'terms', FALSE);
UPDATE page SET is_active = FALSE WHERE id = 2;
DELETE FROM page WHERE id = 2;
INSERT INTO post (id, kind, title, seo_url, published_at) VALUES (1, 'blog', 'Care', 'care', 1700000000), (2, 'news', 'Opening', 'opening', 1700000000);
INSERT INTO post_image (id, post_id, image_file_id) VALUES (1, 1, 1);
UPDATE post SET title = 'Wood care' WHERE id = 1;
UPDATE post_image SET sort = 1 WHERE id = 1;
DELETE FROM post WHERE id = 1;
INSERT INTO interior (id, title, slug, image_id, category_id) VALUES (1, 'Bedroom', 'bedroom', 1, 3), (2, 'Lounge', 'lounge', 1, 3);
UPDATE interior SET active = FALSE WHERE id = 2;
INSERT INTO interior_image (id, interior_id, image_id) VALUES (1, 1, 1), (2, 2, 1), (3, 2, 1);
UPDATE interior_image SET caption = 'Morning' WHERE id = 1;
UPDATE interior_image SET interior_id = 1 WHERE id = 2;
DELETE FROM interior_image WHERE id = 1;
INSERT INTO showroom (id, title, seo_url, district_id, latitude, longitude) VALUES (1, 'Gulshan', 'gulshan', 1, 23.79, 90.41), (2, 'Chat', 'chat', 1, NULL, NULL);
UPDATE showroom SET shop_type = 'Chatbuy', is_active = FALSE WHERE id = 2;
DELETE FROM showroom WHERE id = 2;
-- not logged: shoppers' rows
INSERT INTO cart (id, user_id, terms_accepted) VALUES (1, 2, TRUE);
INSERT INTO cart_item (id, cart_id, product_id, item_code, qty) VALUES (1, 1, 12, 'S-12', 1);
INSERT INTO wishlist_item (id, user_id, product_id) VALUES (1, 2, 12);
INSERT INTO newsletter_subscriber (id, email) VALUES (1, 'a@example.com') ON CONFLICT (email) DO NOTHING;
-- a transaction, and a rolled-back one (nothing logged)
BEGIN; UPDATE product SET popularity = popularity + 1 WHERE id IN (10, 12); UPDATE widget SET special = 'x'; COMMIT;
BEGIN; UPDATE product SET popularity = 0; DELETE FROM widget; ROLLBACK;
-- foreign keys that cascade or set NULL
DELETE FROM app_user WHERE id = 1;
DELETE FROM product WHERE id = 10;
UPDATE product_set SET category_id = NULL WHERE id = 1;
DELETE FROM category WHERE id = 2;
DELETE FROM product_set WHERE id = 2;
DELETE FROM flash_schedule WHERE id = 2;
DELETE FROM menu WHERE id = 2;
DELETE FROM interior WHERE id = 2;
DELETE FROM cart WHERE id = 1;
DELETE FROM product WHERE id IN (11, 12, 13);
DELETE FROM flash_schedule;
DELETE FROM interior WHERE category_id = 3;
DELETE FROM category WHERE id <> 1;
DELETE FROM setting;
SQL

# The statements with a marker row after each (entity '~', entity_id = the
# statement's line), so that each logged row can be attributed to its statement.
awk '{ print } /^[^-]/ { printf "INSERT INTO change_log (entity, entity_id, op) VALUES (%s, %d, %s);\n", "'"'~'"'", NR, "'"'insert'"'" }' \
  "$WORK/statements.sql" >"$WORK/run.sql"

step "the same statements on both"
sqlite3 -bail "$WORK/shop.db" <<<"PRAGMA foreign_keys = ON;
.read $WORK/run.sql"
psql_ -f "$WORK/run.sql"

LOG_QUERY="SELECT (SELECT min(m.entity_id) FROM change_log m WHERE m.entity = '~' AND m.id > c.id), \
c.entity, c.entity_id, c.op FROM change_log c WHERE c.entity <> '~' ORDER BY c.id"
sqlite3 "$WORK/shop.db" "$LOG_QUERY" >"$WORK/sqlite.log"
psql_ -At -c "$LOG_QUERY" >"$WORK/pg.log"

# Ordered by statement, each statement's rows sorted.
normalise() {
  sort -t'|' -s -k1,1n -k2 "$1"
}
status=0
rows="$(wc -l <"$WORK/sqlite.log")"
if [ "$rows" -lt 100 ]; then
  echo "FAIL: only $rows change_log rows on SQLite: did the statements run?" >&2
  status=1
fi
if diff <(normalise "$WORK/sqlite.log") <(normalise "$WORK/pg.log") >"$WORK/log.diff"; then
  echo "change_log: the same $rows rows (statement line|entity|entity_id|op)"
  if ! cmp -s "$WORK/sqlite.log" "$WORK/pg.log"; then
    echo "  (in another order within the statements on lines $(diff "$WORK/sqlite.log" "$WORK/pg.log" |
      awk -F'[ |]' '/^[<>]/ { print $2 }' | sort -nu | paste -sd' ' -))"
  fi
else
  echo "FAIL: change_log differs (< SQLite, > PostgreSQL; statement line|entity|entity_id|op):" >&2
  cat "$WORK/log.diff" >&2
  status=1
fi
# Every table with triggers in SQLite must have been written to above.
logged_tables="$(sqlite3 "$WORK/shop.db" "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY 1")"
for t in $logged_tables; do
  for op in INSERT UPDATE DELETE; do
    grep -qiE "^$op (INTO |FROM )?$t\b" "$WORK/statements.sql" ||
      grep -qiE "^BEGIN;.* $op (INTO |FROM )?$t\b" "$WORK/statements.sql" || {
      echo "FAIL: no $op on $t in the statements" >&2
      status=1
    }
  done
done
pg_triggers="$(psql_ -At -c "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger
  WHERE NOT tgisinternal AND tgrelid <> 'change_log'::regclass ORDER BY 1")"
if [ "$logged_tables" != "$pg_triggers" ]; then
  echo "FAIL: tables with change-log triggers differ:" >&2
  diff <(echo "$logged_tables") <(echo "$pg_triggers") >&2 || true
  status=1
fi

step "columns, named indexes, foreign keys"
compare() { # NAME SQLITE_QUERY PG_QUERY
  if diff <(sqlite3 "$WORK/shop.db" "$2") <(psql_ -At -c "$3") >"$WORK/schema.diff"; then
    echo "$1: the same ($(sqlite3 "$WORK/shop.db" "$2" | wc -l))"
  else
    echo "FAIL: $1 differ (< SQLite, > PostgreSQL):" >&2
    cat "$WORK/schema.diff" >&2
    status=1
  fi
}
compare "columns (table.column in order)" \
  "SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p
   WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid" \
  "SELECT table_name || '.' || column_name FROM information_schema.columns
   WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
compare "named indexes (table.index)" \
  "SELECT tbl_name || '.' || name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1" \
  "SELECT tablename || '.' || indexname FROM pg_indexes WHERE schemaname = 'public'
   AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY 1"
compare "foreign keys (table.column -> table.column on delete)" \
  "SELECT m.name || '.' || f.\"from\" || ' -> ' || f.\"table\" || '.' || COALESCE(f.\"to\", 'id') || ' ' || f.on_delete
   FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = 'table' ORDER BY 1" \
  "SELECT c.conrelid::regclass || '.' || a.attname || ' -> ' || c.confrelid::regclass || '.' || r.attname || ' ' ||
     CASE c.confdeltype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE'
       WHEN 'n' THEN 'SET NULL' ELSE 'SET DEFAULT' END
   FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
   JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1]
   WHERE c.contype = 'f' ORDER BY 1"

step "PostgreSQL: LISTEN change_log"
# psql prints a notification after the command during which it arrived.
listened="$("$PG_BIN/psql" -X "$URL" -c 'LISTEN change_log' \
  -c "INSERT INTO widget (id, name) VALUES (900, 'notify')" -c 'SELECT 1' 2>&1)"
if grep -q 'Asynchronous notification "change_log"' <<<"$listened"; then
  echo "a write to a logged table notifies change_log"
else
  echo "FAIL: no notification on channel change_log" >&2
  status=1
fi

step "PostgreSQL: change_log ids in commit order"
# A writes a logged row and holds its transaction open for 3 s; B, starting
# meanwhile, must wait for A's commit (and so see A's row right after its own
# write) and get the bigger id.
"$PG_BIN/psql" -X -q "$URL" -c "BEGIN; INSERT INTO widget (id, name) VALUES (901, 'A');
  SELECT pg_sleep(3); COMMIT;" >/dev/null &
a_pid=$!
for _ in $(seq 50); do
  granted="$(psql_ -At -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")"
  [ "$granted" = 0 ] || break
  sleep 0.1
done
b_saw="$(psql_ -At -c "INSERT INTO widget (id, name) VALUES (902, 'B')" \
  -c "SELECT count(*) FROM widget WHERE id = 901")"
wait "$a_pid"
order="$(psql_ -At -c "SELECT string_agg(entity_id::text, ',' ORDER BY id) FROM change_log
  WHERE entity = 'widget' AND entity_id IN (901, 902)")"
if [ "$granted" != 0 ] && [ "$b_saw" = 1 ] && [ "$order" = "901,902" ]; then
  echo "the second writer waited for the first one's commit; ids $order in commit order"
else
  echo "FAIL: lock seen: $granted, B saw A's row: $b_saw, log order: $order" >&2
  status=1
fi

if [ "$status" = 0 ]; then step "PostgreSQL and SQLite agree"; else step "DIFFERENCES (see above)"; fi
exit "$status"
