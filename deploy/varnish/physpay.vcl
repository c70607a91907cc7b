#
# physpay edge cache policy (Varnish 7.x, VCL 4.1).
#
# What it does, in the order a request meets it:
#   - the keyed API (/api/v1), the tool server (/mcp), health probes and anything carrying an API key or
#     credentials are passed to physpay: never looked up, never stored;
#   - /metrics is not reachable through the edge (operators read it on the physpay port);
#   - everything else (open data feeds, pages, CSV downloads, the API's contract documents) is looked up
#     by URL alone (not Host: one site), and stored only when physpay marks it `public` and it is not
#     keyed: the one-hour `max-age` physpay sends is the edge TTL;
#   - a hit never reaches physpay, so it is never counted against the per-IP limits;
#   - a client's If-None-Match is answered 304 here from the stored strong ETag; when an object's TTL has
#     run out it is revalidated with physpay by ETag (an uncounted 304) for up to `keep`;
#   - 404, 429 and 503 answers are `no-store` at physpay and are never stored here;
#   - compression: physpay sends brotli, gzip or the file as it is by Accept-Encoding, with Vary and one
#     strong ETag per coding; the client's Accept-Encoding is reduced here to "br", "gzip" or nothing, so a
#     URL has at most three stored objects. Run varnishd with `-p http_gzip_support=off`: with Varnish's
#     own gzip handling on, it would ask physpay for gzip only and gunzip for other clients, weakening the ETag;
#   - X-Cache says HIT, MISS or PASS; on a hit the per-client RateLimit and X-Request-Id headers of the
#     request that filled the cache are removed (they described someone else's request).
#
# Backends: this file includes "physpay-backends.vcl", which declares the physpay processes and a
# `sub physpay_backends` that adds each to the round-robin director `physpay` (see backends.example.vcl).
# X-Forwarded-For: varnishd appends the client's address; run physpay with `--trust-proxy 1` (exactly one
# trusted hop), never a subnet list that would also trust clients on the same network as the cache.
#
# A new build: physpay's `--on-publish` hook (deploy/varnish/on-publish.sh) waits until every backend
# serves the new build, then bans every stored object of another build. Without it the edge serves the
# new figures when each object's TTL (one hour) runs out.
#
vcl 4.1;

import directors;
import std;

sub vcl_init {
    new physpay = directors.round_robin();
    call physpay_backends;
}

# after vcl_init: it adds its backends to the director declared there
include "physpay-backends.vcl";

sub vcl_recv {
    set req.backend_hint = physpay.backend();
    unset req.http.X-Cache;

    # Operator-only endpoints stay on the physpay port.
    if (req.url ~ "(?i)^/+metrics(/|\?|$)") {
        return (synth(404, "Not Found"));
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Keyed and per-client answers: never from the cache. (physpay also marks them `private` with
    # `Vary: X-API-Key`, which vcl_backend_response refuses to store: two locks on one door.)
    if (req.http.X-API-Key || req.http.Authorization || req.http.Cookie) {
        return (pass);
    }
    if (req.url ~ "(?i)^/+(api|mcp)(/|\?|%2f|$)" || req.url ~ "(?i)^/+(healthz|readyz)(/|\?|$)") {
        return (pass);
    }
    # Billing and account pages (the checkout success page shows a new API key once) and the report form
    # (each visitor gets their own form token, cookie and challenge): never looked up, stored or coalesced;
    # straight to physpay.
    if (req.url ~ "(?i)^/+(account|billing|contribute)(/|\?|%2f|$)") {
        return (pass);
    }
    # The open data API's index answers HTML to browsers and JSON to everything else (Vary: Accept):
    # keep two variants, not one per Accept string.
    if (req.url ~ "^/data/api/v1/?(\?.*)?$") {
        if (req.http.Accept ~ "text/html") {
            set req.http.Accept = "text/html";
        } else {
            set req.http.Accept = "application/json";
        }
    }
    # One object per coding (physpay's answers say Vary: Accept-Encoding): br when the client takes it,
    # else gzip, else none; a coding given q=0 is refused. Mirrors physpay's own choice.
    if (req.http.Accept-Encoding) {
        if (req.http.Accept-Encoding ~ "(?i)(^|,)\s*br\s*(,|;|$)" && req.http.Accept-Encoding !~ "(?i)(^|,)\s*br\s*;\s*q=0(\.0*)?\s*(,|$)") {
            set req.http.Accept-Encoding = "br";
        } else if (req.http.Accept-Encoding ~ "(?i)(^|,)\s*(x-)?gzip\s*(,|;|$)" && req.http.Accept-Encoding !~ "(?i)(^|,)\s*(x-)?gzip\s*;\s*q=0(\.0*)?\s*(,|$)") {
            set req.http.Accept-Encoding = "gzip";
        } else {
            unset req.http.Accept-Encoding;
        }
    }
    # Grace: serve a stale object for 10 s while it is refetched, or for up to 6 h when no backend is
    # healthy (figures from the last build rather than an error).
    if (std.healthy(req.backend_hint)) {
        set req.grace = 10s;
    }
    return (hash);
}

sub vcl_hash {
    # physpay's answers do not depend on the Host header: one object per URL, whatever Host says.
    hash_data(req.url);
    return (lookup);
}

sub vcl_backend_response {
    if (bereq.uncacheable) {
        return (deliver);
    }
    # Store only what physpay says anyone may store, for what it says (max-age=3600).
    if (beresp.status != 200 && beresp.status != 301 ||
        beresp.http.Cache-Control !~ "(?i)(^|[ ,])public([ ,]|$)" ||
        beresp.http.Cache-Control ~ "(?i)private|no-store|no-cache" ||
        beresp.http.Vary ~ "(?i)x-api-key|\*" ||
        beresp.http.Set-Cookie) {
        # hit-for-miss: later requests for this URL go straight to physpay (not queued behind one fetch)
        set beresp.uncacheable = true;
        set beresp.ttl = 60s;
        return (deliver);
    }
    set beresp.grace = 6h;
    set beresp.keep = 1h;
    return (deliver);
}

sub vcl_deliver {
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } else if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
        unset resp.http.RateLimit;
        unset resp.http.X-Request-Id;
    } else {
        set resp.http.X-Cache = "MISS";
    }
    return (deliver);
}

sub vcl_synth {
    if (resp.status == 404) {
        set resp.http.Content-Type = "application/json; charset=utf-8";
        set resp.http.Cache-Control = "no-store";
        # (a space before the closing brace: `"}` would end the long string)
        set resp.body = {"{"error": "no such endpoint: metrics are read on the physpay port" }
"};
        return (deliver);
    }
}
