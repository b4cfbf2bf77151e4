#!/usr/bin/env bash
# Checks generated HTML with the W3C Nu checker (npm `vnu-jar`, run by Java):
# one page of every page type found in a built site's manifest (home,
# category, product, product set, blog and news lists and posts, gallery,
# shop pages, CMS page, per-visitor shells, 404 and 500). Prints each file's
# messages and a count; exits non-zero on any error.
#
#   generator/bench/validate.sh SITE_DIR
#
# vnu-jar is installed once into ~/.cache/furniture-shop/vnu (VNU_DIR).
set -euo pipefail
SITE="${1:?usage: validate.sh SITE_DIR}"
VNU_VERSION=26.9.27
VNU_DIR="${VNU_DIR:-$HOME/.cache/furniture-shop/vnu}"
JAR="$VNU_DIR/node_modules/vnu-jar/build/dist/vnu.jar"
if [ ! -f "$JAR" ] || ! grep -q "\"version\": \"$VNU_VERSION\"" "$VNU_DIR/node_modules/vnu-jar/package.json" 2>/dev/null; then
  echo "installing vnu-jar $VNU_VERSION into $VNU_DIR" >&2
  mkdir -p "$VNU_DIR"
  npm install --silent --no-audit --no-fund --prefix "$VNU_DIR" "vnu-jar@$VNU_VERSION" >&2
fi
command -v java >/dev/null || { echo "java is needed (apt-get install default-jre-headless)" >&2; exit 1; }

# The first page of each type, by the shape of its path in the manifest.
mapfile -t FILES < <(python3 - "$SITE" <<'PY'
import json, os, re, sys
site = sys.argv[1]
pages = sorted(json.load(open(os.path.join(site, "manifest.json")))["pages"])
types = [
    ("home", r"^/$"),
    ("category", r"^/c/(?!products$)[^/]+$"),
    ("all products", r"^/c/products$"),
    ("product", r"^/product/(?!review)[^/]+$"),
    ("product set", r"^/product-set/[^/]+$"),
    ("blog list", r"^/blogs$"),
    ("blog post", r"^/blogs/[^/]+$"),
    ("news list", r"^/news-event$"),
    ("news post", r"^/news-event/[^/]+$"),
    ("gallery list", r"^/gallery$"),
    ("gallery", r"^/gallery/[^/]+$"),
    ("flash sale", r"^/page/flash-sale$"),
    ("showrooms", r"^/page/showrooms$"),
    ("cms page", r"^/page/(?!(flash-sale|top-offers|bundle-offers|prebooking|showrooms|contact|chatbuy|track-order)$)[^/]+$"),
    ("cart shell", r"^/cart$"),
    ("checkout shell", r"^/checkout$"),
    ("login shell", r"^/user/login$"),
    ("account shell", r"^/user/[^/]+$"),
    ("track order", r"^/page/track-order$"),
    ("not found", r"^/404\.html$"),
    ("server error", r"^/500\.html$"),
    ("offline", r"^/offline$"),
]
missing = []
for name, pattern in types:
    hit = next((p for p in pages if re.match(pattern, p)), None)
    if hit is None:
        missing.append(name)
        continue
    rel = hit.lstrip("/")
    path = os.path.join(site, rel) if rel.endswith(".html") else os.path.join(site, rel, "index.html")
    print(path)
if missing:
    print("page types not found in the manifest: " + ", ".join(missing), file=sys.stderr)
    sys.exit(3)
PY
)
echo "checking ${#FILES[@]} pages (one per page type) with the Nu checker $VNU_VERSION"
status=0
java -jar "$JAR" --also-check-css --format gnu "${FILES[@]}" 2>"$SITE/.vnu.txt" || status=$?
errors=$(grep -c ':error:\|error:' "$SITE/.vnu.txt" || true)
warnings=$(grep -c 'info warning\|warning:' "$SITE/.vnu.txt" || true)
cat "$SITE/.vnu.txt"
rm -f "$SITE/.vnu.txt"
echo "${#FILES[@]} pages: $errors errors, $warnings warnings"
[ "$status" -eq 0 ] && [ "$errors" -eq 0 ]
