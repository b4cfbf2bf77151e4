//! A shopper's address book: at most [`MAX_ADDRESSES`] addresses, and which
//! of them is the default for billing and for shipping. Every read and write
//! is scoped to the owner: another shopper's address is as good as unknown.

use catalog::db::{self, begin_write, Pool};
use schemars::JsonSchema;
use serde::{de, Deserialize, Deserializer, Serialize};
use sqlx::FromRow;

use crate::plumbing::error::{ApiError, ApiResult};

/// Most saved addresses per shopper.
pub const MAX_ADDRESSES: i64 = 20;

const ADDRESS_COLUMNS: &str = "id, name, phone, address, region, district, thana";

/// A saved address.
#[derive(Debug, Clone, FromRow, Serialize, JsonSchema)]
pub struct Address {
    pub id: i64,
    /// Who receives.
    pub name: String,
    pub phone: String,
    pub address: String,
    /// The division.
    pub region: String,
    pub district: String,
    pub thana: String,
}

/// An address as checked before it is saved.
#[derive(Debug, Clone)]
pub struct NewAddress {
    pub name: String,
    /// `01XXXXXXXXX`.
    pub phone: String,
    pub address: String,
    /// The district's division.
    pub region: String,
    /// The district's name as the shop spells it.
    pub district: String,
    pub thana: String,
}

/// Which default an address can be: `billing` or `shipping`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DefaultKind {
    Billing,
    Shipping,
}

/// Read by hand for the words of its error: a parameter `type` that is
/// neither reads "type is billing or shipping", as it always has.
impl<'de> Deserialize<'de> for DefaultKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "billing" => Ok(DefaultKind::Billing),
            "shipping" => Ok(DefaultKind::Shipping),
            _ => Err(de::Error::custom("is billing or shipping")),
        }
    }
}

impl DefaultKind {
    /// The `app_user` column that holds this default.
    fn column(self) -> &'static str {
        match self {
            DefaultKind::Billing => "default_billing_address_id",
            DefaultKind::Shipping => "default_shipping_address_id",
        }
    }
}

/// The shopper's addresses, oldest first.
pub async fn list(pool: &Pool, user: i64) -> sqlx::Result<Vec<Address>> {
    db::query_as(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM address WHERE user_id = $1 ORDER BY id"
    ))
    .bind(user)
    .fetch_all(pool)
    .await
}

/// The ids of the shopper's default billing and shipping addresses.
pub async fn defaults(pool: &Pool, user: i64) -> sqlx::Result<(Option<i64>, Option<i64>)> {
    db::query_as(
        "SELECT default_billing_address_id, default_shipping_address_id FROM app_user WHERE id = $1",
    )
    .bind(user)
    .fetch_one(pool)
    .await
}

/// Address `id` if it is the shopper's; a 404 otherwise.
pub async fn own(pool: &Pool, user: i64, id: i64) -> ApiResult<Address> {
    let found: Option<Address> = db::query_as(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM address WHERE id = $1 AND user_id = $2"
    ))
    .bind(id)
    .bind(user)
    .fetch_optional(pool)
    .await?;
    found.ok_or_else(|| ApiError::not_found("Address not found"))
}

/// Saves a new address in one write transaction; the first one becomes both
/// defaults. A full book is a 409. The new address's id.
pub async fn store(pool: &Pool, user: i64, a: &NewAddress, now: i64) -> ApiResult<i64> {
    let mut tx = begin_write(pool).await?;
    let conn = &mut *tx;
    let count: i64 = db::query_scalar("SELECT COUNT(*) FROM address WHERE user_id = $1")
        .bind(user)
        .fetch_one(&mut *conn)
        .await?;
    if count >= MAX_ADDRESSES {
        return Err(ApiError::Conflict(format!(
            "An address book holds at most {MAX_ADDRESSES} addresses."
        )));
    }
    let id: i64 = db::query_scalar(
        "INSERT INTO address (user_id, name, phone, address, region, district, thana, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
    )
    .bind(user)
    .bind(&a.name)
    .bind(&a.phone)
    .bind(&a.address)
    .bind(&a.region)
    .bind(&a.district)
    .bind(&a.thana)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    db::query(
        "UPDATE app_user SET default_billing_address_id = COALESCE(default_billing_address_id, $1), \
         default_shipping_address_id = COALESCE(default_shipping_address_id, $1) WHERE id = $2",
    )
    .bind(id)
    .bind(user)
    .execute(&mut *conn)
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Rewrites the shopper's address `id` (checked to be theirs before).
pub async fn update(pool: &Pool, user: i64, id: i64, a: &NewAddress, now: i64) -> sqlx::Result<()> {
    db::query(
        "UPDATE address SET name = $1, phone = $2, address = $3, region = $4, district = $5, thana = $6, \
         updated_at = $7 WHERE id = $8 AND user_id = $9",
    )
    .bind(&a.name)
    .bind(&a.phone)
    .bind(&a.address)
    .bind(&a.region)
    .bind(&a.district)
    .bind(&a.thana)
    .bind(now)
    .bind(id)
    .bind(user)
    .execute(pool)
    .await?;
    Ok(())
}

/// The shopper's default address of `kind`, if one is set.
pub async fn default_of(
    pool: &Pool,
    user: i64,
    kind: DefaultKind,
) -> sqlx::Result<Option<Address>> {
    db::query_as(&format!(
        "SELECT a.id, a.name, a.phone, a.address, a.region, a.district, a.thana FROM app_user u \
         JOIN address a ON a.id = u.{column} AND a.user_id = u.id WHERE u.id = $1",
        column = kind.column()
    ))
    .bind(user)
    .fetch_optional(pool)
    .await
}

/// Makes address `id` (checked to be the shopper's) the default of `kind`.
pub async fn set_default(pool: &Pool, user: i64, kind: DefaultKind, id: i64) -> sqlx::Result<()> {
    db::query(&format!(
        "UPDATE app_user SET {} = $1 WHERE id = $2",
        kind.column()
    ))
    .bind(id)
    .bind(user)
    .execute(pool)
    .await?;
    Ok(())
}
