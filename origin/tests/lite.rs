//! The basic shop without script (`/lite/`), on a real database: the
//! visitor's cookies and their attributes, CSRF refusals, `no-store`, POST
//! then 303 then GET, forms shown again with their values and messages,
//! a cash-on-delivery order placed once however often its form is sent,
//! tracking it, signing up, out and in (the guest's cart coming along), and
//! one visitor never seeing another's cart.

mod common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use catalog::db;
use common::TestShop;

/// A browser without script: its cookies, as the shop set them.
struct Browser<'a> {
    shop: &'a TestShop,
    cookies: Vec<(String, String)>,
    /// Headers sent with every request (`X-Forwarded-Proto`, `Host`).
    extra: Vec<(&'static str, String)>,
}

/// An answer: status, headers, body as text.
struct Page {
    status: StatusCode,
    headers: HeaderMap,
    text: String,
}

impl Page {
    fn location(&self) -> &str {
        self.headers
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    fn set_cookies(&self) -> Vec<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect()
    }

    /// The CSRF value of the page's forms.
    fn csrf(&self) -> String {
        hidden(&self.text, "csrf")
    }

    fn assert_private(&self) {
        assert_eq!(
            self.headers.get("cache-control").unwrap(),
            "private, no-store",
            "{}",
            self.text
        );
    }
}

/// The value of the hidden field `name` in `html`.
fn hidden(html: &str, name: &str) -> String {
    let mark = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&mark)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + mark.len();
    html[start..][..html[start..].find('"').unwrap()].to_string()
}

fn encode(fields: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish()
}

impl<'a> Browser<'a> {
    fn new(shop: &'a TestShop) -> Browser<'a> {
        Browser {
            shop,
            cookies: Vec::new(),
            extra: vec![("host", "shop.example".into())],
        }
    }

    fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    async fn send(&mut self, method: &str, uri: &str, body: Option<String>) -> Page {
        let mut builder = Request::builder()
            .method(method)
            .uri(uri)
            .header("accept", "text/html");
        for (k, v) in &self.extra {
            builder = builder.header(*k, v.as_str());
        }
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            builder = builder.header("cookie", jar.join("; "));
        }
        let request = match body {
            Some(b) => builder
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from(b)),
            None => builder.body(Body::empty()),
        }
        .unwrap();
        let (status, headers, bytes) = self.shop.send_raw(request).await;
        let page = Page {
            status,
            headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        };
        for set in page.set_cookies() {
            let (pair, _) = set.split_once(';').unwrap();
            let (k, v) = pair.split_once('=').unwrap();
            self.cookies.retain(|(name, _)| name != k);
            let gone = set.contains("Max-Age=0");
            if !gone {
                self.cookies.push((k.to_string(), v.to_string()));
            }
        }
        page
    }

    async fn get(&mut self, uri: &str) -> Page {
        self.send("GET", uri, None).await
    }

    async fn post(&mut self, uri: &str, fields: &[(&str, &str)]) -> Page {
        self.send("POST", uri, Some(encode(fields))).await
    }

    /// Sends a product page's Add to cart form as a current browser does: the
    /// static page's form has no CSRF value, and the browser says where it
    /// came from (`Sec-Fetch-Site: same-origin`).
    async fn add_to_cart(&mut self, fields: &[(&str, &str)]) -> Page {
        self.extra.push(("sec-fetch-site", "same-origin".into()));
        let page = self.post("/lite/cart/add", fields).await;
        self.extra.pop();
        page
    }

    /// Sends the basic sign-in form.
    async fn sign_in(&mut self, csrf: &str, login: &str, password: &str) -> Page {
        let fields = [("csrf", csrf), ("login", login), ("password", password)];
        self.post("/lite/login", &fields).await
    }

    /// Sends the basic form that asks for a reset link.
    async fn ask_reset_link(&mut self, csrf: &str, email: &str) -> Page {
        let fields = [("csrf", csrf), ("email", email)];
        self.post("/lite/forgot-password", &fields).await
    }
}

/// An active product outside every flash sale, in stock, payable on
/// delivery, without variations: (id, title).
async fn plain_product(shop: &TestShop) -> (i64, String) {
    db::query_as(
        "SELECT id, title FROM product WHERE is_active = TRUE AND disable_buy = FALSE \
         AND cash_on_delivery = TRUE AND pre_booking = FALSE AND stock >= 5 \
         AND id NOT IN (SELECT product_id FROM flash_item) \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .expect("a plain product")
}

/// Askama's escaping of a title, as the page shows it.
fn escaped(text: &str) -> String {
    text.replace('&', "&#38;")
        .replace('\'', "&#39;")
        .replace('"', "&#34;")
}

#[tokio::test]
async fn the_guest_cookie_is_http_only_lax_and_secure_over_tls() {
    let shop = TestShop::open().await;
    let mut browser = Browser::new(&shop);
    let page = browser.get("/lite/cart").await;
    assert_eq!(page.status, StatusCode::OK);
    page.assert_private();
    assert!(page.text.contains("<h1>Shopping cart</h1>"));
    assert!(page.text.contains("Your cart is empty."));
    assert!(page
        .text
        .contains("<meta name=\"robots\" content=\"noindex\">"));
    let set = page.set_cookies();
    assert_eq!(set.len(), 1, "{set:?}");
    let cookie = &set[0];
    assert!(cookie.starts_with("shop_token="), "{cookie}");
    for part in [
        "; HttpOnly",
        "; SameSite=Lax",
        "; Path=/lite",
        "; Max-Age=31536000",
    ] {
        assert!(cookie.contains(part), "{cookie} lacks {part}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let token = browser.cookie("shop_token").unwrap().to_string();
    assert_eq!(token.len(), 64);
    // The cookie is kept: no new one on the next page.
    let again = browser.get("/lite/checkout").await;
    assert!(again.set_cookies().is_empty());
    again.assert_private();

    // Over TLS (the edge says so) the cookie is Secure.
    let mut tls = Browser::new(&shop);
    tls.extra.push(("x-forwarded-proto", "https".into()));
    let page = tls.get("/lite/login").await;
    assert!(page.set_cookies()[0].ends_with("; Secure"));

    // A cookie that is not a token's shape is replaced.
    let mut odd = Browser::new(&shop);
    odd.cookies.push(("shop_token".into(), "bad value!".into()));
    let page = odd.get("/lite/cart").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_ne!(odd.cookie("shop_token"), Some("bad value!"));

    // Unknown basic pages are a 404 page, private too.
    let page = browser.get("/lite/nothing-here").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    page.assert_private();
    assert!(page.text.contains("Page not found"));
}

#[tokio::test]
async fn forms_without_the_cookies_csrf_value_or_from_elsewhere_are_refused() {
    let shop = TestShop::fresh().await;
    let (pid, _) = plain_product(&shop).await;
    let mut browser = Browser::new(&shop);
    let page = browser.get("/lite/login").await;
    let csrf = page.csrf();
    let added = browser.add_to_cart(&[("main_pid", &pid.to_string())]).await;
    assert_eq!(added.status, StatusCode::SEE_OTHER);
    let cart = browser.get("/lite/cart").await;
    let code = hidden(&cart.text, "code");
    for bad in ["", "00", &"0".repeat(64), &csrf[..60]] {
        let page = browser
            .post(
                "/lite/cart/update",
                &[("csrf", bad), ("code", &code), ("qty", "3")],
            )
            .await;
        assert_eq!(page.status, StatusCode::FORBIDDEN, "{bad:?}");
        page.assert_private();
        assert!(page.text.contains("did not come from this shop"));
        assert!(
            page.text.contains("class=\"btn\" href=\"/lite/cart\""),
            "{}",
            page.text
        );
    }
    // Each form's 403 page leads back to that form's page.
    for (path, back) in [
        ("/lite/checkout", "/lite/checkout"),
        ("/lite/register", "/lite/register"),
        ("/lite/login", "/lite/login"),
        ("/lite/cart/coupon", "/lite/cart"),
    ] {
        let page = browser.post(path, &[("csrf", "00")]).await;
        assert_eq!(page.status, StatusCode::FORBIDDEN, "{path}");
        let link = format!("class=\"btn\" href=\"{back}\"");
        assert!(page.text.contains(&link), "{path}: {}", page.text);
    }
    // Another visitor's value does not fit this cookie.
    let mut other = Browser::new(&shop);
    let theirs = other.get("/lite/login").await.csrf();
    assert_ne!(theirs, csrf);
    let page = browser
        .post(
            "/lite/cart/update",
            &[("csrf", &theirs), ("code", &code), ("qty", "3")],
        )
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    // The right value from another site.
    browser
        .extra
        .push(("origin", "https://evil.example".into()));
    let page = browser
        .post(
            "/lite/cart/update",
            &[("csrf", &csrf), ("code", &code), ("qty", "3")],
        )
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    let page = browser
        .post("/lite/cart/add", &[("main_pid", &pid.to_string())])
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    browser.extra.pop();
    browser.extra.push(("sec-fetch-site", "cross-site".into()));
    let page = browser.post("/lite/logout", &[("csrf", &csrf)]).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    browser.extra.pop();
    // A browser that sends no cookie is told to allow them.
    let mut cookieless = Browser::new(&shop);
    let page = cookieless
        .post("/lite/login", &[("csrf", &csrf), ("login", "a@b.cd")])
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.text.contains("allow cookies"));
    // Nothing changed: still one unit.
    let cart = browser.get("/lite/cart").await;
    assert!(cart.text.contains("value=\"1\" required"), "{}", cart.text);
    // Same site, right value: done.
    browser.extra.push(("origin", "http://shop.example".into()));
    browser.extra.push(("sec-fetch-site", "same-origin".into()));
    let page = browser
        .post(
            "/lite/cart/update",
            &[("csrf", &csrf), ("code", &code), ("qty", "3")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn a_guest_buys_by_cash_on_delivery_and_tracks_the_order() {
    let shop = TestShop::fresh().await;
    let (pid, title) = plain_product(&shop).await;
    let mut browser = Browser::new(&shop);
    // The product page's form: no CSRF value (the page is public), PRG.
    let added = browser
        .add_to_cart(&[("main_pid", &pid.to_string()), ("qty", "1")])
        .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER);
    assert_eq!(added.location(), "/lite/cart?done=added");
    added.assert_private();
    assert!(browser.cookie("shop_token").is_some());
    let cart = browser.get(added.location()).await;
    assert_eq!(cart.status, StatusCode::OK);
    assert!(cart.text.contains("Added to your cart."));
    assert!(cart.text.contains(&escaped(&title)), "{}", cart.text);
    let csrf = cart.csrf();
    let code = hidden(&cart.text, "code");

    // Quantities: a bad one is shown again with a message, nothing changes.
    for bad in ["0", "100", "two", ""] {
        let page = browser
            .post(
                "/lite/cart/update",
                &[("csrf", &csrf), ("code", &code), ("qty", bad)],
            )
            .await;
        assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        assert!(page
            .text
            .contains("A quantity is a whole number from 1 to 99."));
    }
    let page = browser
        .post(
            "/lite/cart/update",
            &[("csrf", &csrf), ("code", "NO-SUCH-CODE"), ("qty", "2")],
        )
        .await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.text.contains("role=\"alert\""));
    let page = browser
        .post(
            "/lite/cart/update",
            &[("csrf", &csrf), ("code", &code), ("qty", "2")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    let cart = browser.get(page.location()).await;
    assert!(cart.text.contains("Your cart is updated."));
    assert!(cart.text.contains("value=\"2\" required"));
    // An unknown product is a 404 on the cart page.
    let page = browser.add_to_cart(&[("main_pid", "999999999")]).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    let page = browser.add_to_cart(&[("main_pid", "x")]).await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);

    // Another visitor sees an empty cart of their own.
    let mut other = Browser::new(&shop);
    let theirs = other.get("/lite/cart").await;
    assert!(theirs.text.contains("Your cart is empty."));

    // Checkout: every field wrong is shown again with the values and notes.
    let checkout = browser.get("/lite/checkout").await;
    assert_eq!(checkout.status, StatusCode::OK);
    assert!(checkout.text.contains("<option>Dhaka</option>"));
    assert!(checkout.text.contains("inputmode=\"tel\""));
    let key = hidden(&checkout.text, "idempotency_key");
    let page = browser
        .post(
            "/lite/checkout",
            &[
                ("csrf", &csrf),
                ("idempotency_key", &key),
                ("name", "R"),
                ("mobile", "12345"),
                ("emergency_mobile", ""),
                ("district", "Atlantis"),
                ("address", "x"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    page.assert_private();
    for text in [
        "Your name is 3 to 100 characters.",
        "A mobile number is 11 digits",
        "Choose one of the 64 districts.",
        "The address is 5 to 500 characters.",
        "You must agree with the terms.",
        "value=\"12345\"",
        "aria-invalid=\"true\"",
    ] {
        assert!(page.text.contains(text), "{text} in {}", page.text);
    }
    assert_eq!(hidden(&page.text, "idempotency_key"), key);
    let fields = [
        ("csrf", csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("name", "Rahima Khatun"),
        ("mobile", "01712345678"),
        ("emergency_mobile", "01812345678"),
        ("email", ""),
        ("district", "Dhaka"),
        ("address", "House 12, Road 3, Mirpur 10"),
        ("terms", "on"),
    ];
    let before = shop.scalar_i64("SELECT COUNT(*) FROM order_master").await;
    let placed = browser.post("/lite/checkout", &fields).await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text);
    let to = placed.location().to_string();
    assert!(to.starts_with("/lite/order/"), "{to}");
    // The same form sent again finds the same order.
    let again = browser.post("/lite/checkout", &fields).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.text);
    assert_eq!(again.location(), to);
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM order_master").await,
        before + 1
    );
    let order = browser.get(&to).await;
    assert_eq!(order.status, StatusCode::OK);
    order.assert_private();
    let number: String =
        db::query_scalar("SELECT order_random FROM order_master ORDER BY id DESC LIMIT 1")
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert!(order
        .text
        .contains(&format!("Your order number is <b>{number}</b>")));
    assert!(order.text.contains("Track this order"));
    // The cart is empty now.
    let cart = browser.get("/lite/cart").await;
    assert!(cart.text.contains("Your cart is empty."));
    // A wrong key shows no order.
    let page = browser.get(&format!("/lite/order/{number}?key=nope")).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);

    // Tracking: a GET form with the number and mobile.
    let empty = other.get("/lite/track-order").await;
    assert_eq!(empty.status, StatusCode::OK);
    let track = other
        .get(&format!(
            "/lite/track-order?number={number}&mobile=01712345678"
        ))
        .await;
    assert_eq!(track.status, StatusCode::OK, "{}", track.text);
    track.assert_private();
    let grand: i64 =
        db::query_scalar("SELECT grand_total FROM order_master WHERE order_random = $1")
            .bind(&number)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    for text in [
        format!("<h2>Order {number}</h2>"),
        "Delivery charge".to_string(),
        catalog::pricing::taka(grand),
        "<th scope=\"row\">Paid</th><td>৳0</td>".to_string(),
        "<th scope=\"row\">Due</th>".to_string(),
        ", Cash on delivery.</p>".to_string(),
    ] {
        assert!(track.text.contains(&text), "{text} in {}", track.text);
    }
    let wrong = other
        .get(&format!(
            "/lite/track-order?number={number}&mobile=01999999999"
        ))
        .await;
    assert_eq!(wrong.status, StatusCode::NOT_FOUND);
    assert!(wrong
        .text
        .contains("No order has that number and mobile number."));
    let bad = other
        .get(&format!("/lite/track-order?number={number}&mobile=abc"))
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text.contains("id=\"mobile-e\""));
}

#[tokio::test]
async fn a_shopper_signs_up_out_and_in_and_keeps_the_guest_cart() {
    let shop = TestShop::fresh().await;
    let (pid, title) = plain_product(&shop).await;
    let mut browser = Browser::new(&shop);
    let page = browser.get("/lite/register").await;
    let csrf = page.csrf();
    // Problems are shown by their fields; passwords are not sent back.
    let page = browser
        .post(
            "/lite/register",
            &[
                ("csrf", &csrf),
                ("name", "Karim Uddin"),
                ("email", "not-an-email"),
                ("password", "short"),
                ("password_confirmation", "short"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.text.contains("value=\"Karim Uddin\""));
    assert!(page.text.contains("id=\"email-e\""));
    assert!(page.text.contains("Please accept the terms."));
    assert!(!page.text.contains("value=\"short\""));
    let email = "karim.lite@example.com";
    let page = browser
        .post(
            "/lite/register",
            &[
                ("csrf", &csrf),
                ("name", "Karim Uddin"),
                ("email", email),
                ("telephone", ""),
                ("password", "a-long-password-1"),
                ("password_confirmation", "a-long-password-1"),
                ("agree", "on"),
            ],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    assert_eq!(page.location(), "/lite/cart?done=registered");
    let auth = page
        .set_cookies()
        .into_iter()
        .find(|c| c.starts_with("shop_auth="))
        .expect("the sign-in cookie");
    assert!(auth.contains("; HttpOnly") && auth.contains("; SameSite=Lax"));
    assert!(auth.contains("; Max-Age=72000"));
    let cart = browser.get("/lite/cart?done=registered").await;
    assert!(cart.text.contains("Signed in as Karim Uddin."));

    // Sign out: the cookie goes and the token stops working.
    let token = browser.cookie("shop_auth").unwrap().to_string();
    let page = browser.post("/lite/logout", &[("csrf", &csrf)]).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert!(page
        .set_cookies()
        .iter()
        .any(|c| c.starts_with("shop_auth=;")));
    assert!(browser.cookie("shop_auth").is_none());
    let (status, _, _) = shop
        .request(
            "GET",
            "/api/auth/user",
            &[("authorization", &format!("Bearer {token}"))],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // A stale sign-in cookie is dropped, and the visitor is a guest.
    browser.cookies.push(("shop_auth".into(), token.clone()));
    let page = browser.get("/lite/login").await;
    assert!(page
        .set_cookies()
        .iter()
        .any(|c| c.starts_with("shop_auth=;")));
    assert!(page.text.contains("<h1>Sign in</h1>"));

    // As a guest again: a product in the cart, then sign in.
    browser.add_to_cart(&[("main_pid", &pid.to_string())]).await;
    let page = browser.sign_in(&csrf, email, "wrong-password").await;
    assert_eq!(page.status, StatusCode::UNAUTHORIZED);
    assert!(page.text.contains("value=\"karim.lite@example.com\""));
    let page = browser.sign_in(&csrf, email, "").await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.text.contains("Enter your password."));
    let page = browser.sign_in(&csrf, email, "a-long-password-1").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    let cart = browser.get(page.location()).await;
    assert!(cart.text.contains("You are signed in."));
    assert!(
        cart.text.contains(&escaped(&title)),
        "the guest cart came along"
    );
    let user_lines = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM cart_item ci JOIN cart c ON c.id = ci.cart_id \
             JOIN app_user u ON u.id = c.user_id WHERE u.email = 'karim.lite@example.com'",
        )
        .await;
    assert_eq!(user_lines, 1);
}

#[tokio::test]
async fn odd_requests_get_fitting_pages() {
    let shop = TestShop::open().await;
    let mut browser = Browser::new(&shop);
    let csrf = browser.get("/lite/login").await.csrf();
    // A body that is not a form, a huge field, a GET where a POST belongs.
    let page = browser
        .send("POST", "/lite/cart/update", Some("%%%&&&==\u{0}".into()))
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    let long = "9".repeat(5000);
    let page = browser
        .post(
            "/lite/cart/update",
            &[("csrf", &csrf), ("code", &long), ("qty", &long)],
        )
        .await;
    assert_eq!(page.status, StatusCode::UNPROCESSABLE_ENTITY);
    let page = browser
        .post("/lite/checkout", &[("csrf", &csrf), ("terms", "on")])
        .await;
    assert_eq!(page.status, StatusCode::CONFLICT);
    assert!(page.text.contains("Your cart is empty."));
    let page = browser.get("/lite/cart/update").await;
    assert_eq!(page.status, StatusCode::METHOD_NOT_ALLOWED);
    let page = browser.get("/lite/order/%00?key=%00").await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    // A NUL byte (which PostgreSQL's text refuses) is a 4xx page, not a 500.
    let page = browser.sign_in(&csrf, "a\u{0}b", "x").await;
    assert!(page.status.is_client_error(), "{}", page.status);
    let page = browser
        .get("/lite/track-order?number=1%002&mobile=01712345678")
        .await;
    assert!(page.status.is_client_error(), "{}", page.status);
    let page = browser
        .post("/lite/cart/remove", &[("csrf", &csrf), ("code", "a\u{0}b")])
        .await;
    assert!(page.status.is_client_error(), "{}", page.status);
    let page = browser
        .get(&format!("/lite/track-order?number={long}&mobile={long}"))
        .await;
    assert!(page.status.is_client_error(), "{}", page.status);
    page.assert_private();
    // The basic shop's own address leads to its cart.
    for path in ["/lite", "/lite/"] {
        let page = browser.get(path).await;
        assert_eq!(page.status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(page.location(), "/lite/cart", "{path}");
    }
}

#[tokio::test]
async fn the_basic_cart_takes_a_coupon_and_says_why_one_does_not_hold() {
    let shop = TestShop::fresh().await;
    // WELCOME10 holds from ৳3,000.
    let (pid,): (i64,) = db::query_as(
        "SELECT id FROM product WHERE is_active = TRUE AND disable_buy = FALSE \
         AND cash_on_delivery = TRUE AND pre_booking = FALSE AND stock >= 5 AND price_now >= 3000 \
         AND id NOT IN (SELECT product_id FROM flash_item) \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .expect("a plain product from ৳3,000");
    let mut browser = Browser::new(&shop);
    let csrf = browser.get("/lite/login").await.csrf();
    // An empty cart takes no coupon.
    let page = browser
        .post(
            "/lite/cart/coupon",
            &[("csrf", &csrf), ("coupon", "WELCOME10")],
        )
        .await;
    assert_eq!(page.status, StatusCode::CONFLICT, "{}", page.text);
    let added = browser.add_to_cart(&[("main_pid", &pid.to_string())]).await;
    let cart = browser.get(added.location()).await;
    assert!(cart
        .text
        .contains("<label for=\"coupon\">Coupon code</label>"));
    let csrf = cart.csrf();
    for (bad, status) in [
        ("NO-SUCH-COUPON", StatusCode::NOT_FOUND),
        ("", StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let page = browser
            .post("/lite/cart/coupon", &[("csrf", &csrf), ("coupon", bad)])
            .await;
        assert_eq!(page.status, status, "{bad}: {}", page.text);
        assert!(page.text.contains("role=\"alert\""), "{bad}");
        assert!(!page.text.contains("Coupon NO-SUCH"), "{bad}");
    }
    // Without the form's CSRF value nothing is applied.
    let page = browser
        .post("/lite/cart/coupon", &[("coupon", "WELCOME10")])
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(!browser
        .get("/lite/cart")
        .await
        .text
        .contains("Coupon WELCOME10"));
    let page = browser
        .post(
            "/lite/cart/coupon",
            &[("csrf", &csrf), ("coupon", " welcome10 ")],
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    assert_eq!(page.location(), "/lite/cart?done=coupon");
    let cart = browser.get(page.location()).await;
    assert!(cart.text.contains("The coupon is applied."));
    assert!(cart.text.contains("Coupon WELCOME10"), "{}", cart.text);
    // The checkout's totals carry it.
    let checkout = browser.get("/lite/checkout").await;
    assert!(
        checkout.text.contains("Coupon WELCOME10"),
        "{}",
        checkout.text
    );
}

#[tokio::test]
async fn the_basic_sign_in_is_throttled_by_the_visitors_address_and_says_the_wait() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let mut browser = Browser::new(&shop);
        browser
            .extra
            .push(("x-forwarded-for", "203.0.113.60".into()));
        let csrf = browser.get("/lite/login").await.csrf();
        let wrong = [
            ("csrf", csrf.as_str()),
            ("login", "demo@example.com"),
            ("password", "wrong-password"),
        ];
        for _ in 0..6 {
            let page = browser.post("/lite/login", &wrong).await;
            assert_eq!(page.status, StatusCode::UNAUTHORIZED, "{}", page.text);
        }
        // The form's calls count against the visitor's address, not the origin's own.
        let by_address = shop
            .scalar_i64("SELECT failures FROM throttle WHERE key = 'login-ip:203.0.113.60'")
            .await;
        assert_eq!(by_address, 6);
        let page = browser.post("/lite/login", &wrong).await;
        assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(page.text.contains("try again in"), "{}", page.text);
    })
    .await
}

#[tokio::test]
async fn a_pre_booking_in_the_basic_cart_is_sent_to_pay_online_not_to_checkout() {
    let shop = TestShop::fresh().await;
    let (pid,): (i64,) = db::query_as(
        "SELECT id FROM product WHERE is_active = TRUE AND disable_buy = FALSE \
         AND pre_booking = TRUE AND stock >= 2 \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .expect("a pre-booking product");
    let mut browser = Browser::new(&shop);
    let added = browser.add_to_cart(&[("main_pid", &pid.to_string())]).await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text);
    let cart = browser.get(added.location()).await;
    assert!(
        !cart.text.contains("href=\"/lite/checkout\""),
        "no cash-on-delivery checkout for a pre-booking"
    );
    assert!(cart
        .text
        .contains("A pre-booking is reserved with a part payment online"));
}

/// Owned form fields as `post` takes them.
fn as_refs<'a>(form: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    form.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[tokio::test]
async fn a_forgotten_password_is_reset_without_script_from_the_sign_in_page() {
    let shop = TestShop::fresh().await;
    let (email, old_password) = common::DEMO;
    let mut browser = Browser::new(&shop);
    browser
        .extra
        .push(("x-forwarded-for", "203.0.113.61".into()));
    // The sign-in page: the script page's label, and the way to a new password.
    let login = browser.get("/lite/login").await;
    assert!(
        login
            .text
            .contains("<label for=\"login\">Email or mobile number</label>"),
        "{}",
        login.text
    );
    assert!(!login.text.contains("E-mail"), "{}", login.text);
    assert!(login
        .text
        .contains("<a href=\"/lite/forgot-password\">Forgot your password?</a>"));
    let register = browser.get("/lite/register").await;
    assert!(register.text.contains("<label for=\"email\">Email</label>"));

    let page = browser.get("/lite/forgot-password").await;
    assert_eq!(page.status, StatusCode::OK);
    page.assert_private();
    assert!(page.text.contains("<h1>Forgot password</h1>"));
    assert!(page.text.contains("<label for=\"email\">Email</label>"));
    let csrf = page.csrf();
    // Without the CSRF value: refused, back to the form.
    let page = browser
        .post("/lite/forgot-password", &[("email", email)])
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.text.contains("href=\"/lite/forgot-password\""));
    // The API's check of the address, shown by the field, the value kept.
    let page = browser.ask_reset_link(&csrf, "not-an-address").await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.text
    );
    assert!(page.text.contains("id=\"email-e\""), "{}", page.text);
    assert!(page.text.contains("value=\"not-an-address\""));
    // An address no account uses gets the same answer, and no mail.
    let page = browser
        .ask_reset_link(&csrf, "nobody.here@example.com")
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    assert_eq!(page.location(), "/lite/forgot-password?done=link-sent");
    assert!(common::outbox(&shop).is_empty());
    let page = browser.ask_reset_link(&csrf, email).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    assert_eq!(page.location(), "/lite/forgot-password?done=link-sent");
    let sent = browser.get(page.location()).await;
    assert!(sent
        .text
        .contains("If an account uses that e-mail, we have sent it a link to reset the password."));

    // The mail leads to the basic reset page.
    let mails = common::outbox(&shop);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0].contains(&format!("To: {email}")), "{}", mails[0]);
    let start = mails[0]
        .find("/lite/reset-password?token=")
        .unwrap_or_else(|| panic!("no basic link in {}", mails[0]));
    let link = mails[0][start..].split_whitespace().next().unwrap();
    let token = common::token_of(link);
    let page = browser.get(link).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("<h1>Reset password</h1>"));
    assert_eq!(hidden(&page.text, "token"), token);
    assert_eq!(hidden(&page.text, "email"), email);
    let csrf = page.csrf();
    let mut form = vec![
        ("csrf", csrf.clone()),
        ("token", token.to_string()),
        ("email", email.to_string()),
        ("password", "a-new-password-2".to_string()),
        ("password_confirmation", "another-password-3".to_string()),
    ];
    let page = browser.post("/lite/reset-password", &as_refs(&form)).await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.text
    );
    assert!(page.text.contains("The two passwords differ."));
    assert_eq!(hidden(&page.text, "token"), token, "the token rides along");
    form[4].1 = "a-new-password-2".to_string();
    let page = browser.post("/lite/reset-password", &as_refs(&form)).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    assert_eq!(page.location(), "/lite/login?done=password-reset");
    let page = browser.get(page.location()).await;
    assert!(page
        .text
        .contains("Your password has been reset. Sign in with the new one."));
    let csrf = page.csrf();

    // The link works once.
    let page = browser.post("/lite/reset-password", &as_refs(&form)).await;
    assert_eq!(
        page.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        page.text
    );
    assert!(page.text.contains("This link is invalid, used or expired."));
    assert!(page.text.contains("href=\"/lite/forgot-password\""));
    // The old password no longer signs in; the new one does.
    let page = browser.sign_in(&csrf, email, old_password).await;
    assert_eq!(page.status, StatusCode::UNAUTHORIZED, "{}", page.text);
    let page = browser.sign_in(&csrf, email, "a-new-password-2").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    assert_eq!(page.location(), "/lite/cart?done=signed-in");

    // The API's limit holds here too: three links an hour per client.
    let page = browser.ask_reset_link(&csrf, email).await;
    assert_eq!(page.status, StatusCode::SEE_OTHER, "{}", page.text);
    let page = browser.ask_reset_link(&csrf, email).await;
    assert_eq!(page.status, StatusCode::TOO_MANY_REQUESTS, "{}", page.text);
    assert!(page.text.contains("Too many reset links asked for."));
    assert!(page.text.contains(&format!("value=\"{email}\"")));
}

/// A tester's finding: `/lite/cart/add` took no CSRF value and relied on the
/// browser's `Origin` and `Sec-Fetch-Site`. A browser that sends neither (an
/// old or proxy browser) is now asked to confirm, with a form that carries
/// the value; a forged request from such a browser adds nothing.
#[tokio::test]
async fn an_add_from_a_browser_that_says_nothing_of_its_origin_is_confirmed_with_the_token() {
    let shop = TestShop::fresh().await;
    let (pid, title) = plain_product(&shop).await;
    let mut browser = Browser::new(&shop);
    let pid = pid.to_string();
    let asked = browser
        .post("/lite/cart/add", &[("main_pid", &pid), ("qty", "2")])
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    assert!(asked.text.contains("Add to your cart?"), "{}", asked.text);
    assert_eq!(hidden(&asked.text, "main_pid"), pid);
    assert_eq!(hidden(&asked.text, "qty"), "2");
    let cart = browser.get("/lite/cart").await;
    assert!(!cart.text.contains(&escaped(&title)), "nothing added yet");
    // A forged value adds nothing: the page asks again.
    let forged = browser
        .post(
            "/lite/cart/add",
            &[("csrf", &"0".repeat(64)), ("main_pid", &pid), ("qty", "2")],
        )
        .await;
    assert!(forged.text.contains("Add to your cart?"));
    // The confirmation's own form adds.
    let csrf = hidden(&asked.text, "csrf");
    let added = browser
        .post(
            "/lite/cart/add",
            &[("csrf", &csrf), ("main_pid", &pid), ("qty", "2")],
        )
        .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text);
    let cart = browser.get(added.location()).await;
    assert!(cart.text.contains(&escaped(&title)), "{}", cart.text);
    assert!(cart.text.contains("value=\"2\" required"), "{}", cart.text);
}
