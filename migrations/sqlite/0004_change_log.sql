-- The change log: one row for every write to a row that a public page or the
-- search index shows. The triggers below fill it, so writes from any tool (the
-- admin system, plain SQL in tests) count. The generator's `watch` and each
-- origin's search index follow it by `id`.
--
-- `entity` names what changed, `entity_id` which one: a change to a product's
-- images, categories, attributes, variations, EMI plans, reviews or questions
-- is logged as `product`; a change to a set's items, fabrics or infos as
-- `product_set`; site-wide settings as `setting` with entity_id 0; the home
-- page's tag gallery as `tag_gallery` with entity_id 0.

CREATE TABLE change_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity TEXT NOT NULL,
    entity_id INTEGER NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
    changed_at INTEGER NOT NULL DEFAULT (unixepoch()),
    created_at INTEGER NOT NULL DEFAULT (unixepoch()),
    updated_at INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE INDEX change_log_entity ON change_log(entity, entity_id);

CREATE TRIGGER product_insert_log AFTER INSERT ON product BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.id, 'insert');
END;

CREATE TRIGGER product_update_log AFTER UPDATE ON product BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.id, 'update');
END;

CREATE TRIGGER product_delete_log AFTER DELETE ON product BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.id, 'delete');
END;

CREATE TRIGGER product_category_insert_log AFTER INSERT ON product_category BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_category_update_log AFTER UPDATE ON product_category BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_category_delete_log AFTER DELETE ON product_category BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_image_insert_log AFTER INSERT ON product_image BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_image_update_log AFTER UPDATE ON product_image BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_image_delete_log AFTER DELETE ON product_image BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_360_frame_insert_log AFTER INSERT ON product_360_frame BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_360_frame_update_log AFTER UPDATE ON product_360_frame BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_360_frame_delete_log AFTER DELETE ON product_360_frame BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_video_insert_log AFTER INSERT ON product_video BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_video_update_log AFTER UPDATE ON product_video BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_video_delete_log AFTER DELETE ON product_video BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_emi_insert_log AFTER INSERT ON product_emi BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_emi_update_log AFTER UPDATE ON product_emi BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_emi_delete_log AFTER DELETE ON product_emi BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_attribute_insert_log AFTER INSERT ON product_attribute BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_attribute_update_log AFTER UPDATE ON product_attribute BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_attribute_delete_log AFTER DELETE ON product_attribute BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_tag_insert_log AFTER INSERT ON product_tag BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_tag_update_log AFTER UPDATE ON product_tag BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_tag_delete_log AFTER DELETE ON product_tag BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_variation_insert_log AFTER INSERT ON product_variation BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_variation_update_log AFTER UPDATE ON product_variation BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_variation_delete_log AFTER DELETE ON product_variation BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER review_insert_log AFTER INSERT ON review BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER review_update_log AFTER UPDATE ON review BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER review_delete_log AFTER DELETE ON review BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_question_insert_log AFTER INSERT ON product_question BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_question_update_log AFTER UPDATE ON product_question BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_question_delete_log AFTER DELETE ON product_question BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER product_comment_insert_log AFTER INSERT ON product_comment BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'insert');
END;

CREATE TRIGGER product_comment_update_log AFTER UPDATE ON product_comment BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', NEW.product_id, 'update');
END;

CREATE TRIGGER product_comment_delete_log AFTER DELETE ON product_comment BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product', OLD.product_id, 'delete');
END;

CREATE TRIGGER category_insert_log AFTER INSERT ON category BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('category', NEW.id, 'insert');
END;

CREATE TRIGGER category_update_log AFTER UPDATE ON category BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('category', NEW.id, 'update');
END;

CREATE TRIGGER category_delete_log AFTER DELETE ON category BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('category', OLD.id, 'delete');
END;

CREATE TRIGGER tag_gallery_item_insert_log AFTER INSERT ON tag_gallery_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('tag_gallery', COALESCE(NEW.category_id, 0), 'insert');
END;

CREATE TRIGGER tag_gallery_item_update_log AFTER UPDATE ON tag_gallery_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('tag_gallery', COALESCE(NEW.category_id, 0), 'update');
END;

CREATE TRIGGER tag_gallery_item_delete_log AFTER DELETE ON tag_gallery_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('tag_gallery', COALESCE(OLD.category_id, 0), 'delete');
END;

CREATE TRIGGER flash_schedule_insert_log AFTER INSERT ON flash_schedule BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('flash_schedule', NEW.id, 'insert');
END;

CREATE TRIGGER flash_schedule_update_log AFTER UPDATE ON flash_schedule BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('flash_schedule', NEW.id, 'update');
END;

CREATE TRIGGER flash_schedule_delete_log AFTER DELETE ON flash_schedule BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('flash_schedule', OLD.id, 'delete');
END;

CREATE TRIGGER flash_item_insert_log AFTER INSERT ON flash_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('flash_schedule', NEW.schedule_id, 'insert');
END;

CREATE TRIGGER flash_item_update_log AFTER UPDATE ON flash_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('flash_schedule', NEW.schedule_id, 'update');
END;

CREATE TRIGGER flash_item_delete_log AFTER DELETE ON flash_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('flash_schedule', OLD.schedule_id, 'delete');
END;

CREATE TRIGGER product_set_insert_log AFTER INSERT ON product_set BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.id, 'insert');
END;

CREATE TRIGGER product_set_update_log AFTER UPDATE ON product_set BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.id, 'update');
END;

CREATE TRIGGER product_set_delete_log AFTER DELETE ON product_set BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', OLD.id, 'delete');
END;

CREATE TRIGGER product_set_item_insert_log AFTER INSERT ON product_set_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.product_set_id, 'insert');
END;

CREATE TRIGGER product_set_item_update_log AFTER UPDATE ON product_set_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.product_set_id, 'update');
END;

CREATE TRIGGER product_set_item_delete_log AFTER DELETE ON product_set_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', OLD.product_set_id, 'delete');
END;

CREATE TRIGGER fabric_insert_log AFTER INSERT ON fabric BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.product_set_id, 'insert');
END;

CREATE TRIGGER fabric_update_log AFTER UPDATE ON fabric BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.product_set_id, 'update');
END;

CREATE TRIGGER fabric_delete_log AFTER DELETE ON fabric BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', OLD.product_set_id, 'delete');
END;

CREATE TRIGGER product_set_info_insert_log AFTER INSERT ON product_set_info BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.product_set_id, 'insert');
END;

CREATE TRIGGER product_set_info_update_log AFTER UPDATE ON product_set_info BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', NEW.product_set_id, 'update');
END;

CREATE TRIGGER product_set_info_delete_log AFTER DELETE ON product_set_info BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('product_set', OLD.product_set_id, 'delete');
END;

CREATE TRIGGER slider_insert_log AFTER INSERT ON slider BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('slider', NEW.id, 'insert');
END;

CREATE TRIGGER slider_update_log AFTER UPDATE ON slider BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('slider', NEW.id, 'update');
END;

CREATE TRIGGER slider_delete_log AFTER DELETE ON slider BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('slider', OLD.id, 'delete');
END;

CREATE TRIGGER menu_item_insert_log AFTER INSERT ON menu_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('menu', NEW.menu_id, 'insert');
END;

CREATE TRIGGER menu_item_update_log AFTER UPDATE ON menu_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('menu', NEW.menu_id, 'update');
END;

CREATE TRIGGER menu_item_delete_log AFTER DELETE ON menu_item BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('menu', OLD.menu_id, 'delete');
END;

CREATE TRIGGER widget_insert_log AFTER INSERT ON widget BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('widget', NEW.id, 'insert');
END;

CREATE TRIGGER widget_update_log AFTER UPDATE ON widget BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('widget', NEW.id, 'update');
END;

CREATE TRIGGER widget_delete_log AFTER DELETE ON widget BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('widget', OLD.id, 'delete');
END;

CREATE TRIGGER setting_insert_log AFTER INSERT ON setting BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('setting', 0, 'insert');
END;

CREATE TRIGGER setting_update_log AFTER UPDATE ON setting BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('setting', 0, 'update');
END;

CREATE TRIGGER setting_delete_log AFTER DELETE ON setting BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('setting', 0, 'delete');
END;

CREATE TRIGGER seo_content_insert_log AFTER INSERT ON seo_content BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('seo_content', NEW.id, 'insert');
END;

CREATE TRIGGER seo_content_update_log AFTER UPDATE ON seo_content BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('seo_content', NEW.id, 'update');
END;

CREATE TRIGGER seo_content_delete_log AFTER DELETE ON seo_content BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('seo_content', OLD.id, 'delete');
END;

CREATE TRIGGER page_insert_log AFTER INSERT ON page BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('page', NEW.id, 'insert');
END;

CREATE TRIGGER page_update_log AFTER UPDATE ON page BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('page', NEW.id, 'update');
END;

CREATE TRIGGER page_delete_log AFTER DELETE ON page BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('page', OLD.id, 'delete');
END;

CREATE TRIGGER post_insert_log AFTER INSERT ON post BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('post', NEW.id, 'insert');
END;

CREATE TRIGGER post_update_log AFTER UPDATE ON post BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('post', NEW.id, 'update');
END;

CREATE TRIGGER post_delete_log AFTER DELETE ON post BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('post', OLD.id, 'delete');
END;

CREATE TRIGGER interior_insert_log AFTER INSERT ON interior BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('interior', NEW.id, 'insert');
END;

CREATE TRIGGER interior_update_log AFTER UPDATE ON interior BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('interior', NEW.id, 'update');
END;

CREATE TRIGGER interior_delete_log AFTER DELETE ON interior BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('interior', OLD.id, 'delete');
END;

CREATE TRIGGER interior_image_insert_log AFTER INSERT ON interior_image BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('interior', NEW.interior_id, 'insert');
END;

CREATE TRIGGER interior_image_update_log AFTER UPDATE ON interior_image BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('interior', NEW.interior_id, 'update');
END;

CREATE TRIGGER interior_image_delete_log AFTER DELETE ON interior_image BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('interior', OLD.interior_id, 'delete');
END;

CREATE TRIGGER showroom_insert_log AFTER INSERT ON showroom BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('showroom', NEW.id, 'insert');
END;

CREATE TRIGGER showroom_update_log AFTER UPDATE ON showroom BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('showroom', NEW.id, 'update');
END;

CREATE TRIGGER showroom_delete_log AFTER DELETE ON showroom BEGIN
    INSERT INTO change_log (entity, entity_id, op) VALUES ('showroom', OLD.id, 'delete');
END;
