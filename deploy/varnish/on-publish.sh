#!/usr/bin/env bash
#
# Purge hook for the Varnish edge (deploy/varnish/physpay.vcl), run by physpay:
#
#   physpay build --on-publish 'deploy/varnish/on-publish.sh [varnishadm options] -- <physpay URL>...'
#   physpay builds rollback --on-publish '...same...'
#
# e.g. deploy/varnish/on-publish.sh -T 127.0.0.1:6082 -S /etc/varnish/secret -- http://127.0.0.1:8081 http://127.0.0.1:8082
#
#  1. waits until every listed physpay process serves the new build (its /readyz names $PHYSPAY_BUILD_ID;
#     each process notices a new build within --poll-ms), for at most PHYSPAY_WAIT_SECONDS (default 60);
#     a ban issued before that could be refilled from a process still serving the previous build;
#  2. bans every stored object of another build: `ban obj.http.X-PhysPay-Build != <id>` (objects without
#     the header, such as alias redirects, are banned too and simply refetched).
#
# PHYSPAY_BUILD_ID is set by physpay. Exit codes: 0 done, 1 a process never served the build or the ban
# failed, 2 bad arguments.
set -euo pipefail

die() { echo "on-publish: $2" >&2; exit "$1"; }

build="${PHYSPAY_BUILD_ID:-}"
[[ -n "$build" ]] || die 2 "PHYSPAY_BUILD_ID is not set (run this from physpay build --on-publish)"
[[ "$build" =~ ^[A-Za-z0-9._-]+$ ]] || die 2 "unexpected build id: $build"

adm=()
while [[ $# -gt 0 && "$1" != "--" ]]; do adm+=("$1"); shift; done
[[ $# -gt 0 ]] && shift # the --
backends=("$@")
(( ${#backends[@]} > 0 )) || die 2 "name the physpay processes after --, e.g. -- http://127.0.0.1:8081 http://127.0.0.1:8082"
command -v curl >/dev/null || die 2 "curl is required"
command -v varnishadm >/dev/null || die 2 "varnishadm is required (Debian package varnish)"

wait_s="${PHYSPAY_WAIT_SECONDS:-60}"
deadline=$(( $(date +%s) + wait_s ))
for url in "${backends[@]}"; do
  until curl -fsS --max-time 2 "${url%/}/readyz" 2>/dev/null | grep -q "\"build_id\":\"$build\""; do
    (( $(date +%s) < deadline )) || die 1 "$url did not serve build $build within ${wait_s} s; nothing banned"
    sleep 0.2
  done
done

varnishadm "${adm[@]}" ban "obj.http.X-PhysPay-Build != \"$build\"" >/dev/null || die 1 "varnishadm ban failed"
echo "on-publish: ${#backends[@]} process(es) serve $build; banned the edge's objects of other builds" >&2
