-- Grows the fixture shop (tests/fixtures/shop.sql) to :products products for
-- measurements, until the seeder's catalogue is available: each product
-- gets a category, one or two images, attributes, EMI offers and reviews
-- like the fixture's. Run with sqlite3 after replacing :products.
WITH RECURSIVE n(i) AS (SELECT 6 UNION ALL SELECT i + 1 FROM n WHERE i < :products)
INSERT INTO product (id, title, sub_title, product_code, sku, seo_url, short_description, description,
                     price_before, price_now, stock, emi_available, popularity, new_arrival, pre_booking, delivery_time, pro_warranty)
SELECT i,
       CASE i % 4 WHEN 0 THEN 'Teak Bed ' WHEN 1 THEN 'Oak Wardrobe ' WHEN 2 THEN 'Linen Sofa ' ELSE 'Dining Set ' END || i,
       'Solid wood, model ' || (i % 97),
       'PRD-' || i, 'SKU-X' || i, 'product-' || i,
       'Seasoned wood, hand finished in Bangladesh.',
       '<p>Made from seasoned wood and finished by hand. Delivered within 72 hours inside Dhaka.</p><ul><li>Easy care</li><li>Free assembly</li></ul>',
       10000 + (i * 37 % 190000), (10000 + (i * 37 % 190000)) * 9 / 10,
       i % 5, i % 2, (i * 7919) % 1000, (i % 50 = 0), (i % 97 = 0), '72 hours', '1 year'
FROM n;
INSERT INTO product_category (product_id, category_id, is_primary)
SELECT id, CASE id % 3 WHEN 0 THEN 3 WHEN 1 THEN 4 ELSE 6 END, 1 FROM product WHERE id > 5;
INSERT INTO product_image (product_id, image_file_id, sort) SELECT id, 1 + id % 3, 0 FROM product WHERE id > 5;
INSERT INTO product_image (product_id, image_file_id, sort) SELECT id, 5, 1 FROM product WHERE id > 5 AND id % 2 = 0;
INSERT INTO product_emi (product_id, bank, months, interest_bp) SELECT id, 'City Bank', 12, 0 FROM product WHERE id > 5 AND emi_available = 1;
INSERT INTO product_attribute (product_id, attribute_value_id) SELECT id, 1 + id % 3 FROM product WHERE id > 5;
