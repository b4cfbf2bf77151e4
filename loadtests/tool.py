#!/usr/bin/env python3
"""Helpers of loadtests/run, standard library only.

  ports N                        N free TCP ports on 127.0.0.1, one a line
  rebase DB SEEDED_AT NOW        move every flash schedule by NOW - SEEDED_AT
  export DB OUT                  the products, categories and search words the scenarios use
  flash-setup DB STARTS_AT OUT   a flash sale starting at STARTS_AT on 20 products
  hot-stock DB COUNT STOCK OUT   give COUNT products STOCK units (checkout contention)
  stock DB OUT                   every product's stock, to find oversold units afterwards
  warm BASE DATA                 fetch every page the scenarios use once
  metrics URL OUT                save the edge's /metrics
  sample URL START SECONDS OUT   origin requests per second from the edge's /metrics
  contend DB SECONDS             hold short write transactions on DB for SECONDS
  report ...                     the summary table and JSON (see `report --help`)
  table FILE...                  a Markdown table of result files (the README's "Measured")
"""

import argparse
import json
import math
import os
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
    with connect(a.db) as db:
        db.execute(
            "UPDATE flash_schedule SET starts_at = starts_at + ?, ends_at = ends_at + ?",
            (delta, delta),
        )


def buyable(db, where="", args=()):
    return db.execute(
        "SELECT id, seo_url, title, product_code, price_now, price_before, stock FROM product "
        "WHERE is_active = 1 AND disable_buy = 0 AND pre_booking = 0 AND cash_on_delivery = 1 "
        "AND enable_variation = 0 AND stock > 0 " + where + " ORDER BY id",
        args,
    ).fetchall()


def cmd_export(a):
    db = connect(a.db)
    products = [
        dict(r)
        for r in db.execute(
            "SELECT id, seo_url, title, price_now, stock FROM product WHERE is_active = 1 ORDER BY id"
        )
    ]
    buy = [dict(r) for r in buyable(db)]
    categories = [
        r[0]
        for r in db.execute(
            "SELECT DISTINCT c.seo_url FROM category c JOIN product_category pc ON pc.category_id = c.id "
            "JOIN product p ON p.id = pc.product_id WHERE c.is_published = 1 AND c.is_active = 1 "
            "AND p.is_active = 1 ORDER BY c.seo_url"
        )
    ]
    words = sorted(
        {
            w
            for (t,) in db.execute("SELECT title FROM product WHERE is_active = 1")
            for w in re.findall(r"[A-Za-z]{4,}", t)
        }
    )
    districts = [
        dict(r) for r in db.execute("SELECT district, division FROM district ORDER BY district LIMIT 64")
    ] if table_has(db, "district", "division") else []
    out = {"products": products, "buyable": buy, "categories": categories, "words": words, "districts": districts}
    with open(a.out, "w") as f:
        json.dump(out, f)
    print(f"{len(products)} products ({len(buy)} buyable), {len(categories)} categories, {len(words)} search words")


def table_has(db, table, column):
    return any(r[1] == column for r in db.execute(f"PRAGMA table_info({table})"))


def cmd_flash_setup(a):
    """A new schedule that starts mid-run, on products in no running sale."""
    with connect(a.db) as db:
        now = int(time.time())
        taken = {
            r[0]
            for r in db.execute(
                "SELECT fi.product_id FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id "
                "WHERE fs.is_active = 1 AND fs.ends_at > ?",
                (now,),
            )
        }
        picks = [r for r in buyable(db) if r["id"] not in taken][: a.count]
        sid = db.execute(
            "INSERT INTO flash_schedule (fs_name, fs_description, starts_at, ends_at, show_price, is_active) "
            "VALUES ('Load-test Flash Sale', 'Starts mid-run.', ?, ?, 1, 1)",
            (a.starts_at, a.starts_at + 3600),
        ).lastrowid
        items = []
        for k, p in enumerate(picks):
            db.execute(
                "INSERT INTO flash_item (schedule_id, product_id, discount_percent, show_tag, qty, sort) "
                "VALUES (?, ?, ?, 1, 0, ?)",
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
    with connect(a.db) as db:
        stock = {str(i): s for i, s in db.execute("SELECT id, stock FROM product")}
    with open(a.out, "w") as f:
        json.dump(stock, f)


def cmd_hot_stock(a):
    with connect(a.db) as db:
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
    """Orders placed during the run, checked in the SQLite file after it."""
    res = {"orders": 0, "oversold_units": 0, "flash_cap_exceeded": 0, "duplicate_orders": 0,
           "orders_confirmed": 0, "orders_lost": 0}
    if not a.db or not os.path.exists(a.db):
        return res
    db = connect(a.db)
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
        "SELECT COALESCE(SUM(over), 0) FROM (SELECT MAX(0, SUM(d.qty) - fi.qty) AS over FROM order_detail d "
        "JOIN flash_item fi ON fi.id = d.flash_item_id WHERE fi.qty > 0 GROUP BY fi.id)"
    ).fetchone()[0]
    # Each load-test shopper (one self token) places exactly one order, retried
    # with the same idempotency key: any second order is a duplicate.
    res["duplicate_orders"] = db.execute(
        "SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM order_master "
        "WHERE self_token LIKE 'lt-%' GROUP BY self_token)"
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
        "load_average": a.uptime.strip() if a.uptime else None,
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
        if name.startswith(("fault_", "price_", "order_", "purge_", "search_", "page_", "cart_", "cache_hit{", "http_req_duration{kind")):
            v = m.get("values", m)
            r[name] = {k: v[k] for k in ("rate", "passes", "fails", "count", "p(95)", "p(99)", "max", "med") if k in v}
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
    print(f"\n{a.scenario}{' (smoke)' if a.smoke else ''} — {r['when']}, load {r['load_average']}")
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
            elif k in ("price_correct", "price_page_correct", "order_same_on_retry", "fault_read_ok", "fault_api_clean"):
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
    s.set_defaults(f=cmd_contend)
    s = sub.add_parser("report")
    s.add_argument("--scenario", required=True); s.add_argument("--smoke", action="store_true")
    s.add_argument("--summary", required=True); s.add_argument("--metrics-before")
    s.add_argument("--metrics-after"); s.add_argument("--db"); s.add_argument("--stock-before")
    s.add_argument("--orders-log"); s.add_argument("--uptime"); s.add_argument("--products", type=int)
    s.add_argument("--k6-status", type=int, default=0); s.add_argument("--extra")
    s.add_argument("--out", required=True); s.set_defaults(f=cmd_report)
    s = sub.add_parser("table"); s.add_argument("files", nargs="+"); s.set_defaults(f=cmd_table)
    a = p.parse_args()
    a.f(a)


if __name__ == "__main__":
    main()
