//! The origin's memory budget (issue 19): glibc's allocator settings.
//!
//! Measured with `origin/bench/rss.sh` (2,000 products, 120 s of the mixed
//! fuzz, 4 clients): the live heap peaked at 93 MB (heaptrack), yet the
//! process kept 285 MB of anonymous memory. The rest was glibc's: every
//! thread that allocates gets an arena of its own (up to 8 per core), and
//! after the first large buffer is freed glibc raises its mmap threshold, so
//! the image variants' decode and resize buffers (1 to 10 MB each, made on
//! the blocking pool's threads) then come from those arenas and stay there,
//! fragmented, after they are freed. Two arenas and a fixed 256 KiB mmap
//! threshold (every larger block is its own mapping, given back at once)
//! brought the same run to 93 MB anonymous. mimalloc, which the edge and the
//! generator use, kept 200 MB here. The live data itself is bounded
//! elsewhere: the search index by the catalogue, prepared statements by
//! `STATEMENT_CACHE`, database pages by SQLite's page cache per connection
//! (the origin maps none of the file: `catalog::db::SERVER_MMAP_SIZE`), the
//! site's manifest by the site (read by one request at a time:
//! `SiteFiles::manifest`), image variants on disk, not in memory.
//!
//! glibc reads these settings only when the process starts, and the
//! workspace forbids the `unsafe` that `mallopt` needs, so
//! [`tune_allocator`] restarts the program once with them in its
//! environment. An operator's own `MALLOC_ARENA_MAX` wins (nothing is
//! restarted then).

/// Glibc arenas: one per core of the shop's 2-core machine.
pub const ARENA_MAX: &str = "2";
/// Blocks of this many bytes or more are mapped on their own, and unmapped
/// when freed (256 KiB).
pub const MMAP_THRESHOLD: &str = "262144";

/// On Linux with glibc, when `MALLOC_ARENA_MAX` is not set: executes this
/// program again, same arguments, with `MALLOC_ARENA_MAX` and
/// `MALLOC_MMAP_THRESHOLD_` set (see the module). Returns only when it did
/// not (another platform, already set, or the exec failed: then the
/// process goes on with glibc's defaults and says so).
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
            return;
        }
        let Ok(exe) = std::env::current_exe() else {
            return;
        };
        let mut args = std::env::args_os();
        let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
        let err = std::process::Command::new(&exe)
            .arg0(arg0)
            .args(args)
            .env("MALLOC_ARENA_MAX", ARENA_MAX)
            .env("MALLOC_MMAP_THRESHOLD_", MMAP_THRESHOLD)
            .exec();
        eprintln!(
            "origin: could not restart with the allocator settings ({err}); going on without them"
        );
    }
}
