//! `generator measure`: page sizes per page type (raw, brotli, gzip) of a
//! built site, and what each brotli and gzip level costs in bytes and
//! seconds on a sample of pages. Printed for the budgets; never a test.

use std::path::Path;
use std::time::Instant;

use crate::output::{brotli_bytes, file_for, gzip_bytes, Compression, Manifest, SharedParts};

/// The page type of a site path, for the size table.
pub fn page_type(path: &str) -> &'static str {
    match path {
        "/" => "home",
        "/404.html" | "/500.html" => "error",
        p if p.starts_with("/product/") => "product",
        p if p.starts_with("/c/") => "category",
        p if p.starts_with("/product-set/") => "product set",
        p if p.starts_with("/blogs/") || p.starts_with("/news-event/") => "post",
        p if p.starts_with("/gallery/") => "gallery",
        "/blogs" | "/news-event" | "/gallery" => "content list",
        p if crate::pages::shells::SHELLS.iter().any(|s| s.0 == p) => "shell",
        p if p.starts_with("/page/") => "page",
        p if p.ends_with(".xml") || p.ends_with(".txt") => "crawler file",
        _ => "other",
    }
}

fn size(file: &Path) -> u64 {
    std::fs::metadata(file).map(|m| m.len()).unwrap_or(0)
}

/// The size table: per page type, pages, and the mean and largest raw / br / gz bytes.
pub fn size_table(site: &Path) -> anyhow::Result<String> {
    let manifest = Manifest::load(site)?;
    let mut rows: std::collections::BTreeMap<&str, Vec<(u64, u64, u64)>> = Default::default();
    for path in manifest.pages.keys() {
        let file = site.join(file_for(path)?);
        let mut br = file.clone().into_os_string();
        br.push(".br");
        let mut gz = file.clone().into_os_string();
        gz.push(".gz");
        rows.entry(page_type(path)).or_default().push((
            size(&file),
            size(Path::new(&br)),
            size(Path::new(&gz)),
        ));
    }
    let mut out = String::from("| page type | pages | raw mean | br mean | gz mean | raw max | br max | gz max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (kind, sizes) in rows {
        let n = sizes.len() as u64;
        let mean = |f: fn(&(u64, u64, u64)) -> u64| sizes.iter().map(f).sum::<u64>() / n.max(1);
        let max = |f: fn(&(u64, u64, u64)) -> u64| sizes.iter().map(f).max().unwrap_or(0);
        out.push_str(&format!(
            "| {kind} | {n} | {} | {} | {} | {} | {} | {} |\n",
            mean(|s| s.0),
            mean(|s| s.1),
            mean(|s| s.2),
            max(|s| s.0),
            max(|s| s.1),
            max(|s| s.2)
        ));
    }
    Ok(out)
}

/// The compression trade-off: each level's total bytes and single-core
/// seconds over up to `sample` product pages, and the seconds that makes for
/// `scale` pages on `cores` cores; brotli both over whole pages and as the
/// build compresses them, with the runs of `shared` parts compressed once
/// (their one-off cost is left out: a few milliseconds per distinct run).
pub fn compression_table(
    site: &Path,
    shared: &[String],
    sample: usize,
    scale: u64,
    cores: u64,
) -> anyhow::Result<String> {
    let manifest = Manifest::load(site)?;
    let bodies: Vec<Vec<u8>> = manifest
        .pages
        .keys()
        .filter(|p| p.starts_with("/product/"))
        .take(sample)
        .map(|p| std::fs::read(site.join(file_for(p)?)).map_err(anyhow::Error::from))
        .collect::<anyhow::Result<_>>()?;
    let n = bodies.len().max(1) as f64;
    let raw: usize = bodies.iter().map(Vec::len).sum();
    let mut out = format!(
        "{} product pages, {} bytes raw ({} per page); seconds for {scale} pages on {cores} cores extrapolated\n| codec | level | bytes/page | ratio | ms/page (1 core) | s for {scale} pages |\n|---|---:|---:|---:|---:|---:|\n",
        bodies.len(),
        raw,
        raw as f64 / n
    );
    let mut row = |codec: &str,
                   level: u32,
                   f: &dyn Fn(&[u8]) -> anyhow::Result<Vec<u8>>|
     -> anyhow::Result<()> {
        let t = Instant::now();
        let mut bytes = 0usize;
        for b in &bodies {
            bytes += f(b)?.len();
        }
        let per = t.elapsed().as_secs_f64() / n;
        out.push_str(&format!(
            "| {codec} | {level} | {:.0} | {:.3} | {:.2} | {:.1} |\n",
            bytes as f64 / n,
            bytes as f64 / raw.max(1) as f64,
            per * 1000.0,
            per * scale as f64 / cores as f64
        ));
        Ok(())
    };
    for q in [2u32, 3, 4, 5, 6, 9, 11] {
        row("brotli", q, &|b| {
            brotli_bytes(
                b,
                Compression {
                    brotli_quality: q,
                    ..Compression::default()
                },
            )
        })?;
    }
    for q in [2u32, 3, 4, 5] {
        let c = Compression {
            brotli_quality: q,
            ..Compression::default()
        };
        let parts = SharedParts::new(shared.iter().cloned(), c);
        // Every run compressed once before the clock starts.
        for b in &bodies {
            parts.brotli(b, c)?;
        }
        row("brotli, shared parts once", q, &|b| parts.brotli(b, c))?;
    }
    for level in [1u32, 6, 9] {
        row("gzip", level, &|b| gzip_bytes(b, level))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_fall_into_page_types() {
        assert_eq!(page_type("/"), "home");
        assert_eq!(page_type("/product/sofa"), "product");
        assert_eq!(page_type("/c/beds"), "category");
        assert_eq!(page_type("/cart"), "shell");
        assert_eq!(page_type("/page/showrooms"), "page");
        assert_eq!(page_type("/sitemap-1.xml"), "crawler file");
    }
}
