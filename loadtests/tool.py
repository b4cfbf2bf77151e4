#!/usr/bin/env python3
"""Helpers of loadtests/run: standard library only for SQLite; a
PostgreSQL database (DB given as a postgres:// URL, the cluster target) is
reached with psycopg, which loadtests/run installs into loadtests/.venv.

  ports N                        N free TCP ports on 127.0.0.1, one a line
  rebase DB SEEDED_AT NOW        move every flash schedule by NOW - SEEDED_AT
  export DB OUT                  the products, categories and search words the scenarios use
  flash-setup DB STARTS_AT OUT   a flash sale starting at STARTS_AT on 20 products
  hot-stock DB COUNT STOCK OUT   give COUNT products STOCK units (checkout contention)
  stock DB OUT                   every product's stock, to find oversold units afterwards
  warm BASE DATA                 fetch every page the scenarios use once
  metrics URL OUT                save the edge's /metrics
  sample URL START SECONDS OUT   origin requests per second from the edge's /metrics
  contend DB SECONDS [--hot F]   hold short write transactions on DB for SECONDS

DB is a SQLite file or a postgres:// URL; every difference between the two
is in class Db below.
  report ...                     the summary table and JSON (see `report --help`)
  table FILE...                  a Markdown table of result files (the README's "Measured")
  compare FILE...                orders/s, latencies and errors side by side (loadtests/measure-cluster)
"""

import argparse
import json
import math
import os
import random
import re
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request


def connect(path):
    db = sqlite3.connect(path, timeout=30)
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA busy_timeout = 30000")
    return db


def is_postgres(target):
    return target.startswith(("postgres://", "postgresql://"))


class PgRow(tuple):
    """A PostgreSQL row that reads like sqlite3.Row: by index, by column
    name, unpacked, and dict(row)."""

    def __new__(cls, values, names):
        row = super().__new__(cls, values)
        row.names = names
        return row

    def keys(self):
        return self.names

    def __getitem__(self, key):
        if isinstance(key, str):
            key = self.names.index(key)
        return tuple.__getitem__(self, key)


def pg_rows(cursor):
    import decimal

    names = [c.name for c in cursor.description or ()]

    def make(values):
        # SUM() of BIGINT is NUMERIC in PostgreSQL (an integer in SQLite)
        values = [int(v) if isinstance(v, decimal.Decimal) and v == v.to_integral_value() else v for v in values]
        return PgRow(values, names)

    return make


class Db:
    """The dialect switch, the one place where SQLite and PostgreSQL differ.

    DB is a SQLite file (loadtests/run's single stack, through sqlite3 as
    before) or a postgres:// URL (LOADTEST_TARGET=cluster, through psycopg).
    Queries are written once with `?` placeholders; the few words that differ
    are attributes: TRUE / FALSE (flags are INTEGER 0/1 in SQLite, BOOLEAN in
    PostgreSQL) and GREATEST (SQLite's two-argument MAX). As a context manager
    it commits on success and rolls back on an exception, like sqlite3."""

    def __init__(self, target):
        self.target = target
        self.pg = is_postgres(target)
        if self.pg:
            import psycopg

            self.conn = psycopg.connect(target, row_factory=pg_rows)
            self.TRUE, self.FALSE, self.GREATEST = "TRUE", "FALSE", "GREATEST"
        else:
            self.conn = connect(target)
            self.TRUE, self.FALSE, self.GREATEST = "1", "0", "MAX"

    @staticmethod
    def exists(target):
        return bool(target) and (is_postgres(target) or os.path.exists(target))

    def execute(self, sql, args=()):
        if self.pg:
            if args:
                sql = sql.replace("%", "%%").replace("?", "%s")
            return self.conn.execute(sql, args or None)
        return self.conn.execute(sql, args)

    def insert(self, sql, args=()):
        """An INSERT; the new row's id."""
        if self.pg:
            return self.execute(sql + " RETURNING id", args).fetchone()[0]
        return self.execute(sql, args).lastrowid

    def has_column(self, table, column):
        if self.pg:
            return self.execute(
                "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = ? AND column_name = ?",
                (table, column),
            ).fetchone() is not None
        return any(r[1] == column for r in self.execute(f"PRAGMA table_info({table})"))

    def commit(self):
        self.conn.commit()

    def rollback(self):
        self.conn.rollback()

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.conn.commit()
        else:
            self.conn.rollback()
        return False


def discounted(price, percent):
    """catalog::pricing::discounted: percent off, rounded to the nearest taka."""
    d = max(0, min(100, percent))
    return (price * (100 - d) + 50) // 100


def cmd_ports(a):
    socks = []
    for _ in range(a.n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    for s in socks:
        print(s.getsockname()[1])
        s.close()


def cmd_rebase(a):
    delta = a.now - a.seeded_at
    with Db(a.db) as db:
        db.execute(
            "UPDATE flash_schedule SET starts_at = starts_at + ?, ends_at = ends_at + ?",
            (delta, delta),
        )


def buyable(db, where="", args=()):
    t, f = db.TRUE, db.FALSE
    return db.execute(
        "SELECT id, seo_url, title, product_code, price_now, price_before, stock FROM product "
        f"WHERE is_active = {t} AND disable_buy = {f} AND pre_booking = {f} AND cash_on_delivery = {t} "
        f"AND enable_variation = {f} AND stock > 0 " + where + " ORDER BY id",
        args,
    ).fetchall()


def cmd_export(a):
    db = Db(a.db)
    t = db.TRUE
    products = [
        dict(r)
        for r in db.execute(
            f"SELECT id, seo_url, title, price_now, stock FROM product WHERE is_active = {t} ORDER BY id"
        )
    ]
    buy = [dict(r) for r in buyable(db)]
    f = db.FALSE
    prebooking = [
        dict(r)
        for r in db.execute(
            "SELECT id, seo_url, title, price_now, stock, pre_booking_min_percent FROM product "
            f"WHERE is_active = {t} AND disable_buy = {f} AND pre_booking = {t} AND enable_variation = {f} "
            "AND stock > 0 ORDER BY id"
        )
    ]
    categories = [
        r[0]
        for r in db.execute(
            "SELECT DISTINCT c.seo_url FROM category c JOIN product_category pc ON pc.category_id = c.id "
            f"JOIN product p ON p.id = pc.product_id WHERE c.is_published = {t} AND c.is_active = {t} "
            f"AND p.is_active = {t} ORDER BY c.seo_url"
        )
    ]
    words = sorted(
        {
            w
            for (title,) in db.execute(f"SELECT title FROM product WHERE is_active = {t}")
            for w in re.findall(r"[A-Za-z]{4,}", title)
        }
    )
    districts = [
        dict(r) for r in db.execute("SELECT district, division FROM district ORDER BY district LIMIT 64")
    ] if db.has_column("district", "division") else []
    out = {"products": products, "buyable": buy, "prebooking": prebooking, "categories": categories, "words": words, "districts": districts}
    with open(a.out, "w") as f:
        json.dump(out, f)
    print(f"{len(products)} products ({len(buy)} buyable), {len(categories)} categories, {len(words)} search words")


def cmd_flash_setup(a):
    """A new schedule that starts mid-run, on products in no running sale."""
    with Db(a.db) as db:
        t = db.TRUE
        now = int(time.time())
        taken = {
            r[0]
            for r in db.execute(
                "SELECT fi.product_id FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id "
                f"WHERE fs.is_active = {t} AND fs.ends_at > ?",
                (now,),
            )
        }
        picks = [r for r in buyable(db) if r["id"] not in taken][: a.count]
        sid = db.insert(
            "INSERT INTO flash_schedule (fs_name, fs_description, starts_at, ends_at, show_price, is_active) "
            f"VALUES ('Load-test Flash Sale', 'Starts mid-run.', ?, ?, {t}, {t})",
            (a.starts_at, a.starts_at + 3600),
        )
        items = []
        for k, p in enumerate(picks):
            db.execute(
                "INSERT INTO flash_item (schedule_id, product_id, discount_percent, show_tag, qty, sort) "
                f"VALUES (?, ?, ?, {t}, 0, ?)",
                (sid, p["id"], a.discount, k),
            )
            items.append(
                {
                    "id": p["id"],
                    "seo_url": p["seo_url"],
                    "regular": p["price_now"],
                    "sale": discounted(p["price_now"], a.discount),
                }
            )
    with open(a.out, "w") as f:
        json.dump({"schedule_id": sid, "starts_at": a.starts_at, "items": items}, f)


def cmd_stock(a):
    with Db(a.db) as db:
        stock = {str(i): s for i, s in db.execute("SELECT id, stock FROM product")}
    with open(a.out, "w") as f:
        json.dump(stock, f)


def cmd_hot_stock(a):
    with Db(a.db) as db:
        picks = buyable(db)[: a.count]
        for p in picks:
            db.execute("UPDATE product SET stock = ? WHERE id = ?", (a.stock, p["id"]))
    with open(a.out, "w") as f:
        json.dump([{"id": p["id"], "seo_url": p["seo_url"], "stock": a.stock} for p in picks], f)


def cmd_warm(a):
    """Visit every page the scenarios use once, as crawlers and earlier
    shoppers would have: the runs measure a warm edge, as in a real sale."""
    from concurrent.futures import ThreadPoolExecutor

    data = json.load(open(a.data))
    paths = ["/"] + [f"/c/{c}" for c in data["categories"]] + [f"/product/{p['seo_url']}" for p in data["products"]]

    def fetch(path):
        req = urllib.request.Request(a.base + path, headers={"Accept-Encoding": "br, gzip"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                r.read()
                return r.status
        except urllib.error.HTTPError as e:
            return e.code
        except OSError:
            return 0

    start = time.time()
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(fetch, paths))
    bad = sum(1 for c in codes if c != 200)
    print(f"warmed {len(paths)} pages in {time.time() - start:.1f} s ({bad} not 200)")


def cmd_metrics(a):
    try:
        with urllib.request.urlopen(a.url, timeout=5) as r:
            text = r.read().decode()
    except OSError as e:
        text = f"# unreachable: {e}\n"
    with open(a.out, "w") as f:
        f.write(text)


def cmd_sample(a):
    """Origin requests per second through the run, from the edge's counters:
    where the origin's load peaks (a schedule boundary, a purge)."""
    def total():
        try:
            with urllib.request.urlopen(a.url, timeout=2) as r:
                text = r.read().decode()
        except OSError:
            return None
        return sum(
            float(m.group(1))
            for m in re.finditer(r"^edge_origin_requests_total(?:\{[^}]*\})?\s+(\S+)", text, re.M)
        )

    start = float(a.started_at)
    series, last = [], total()
    while time.time() < start + a.seconds:
        time.sleep(1)
        now = total()
        if now is not None and last is not None:
            series.append([round(time.time() - start), int(now - last)])
        last = now
    peak = max(series, key=lambda p: p[1], default=[0, 0])
    out = {"origin_rps_peak": peak[1], "origin_rps_peak_at_s": peak[0],
           "origin_rps_median": sorted(p[1] for p in series)[len(series) // 2] if series else 0,
           "origin_rps": series}
    extra = json.loads(a.extra) if a.extra else {}
    out.update(extra)
    with open(a.out, "w") as f:
        json.dump(out, f)


def cmd_contend(a):
    """An admin tool writing to the shop while it sells: short write
    transactions (stock touch-ups) every few milliseconds."""
    if is_postgres(a.db):
        return contend_postgres(a)
    db = sqlite3.connect(a.db, timeout=30, isolation_level=None)
    db.execute("PRAGMA busy_timeout = 30000")
    end = time.time() + a.seconds
    n = 0
    while time.time() < end:
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "UPDATE product SET updated_at = updated_at WHERE id IN (SELECT id FROM product ORDER BY random() LIMIT 20)"
        )
        time.sleep(a.hold_ms / 1000)
        db.execute("COMMIT")
        n += 1
        time.sleep(a.gap_ms / 1000)
    print(f"contention: {n} write transactions held {a.hold_ms} ms each")


def contend_postgres(a):
    """The same tool on PostgreSQL, where a write locks rows, not the
    database: each transaction updates 20 product rows, the checkout's hot
    products (--hot, the rows every other placement takes stock from) and
    random others, locked in id order, and holds them (and, through the
    change-log trigger, the change log's advisory lock) for --hold-ms. A
    transaction PostgreSQL aborts (a deadlock with a placement) is counted
    and the tool goes on."""
    import psycopg

    db = Db(a.db)
    hot = [p["id"] for p in json.load(open(a.hot))] if a.hot else []
    ids = [r[0] for r in db.execute("SELECT id FROM product ORDER BY id").fetchall()]
    others = [i for i in ids if i not in set(hot)]
    db.commit()
    end = time.time() + a.seconds
    n = aborted = 0
    held = []
    while time.time() < end:
        rows = sorted(hot[:20] + random.sample(others, max(0, 20 - len(hot[:20]))))
        try:
            t0 = time.monotonic()
            db.execute("SELECT id FROM product WHERE id = ANY(?) ORDER BY id FOR UPDATE", (rows,))
            db.execute("UPDATE product SET updated_at = updated_at WHERE id = ANY(?)", (rows,))
            held.append(time.monotonic() - t0)
            time.sleep(a.hold_ms / 1000)
            db.commit()
            n += 1
        except psycopg.Error as e:
            db.rollback()
            aborted += 1
            print(f"contention: a transaction aborted: {type(e).__name__}: {str(e).strip().splitlines()[0]}")
        time.sleep(a.gap_ms / 1000)
    db.close()
    waits = sorted(held)
    p99 = waits[int(len(waits) * 0.99)] * 1000 if waits else 0
    print(f"contention: {n} write transactions on {len(hot[:20])} hot + {20 - len(hot[:20])} random product rows "
          f"held {a.hold_ms} ms each ({aborted} aborted; taking the locks took p99 {p99:.1f} ms)")


# ---------------------------------------------------------------- report

def prom(path):
    """Prometheus text → {(name, labels): value}."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r"([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)", line)
        if m:
            try:
                out[(m.group(1), m.group(2) or "")] = float(m.group(3))
            except ValueError:
                pass
    return out


def prom_sum(metrics, name, label_filter=None):
    return sum(
        v for (n, labels), v in metrics.items() if n == name and (label_filter is None or label_filter in labels)
    )


def k6_metric(summary, name, stat):
    m = summary.get("metrics", {}).get(name)
    if not m:
        return None
    v = m.get("values", m).get(stat)
    return v


def order_checks(a):
    """Orders placed during the run, checked in the database after it."""
    res = {"orders": 0, "oversold_units": 0, "flash_cap_exceeded": 0, "duplicate_orders": 0,
           "orders_confirmed": 0, "orders_lost": 0}
    if not Db.exists(a.db):
        return res
    db = Db(a.db)
    res["orders"] = db.execute("SELECT COUNT(*) FROM order_master WHERE self_token LIKE 'lt-%'").fetchone()[0]
    # Units sold beyond the stock each product had when the run started.
    if a.stock_before and os.path.exists(a.stock_before):
        before = json.load(open(a.stock_before))
        sold = dict(
            db.execute(
                "SELECT d.product_id, SUM(d.qty) FROM order_detail d JOIN order_master o ON o.id = d.order_id "
                "WHERE o.self_token LIKE 'lt-%' GROUP BY d.product_id"
            ).fetchall()
        )
        res["oversold_units"] = sum(max(0, q - before.get(str(pid), 0)) for pid, q in sold.items())
        negative = db.execute("SELECT COUNT(*) FROM product WHERE stock < 0").fetchone()[0]
        res["oversold_units"] += negative
    # Units sold at a flash price beyond the sale's cap.
    res["flash_cap_exceeded"] = db.execute(
        f"SELECT COALESCE(SUM(over), 0) FROM (SELECT {db.GREATEST}(0, SUM(d.qty) - fi.qty) AS over "
        "FROM order_detail d JOIN flash_item fi ON fi.id = d.flash_item_id WHERE fi.qty > 0 GROUP BY fi.id) t"
    ).fetchone()[0]
    # Each load-test shopper (one self token) places exactly one order, retried
    # with the same idempotency key: any second order is a duplicate.
    res["duplicate_orders"] = db.execute(
        "SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM order_master "
        "WHERE self_token LIKE 'lt-%' GROUP BY self_token) t"
    ).fetchone()[0]
    if a.orders_log and os.path.exists(a.orders_log):
        confirmed = set()
        for line in open(a.orders_log):
            m = re.search(r"ORDER ([A-Za-z0-9_-]+)", line)
            if m:
                confirmed.add(m.group(1))
        res["orders_confirmed"] = len(confirmed)
        present = {
            r[0] for r in db.execute("SELECT order_random FROM order_master WHERE self_token LIKE 'lt-%'")
        }
        res["orders_lost"] = len(confirmed - present)
    return res


def fmt(v, unit=""):
    if v is None:
        return "-"
    if isinstance(v, float):
        if math.isnan(v):
            return "-"
        return f"{v:,.1f}{unit}" if abs(v) >= 10 else f"{v:,.2f}{unit}"
    return f"{v:,}{unit}"


def cmd_report(a):
    summary = json.load(open(a.summary)) if os.path.exists(a.summary) else {}
    before, after = prom(a.metrics_before), prom(a.metrics_after)
    origin_before = prom_sum(before, "edge_origin_requests_total")
    origin_after = prom_sum(after, "edge_origin_requests_total")
    # After an edge restart its counters start again from zero.
    origin_requests = origin_after - origin_before if origin_after >= origin_before else origin_after
    extra = json.loads(a.extra) if a.extra else {}
    hits = k6_metric(summary, "cache_hit", "rate")
    r = {
        "scenario": a.scenario,
        "smoke": a.smoke,
        "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "target": a.target,
        "load_average": a.uptime.strip() if a.uptime else None,
        "load_average_at_start": a.uptime_start.strip() if a.uptime_start else None,
        "load_average_at_k6_start": a.uptime_k6.strip() if a.uptime_k6 else None,
        "products": a.products,
        "duration_s": round(summary.get("state", {}).get("testRunDurationMs", 0) / 1000, 1),
        "requests": int(k6_metric(summary, "http_reqs", "count") or 0),
        "requests_per_s": k6_metric(summary, "http_reqs", "rate"),
        "p50_ms": k6_metric(summary, "http_req_duration", "med"),
        "p95_ms": k6_metric(summary, "http_req_duration", "p(95)"),
        "p99_ms": k6_metric(summary, "http_req_duration", "p(99)"),
        "max_ms": k6_metric(summary, "http_req_duration", "max"),
        "hit_ratio": hits,
        "origin_requests": int(origin_requests),
        "failed_requests": int((k6_metric(summary, "http_req_failed", "passes") or 0)),
        "status_5xx": int(k6_metric(summary, "status_5xx", "count") or 0),
        "status_500": int(k6_metric(summary, "status_500", "count") or 0),
        "api_not_json": int(k6_metric(summary, "api_not_json", "count") or 0),
        "dropped_iterations": int(k6_metric(summary, "dropped_iterations", "count") or 0),
        "checks_failed": int(k6_metric(summary, "checks", "fails") or 0),
        "checks_passed": int(k6_metric(summary, "checks", "passes") or 0),
        "stale_served_at_edge": int(prom_sum(after, "edge_stale_served_total") - prom_sum(before, "edge_stale_served_total")),
        "purges": int(prom_sum(after, "edge_purges_total") - prom_sum(before, "edge_purges_total")),
        "thresholds_ok": a.k6_status == 0,
    }
    # Scenario-specific rates and trends the scripts define (fault phases, prices).
    for name, m in sorted(summary.get("metrics", {}).items()):
        if name.startswith(("fault_", "price_", "order_", "purge_", "search_", "page_", "cart_", "cache_hit{", "http_req_duration{kind", "origin_")):
            v = m.get("values", m)
            r[name] = {k: v[k] for k in ("rate", "passes", "fails", "count", "value", "p(95)", "p(99)", "max", "med") if k in v}
    r.update(order_checks(a))
    r.update(extra)
    invariants_ok = (
        r["oversold_units"] == 0 and r["duplicate_orders"] == 0 and r["orders_lost"] == 0
        and r["flash_cap_exceeded"] == 0 and r["status_500"] == 0 and r["api_not_json"] == 0
    )
    r["invariants_ok"] = invariants_ok
    r["passed"] = invariants_ok and r["thresholds_ok"]
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(r, f, indent=2, sort_keys=False)
        f.write("\n")

    rows = [
        ("requests", fmt(r["requests"])),
        ("requests/s", fmt(r["requests_per_s"])),
        ("latency p50 / p95 / p99 / max", " / ".join(fmt(r[k], " ms") for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms"))),
        ("hit ratio (X-Cache)", "-" if hits is None else f"{hits * 100:.1f} %"),
        ("origin requests (edge /metrics)", fmt(r["origin_requests"])),
        ("failed requests / 5xx / 500", f"{r['failed_requests']:,} / {r['status_5xx']:,} / {r['status_500']:,}"),
        ("API answers not JSON", fmt(r["api_not_json"])),
        ("checks passed / failed", f"{r['checks_passed']:,} / {r['checks_failed']:,}"),
        ("dropped iterations", fmt(r["dropped_iterations"])),
        ("stale served / purges", f"{r['stale_served_at_edge']:,} / {r['purges']:,}"),
        ("orders (confirmed / in db / lost)", f"{r['orders_confirmed']:,} / {r['orders']:,} / {r['orders_lost']:,}"),
        ("oversold units / duplicate orders", f"{r['oversold_units']} / {r['duplicate_orders']}"),
    ]
    for k, v in r.items():
        if isinstance(v, dict):
            shown = {sk: sv for sk, sv in v.items() if not isinstance(sv, list) or len(sv) <= 24}
            rows.append((k, ", ".join(f"{sk}={sv if isinstance(sv, list) else fmt(sv)}" for sk, sv in shown.items())))
    for k, v in extra.items():
        if not isinstance(v, dict):
            rows.append((k, fmt(v) if isinstance(v, (int, float)) else str(v)))
    rows.append(("thresholds / invariants", f"{'ok' if r['thresholds_ok'] else 'FAILED'} / {'ok' if invariants_ok else 'FAILED'}"))
    width = max(len(k) for k, _ in rows)
    print(f"\n{a.scenario}{' (smoke)' if a.smoke else ''} on {a.target} — {r['when']}, load {r['load_average']}")
    for k, v in rows:
        print(f"  {k.ljust(width)}  {v}")
    print(f"  written to {os.path.relpath(a.out)}")
    sys.exit(0 if r["passed"] else 1)


def cmd_table(a):
    """A Markdown table of result files, for the README."""
    print("| scenario | passed | req/s | p50 / p95 / p99 ms | hit ratio | origin req | 5xx (500) | orders / oversold / dup / lost | notes | load avg |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in a.files:
        r = json.load(open(path))
        notes = []
        for k, v in r.items():
            if not isinstance(v, dict) or "rate" not in v or v.get("passes", 1) + v.get("fails", 0) == 0:
                continue
            if k.startswith("fault_") and "{phase:" in k:
                notes.append(f"{k[6:].replace('{phase:', ' ').rstrip('}')} {v['rate'] * 100:.1f} %")
            elif k in ("price_after", "price_before", "origin_calm", "order_same_on_retry", "fault_read_ok", "fault_api_clean"):
                notes.append(f"{k} {v['rate'] * 100:.1f} %")
        f = r.get("fault")
        if isinstance(f, dict):
            notes += [f"{k} {v}" for k, v in f.items() if not isinstance(v, list)]
        if r.get("dropped_iterations"):
            notes.append(f"dropped {r['dropped_iterations']:,}")
        load = re.search(r"load average: ([\d.]+)", r.get("load_average") or "")
        hits = r.get("hit_ratio")
        print(
            f"| {r['scenario']} | {'yes' if r['passed'] else 'NO'} | {r['requests_per_s'] or 0:,.0f} | "
            f"{fmt(r['p50_ms'])} / {fmt(r['p95_ms'])} / {fmt(r['p99_ms'])} | "
            f"{'-' if hits is None else f'{hits * 100:.1f} %'} | {r['origin_requests']:,} | "
            f"{r['status_5xx']:,} ({r['status_500']}) | {r['orders']} / {r['oversold_units']} / "
            f"{r['duplicate_orders']} / {r['orders_lost']} | {'; '.join(notes)} | {load.group(1) if load else '-'} |"
        )


def cmd_compare(a):
    """One row per result file, to set the databases side by side
    (loadtests/measure-cluster): orders/s, p95 and p99 of placing an order
    and of every API call, errors, invariants, the load average."""
    def ms(m, stat):
        v = (m or {}).get(stat)
        return "-" if v is None else f"{v:,.0f}" if v >= 100 else f"{v:.1f}"

    def load(text):
        m = re.search(r"load average: ([\d.]+)", text or "")
        return m.group(1) if m else "-"

    print("| scenario | database | orders | orders/s | placement p95 / p99 ms | API p95 / p99 ms "
          "| failed req | 5xx (500) | invariants | load at start / k6 start / end |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for path in a.files:
        r = json.load(open(path))
        placed = r.get("order_placed") or {}
        place, api = r.get("order_place_ms"), r.get("http_req_duration{kind:api}")
        db = "PostgreSQL, 2 origins" if r.get("target") == "cluster" else "SQLite, 1 origin"
        inv = "ok" if r.get("invariants_ok") else (
            f"FAILED (oversold {r['oversold_units']}, dup {r['duplicate_orders']}, lost {r['orders_lost']}, "
            f"500 {r['status_500']}, not JSON {r['api_not_json']})")
        print(
            f"| {r['scenario']} | {db} | {r.get('orders_confirmed', 0):,} | {placed.get('rate', 0):.1f} | "
            f"{ms(place, 'p(95)')} / {ms(place, 'p(99)')} | {ms(api, 'p(95)')} / {ms(api, 'p(99)')} | "
            f"{r['failed_requests']:,} | {r['status_5xx']:,} ({r['status_500']}) | {inv} | "
            f"{load(r.get('load_average_at_start'))} / {load(r.get('load_average_at_k6_start'))} / "
            f"{load(r.get('load_average'))} |"
        )


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("ports"); s.add_argument("n", type=int); s.set_defaults(f=cmd_ports)
    s = sub.add_parser("rebase"); s.add_argument("db"); s.add_argument("seeded_at", type=int)
    s.add_argument("now", type=int); s.set_defaults(f=cmd_rebase)
    s = sub.add_parser("export"); s.add_argument("db"); s.add_argument("out"); s.set_defaults(f=cmd_export)
    s = sub.add_parser("flash-setup"); s.add_argument("db"); s.add_argument("starts_at", type=int)
    s.add_argument("out"); s.add_argument("--count", type=int, default=20)
    s.add_argument("--discount", type=int, default=30); s.set_defaults(f=cmd_flash_setup)
    s = sub.add_parser("hot-stock"); s.add_argument("db"); s.add_argument("count", type=int)
    s.add_argument("stock", type=int); s.add_argument("out"); s.set_defaults(f=cmd_hot_stock)
    s = sub.add_parser("stock"); s.add_argument("db"); s.add_argument("out"); s.set_defaults(f=cmd_stock)
    s = sub.add_parser("warm"); s.add_argument("base"); s.add_argument("data"); s.set_defaults(f=cmd_warm)
    s = sub.add_parser("metrics"); s.add_argument("url"); s.add_argument("out"); s.set_defaults(f=cmd_metrics)
    s = sub.add_parser("sample"); s.add_argument("url"); s.add_argument("started_at")
    s.add_argument("seconds", type=float); s.add_argument("out"); s.add_argument("--extra")
    s.set_defaults(f=cmd_sample)
    s = sub.add_parser("contend"); s.add_argument("db"); s.add_argument("seconds", type=float)
    s.add_argument("--hold-ms", type=float, default=50); s.add_argument("--gap-ms", type=float, default=20)
    s.add_argument("--hot", help="hot-stock's file: on PostgreSQL these rows are among those locked")
    s.set_defaults(f=cmd_contend)
    s = sub.add_parser("report")
    s.add_argument("--scenario", required=True); s.add_argument("--smoke", action="store_true")
    s.add_argument("--summary", required=True); s.add_argument("--metrics-before")
    s.add_argument("--metrics-after"); s.add_argument("--db"); s.add_argument("--stock-before")
    s.add_argument("--orders-log"); s.add_argument("--uptime"); s.add_argument("--products", type=int)
    s.add_argument("--uptime-start", help="uptime when the runner started")
    s.add_argument("--uptime-k6", help="uptime when k6 started")
    s.add_argument("--target", default="sqlite", help="sqlite, or cluster (PostgreSQL)")
    s.add_argument("--k6-status", type=int, default=0); s.add_argument("--extra")
    s.add_argument("--out", required=True); s.set_defaults(f=cmd_report)
    s = sub.add_parser("table"); s.add_argument("files", nargs="+"); s.set_defaults(f=cmd_table)
    s = sub.add_parser("compare"); s.add_argument("files", nargs="+"); s.set_defaults(f=cmd_compare)
    a = p.parse_args()
    a.f(a)


if __name__ == "__main__":
    main()
