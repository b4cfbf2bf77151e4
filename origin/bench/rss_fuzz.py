"""A bounded fuzz of the origin for origin/bench/rss.sh: python3 rss_fuzz.py URL SECONDS CLIENTS DB.
KINDS=image,keyword,... sends only those kinds (route, keyword, listing, product, image, unknown)."""
import json, os, random, re, sqlite3, string, sys, threading, time, urllib.error, urllib.parse, urllib.request
from collections import Counter

base, seconds, clients, db = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
con = sqlite3.connect(db)
seo = [r[0] for r in con.execute("SELECT seo_url FROM product WHERE is_active ORDER BY id")]
cats = [r[0] for r in con.execute("SELECT seo_url FROM category")] + ["products"]
words = [w for (t,) in con.execute("SELECT title FROM product LIMIT 500") for w in re.findall(r"[A-Za-z]{3,}", t)]
con.close()

def get(path, timeout=30):
    try:
        with urllib.request.urlopen(base + path, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except Exception:
        return 0, b""

_, doc = get("/api/openapi.json")
routes = [p for p, ops in json.loads(doc)["paths"].items() if "get" in ops and "{" not in p]
images = set()
for s in random.sample(seo, min(40, len(seo))):
    _, body = get("/api/product/images?seo_url=" + s)
    images.update(re.findall(r"(?:/storage/|uploads/)[^\"?]+\.(?:jpg|jpeg|png|webp)", body.decode("utf-8", "replace")))
images = sorted("/storage/" + i.split("/storage/")[-1] if not i.startswith("/storage/") else i for i in images)

def junk():
    return random.choice([
        "".join(random.choices(string.ascii_letters + string.digits, k=random.randint(1, 40))),
        str(random.randint(-10**12, 10**12)), "", "%00", "'\"<>", "ক্ষ" * random.randint(1, 30), "x" * 300,
    ])

def word():
    return " ".join(random.choices(words, k=random.randint(1, 3))) + random.choice(["", "s", "x", random.choice(string.ascii_lowercase)])

kinds = {
    "route": lambda: random.choice(routes) + "?" + urllib.parse.urlencode({random.choice(["seo_url", "id", "page", "keyword", "per_page", "sort_by", "q"]): junk() for _ in range(random.randint(0, 3))}),
    "keyword": lambda: "/api/category/products?" + urllib.parse.urlencode({"seo_url": "products", "keyword": word(), "page": random.randint(1, 5)}),
    "listing": lambda: f"/c/{random.choice(cats)}?" + urllib.parse.urlencode({"page": random.randint(1, 30), "sort_by": random.choice(["price_low", "price_high", "new", "popular", junk()]), "price_min": random.randint(0, 50000), "price_max": random.randint(50000, 500000)}),
    "product": lambda: "/api/product/info?seo_url=" + urllib.parse.quote(random.choice(seo)),
    "image": lambda: (random.choice(images) if images else "/storage/none.jpg") + f"?w={random.randint(16, 1200)}&q={random.randint(1, 100)}",
    "unknown": lambda: "/" + junk() + "/" + junk(),
}
sent, statuses = Counter(), Counter()
end = time.time() + seconds

only = [k for k in os.environ.get("KINDS", "").split(",") if k in kinds]

def client():
    names = only or list(kinds)
    while time.time() < end:
        k = random.choice(names)
        status, _ = get(urllib.parse.quote(kinds[k](), safe="/?=&%"))
        sent[k] += 1
        statuses[status // 100 * 100 if status else 0] += 1

threads = [threading.Thread(target=client) for _ in range(clients)]
[t.start() for t in threads]
[t.join() for t in threads]
print("requests:", dict(sent), "statuses:", dict(statuses), "images:", len(images), flush=True)
