# Varnish in front of the benchmark origin: the built-in VCL's behaviour, plus X-Cache.
vcl 4.1;
backend origin { .host = "127.0.0.1"; .port = "@ORIGIN_PORT@"; }
sub vcl_deliver {
    if (obj.hits > 0) { set resp.http.X-Cache = "HIT"; } else { set resp.http.X-Cache = "MISS"; }
}
