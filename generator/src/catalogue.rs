//! The whole catalogue's shape, loaded once per build: the category tree,
//! which products each category lists, and each product's price and
//! popularity. Related lists and first listing pages are picked from it in
//! memory, so a page costs no query of its own.

use std::collections::HashMap;

use catalog::read::site::{CategoryNode, Placement};

/// Cards per related list on a product page.
pub const RELATED: usize = 6;
/// Cards on the first page of a listing.
pub const LISTING_PAGE: usize = 24;

/// The catalogue's shape.
#[derive(Debug, Default)]
pub struct Catalogue {
    pub categories: Vec<CategoryNode>,
    by_id: HashMap<i64, usize>,
    pub placements: HashMap<i64, Placement>,
    /// Category id → products listed in it or below it, most popular first.
    listed: HashMap<i64, Vec<i64>>,
    /// Category id → its own products (primary), by price.
    by_price: HashMap<i64, Vec<(i64, i64)>>,
    /// Every product, most popular first.
    popular: Vec<i64>,
}

impl Catalogue {
    /// Loads the tree, the memberships and the placements at `now`.
    pub async fn load(pool: &catalog::db::Pool, now: i64) -> anyhow::Result<Catalogue> {
        use anyhow::Context;
        use catalog::read::site;
        let categories = site::category_tree(pool)
            .await
            .context("reading categories")?;
        let placements = site::placements(pool, now)
            .await
            .context("reading products")?;
        let members = site::category_members(pool)
            .await
            .context("reading categories' products")?;
        Ok(Catalogue::from_rows(categories, placements, &members))
    }

    /// Builds the index from rows.
    pub fn from_rows(
        categories: Vec<CategoryNode>,
        placements: Vec<Placement>,
        members: &[(i64, i64)],
    ) -> Catalogue {
        let by_id: HashMap<i64, usize> = categories
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id, i))
            .collect();
        let placements: HashMap<i64, Placement> =
            placements.into_iter().map(|p| (p.id, p)).collect();
        let mut listed: HashMap<i64, Vec<i64>> = HashMap::new();
        for (category, product) in members {
            if !placements.contains_key(product) {
                continue;
            }
            // A product is listed in its categories and all their ancestors.
            let mut at = Some(*category);
            let mut guard = 0;
            while let Some(c) = at {
                listed.entry(c).or_default().push(*product);
                at = by_id.get(&c).and_then(|i| categories[*i].parent);
                guard += 1;
                if guard > 16 {
                    break;
                }
            }
        }
        // Most popular first, ties newest id first: the order of the API's
        // `sort_by=popularity`, which the origin's further listing pages use.
        let rank = |a: &i64, b: &i64| {
            let (pa, pb) = (&placements[a], &placements[b]);
            pb.popularity.cmp(&pa.popularity).then(b.cmp(a))
        };
        for list in listed.values_mut() {
            list.sort_unstable();
            list.dedup();
            list.sort_by(rank);
        }
        let mut by_price: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
        for p in placements.values() {
            if let Some(c) = p.category_id {
                by_price.entry(c).or_default().push((p.price, p.id));
            }
        }
        for list in by_price.values_mut() {
            list.sort_unstable();
        }
        let mut popular: Vec<i64> = placements.keys().copied().collect();
        popular.sort_by(rank);
        Catalogue {
            categories,
            by_id,
            placements,
            listed,
            by_price,
            popular,
        }
    }

    /// A category by id.
    pub fn category(&self, id: i64) -> Option<&CategoryNode> {
        self.by_id.get(&id).map(|i| &self.categories[*i])
    }

    /// The chain from the top category down to `id`.
    pub fn ancestry(&self, id: i64) -> Vec<&CategoryNode> {
        let mut chain = Vec::new();
        let mut at = self.category(id);
        while let Some(c) = at {
            if chain.len() > 16 {
                break;
            }
            chain.push(c);
            at = c.parent.and_then(|p| self.category(p));
        }
        chain.reverse();
        chain
    }

    /// The sub-categories of `id`.
    pub fn children(&self, id: i64) -> Vec<&CategoryNode> {
        self.categories
            .iter()
            .filter(|c| c.parent == Some(id))
            .collect()
    }

    /// Products listed in a category (or below it), most popular first.
    pub fn listed(&self, category: i64) -> &[i64] {
        self.listed.get(&category).map_or(&[], Vec::as_slice)
    }

    /// Every product, most popular first (the `/c/products` listing when the
    /// root category lists nothing itself).
    pub fn popular(&self) -> &[i64] {
        &self.popular
    }

    /// The related lists of a product page, titled, each without the product
    /// itself or repeats: similar (nearest price in its category), same
    /// category (most popular there), goes well with (popular in sibling
    /// categories), others also see (popular one level up).
    pub fn related(&self, product: i64) -> Vec<(&'static str, Vec<i64>)> {
        let Some(p) = self.placements.get(&product) else {
            return Vec::new();
        };
        let mut shown = vec![product];
        let mut take = |candidates: &mut dyn Iterator<Item = i64>, n: usize| -> Vec<i64> {
            let mut out = Vec::with_capacity(n);
            for id in candidates {
                if out.len() >= n {
                    break;
                }
                if !shown.contains(&id) {
                    shown.push(id);
                    out.push(id);
                }
            }
            out
        };
        let Some(cat) = p.category_id else {
            return vec![(
                "Others also see",
                take(&mut self.popular.iter().copied(), RELATED),
            )];
        };
        let similar = match self.by_price.get(&cat) {
            Some(list) => {
                let at = list.partition_point(|(price, id)| (*price, *id) < (p.price, product));
                let (mut lo, mut hi) = (at, at);
                let mut near = Vec::new();
                while near.len() < RELATED + 1 && (lo > 0 || hi < list.len()) {
                    if hi < list.len() {
                        near.push(list[hi].1);
                        hi += 1;
                    }
                    if lo > 0 {
                        lo -= 1;
                        near.push(list[lo].1);
                    }
                }
                take(&mut near.into_iter(), RELATED)
            }
            None => Vec::new(),
        };
        let same = take(&mut self.listed(cat).iter().copied(), RELATED);
        let parent = self.category(cat).and_then(|c| c.parent);
        let goes_well = match parent {
            Some(parent) => {
                let siblings: Vec<i64> = self
                    .children(parent)
                    .iter()
                    .filter(|c| c.id != cat)
                    .map(|c| c.id)
                    .collect();
                let mut pool: Vec<i64> = Vec::new();
                for s in siblings {
                    pool.extend(self.listed(s).iter().take(RELATED));
                }
                pool.sort_by_key(|id| std::cmp::Reverse(self.placements[id].popularity));
                take(&mut pool.into_iter(), RELATED)
            }
            None => Vec::new(),
        };
        let up = parent
            .and_then(|p| self.category(p))
            .and_then(|c| c.parent)
            .or(parent);
        let others = match up {
            Some(up) => take(&mut self.listed(up).iter().copied(), RELATED),
            None => take(&mut self.popular.iter().copied(), RELATED),
        };
        [
            ("Similar products", similar),
            ("More from this category", same),
            ("Goes well with", goes_well),
            ("Others also see", others),
        ]
        .into_iter()
        .filter(|(_, ids)| !ids.is_empty())
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_in_popularity_go_newest_id_first_as_the_api_sorts() {
        let placement = |id, popularity| Placement {
            id,
            seo_url: format!("p{id}"),
            updated_at: 0,
            category_id: None,
            price: 100,
            popularity,
            created_at: 0,
        };
        let c = Catalogue::from_rows(
            Vec::new(),
            vec![
                placement(1, 5),
                placement(2, 9),
                placement(3, 5),
                placement(4, 5),
            ],
            &[],
        );
        assert_eq!(c.popular(), [2, 4, 3, 1]);
    }
}
