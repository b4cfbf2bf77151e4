//! The header's badges: how many products a shopper keeps on the compare
//! list and the wishlist (the cart's own figures come from
//! [`crate::domain::cart::Cart`]).

use catalog::db::{self, Pool};

use crate::domain::identity::Owner;

/// The sizes of the owner's compare list and wishlist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListSizes {
    pub compare: i64,
    pub wish: i64,
}

/// How many products the owner has on the compare list and the wishlist.
pub async fn list_sizes(pool: &Pool, owner: &Owner) -> sqlx::Result<ListSizes> {
    let (compare, wish): (i64, i64) = match owner {
        Owner::User(id) => {
            db::query_as(
                "SELECT (SELECT COUNT(*) FROM compare_item WHERE user_id = $1), \
                    (SELECT COUNT(*) FROM wishlist_item WHERE user_id = $1)",
            )
            .bind(id)
            .fetch_one(pool)
            .await?
        }
        Owner::Guest(token) => {
            db::query_as(
                "SELECT (SELECT COUNT(*) FROM compare_item WHERE self_token = $1), \
                    (SELECT COUNT(*) FROM wishlist_item WHERE self_token = $1)",
            )
            .bind(token)
            .fetch_one(pool)
            .await?
        }
    };
    Ok(ListSizes { compare, wish })
}
