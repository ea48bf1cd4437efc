#!/usr/bin/env bash
# The feed load test at full length: 100 reading clients and one that never reads, on one feed
# server, 30 s at one frame a second. Prints one line of figures (frames delivered, gaps,
# latency, resident memory, slow clients disconnected) and fails if any client missed a frame,
# got one late, or memory grew. Override with FEED_LOAD_SECONDS, FEED_LOAD_INTERVAL,
# FEED_LOAD_CLIENTS, FEED_LOAD_AIRCRAFT, FEED_LOAD_STALL_TIMEOUT.
set -euo pipefail
cd "$(dirname "$0")/.."
export FEED_LOAD_SECONDS="${FEED_LOAD_SECONDS:-30}"
export FEED_LOAD_INTERVAL="${FEED_LOAD_INTERVAL:-1}"
export FEED_LOAD_CLIENTS="${FEED_LOAD_CLIENTS:-100}"
export FEED_LOAD_AIRCRAFT="${FEED_LOAD_AIRCRAFT:-150}"
# "default": the server's own stall timeout (five intervals, at least 3 s).
export FEED_LOAD_STALL_TIMEOUT="${FEED_LOAD_STALL_TIMEOUT:-default}"
export FEED_LOAD_ALONE=1
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if swift test --filter FeedLoadTests >"$log" 2>&1; then status=0; else status=$?; fi
grep -E "^feed load:" "$log" || true
grep -E "✘" "$log" || true
[ "$status" -eq 0 ] && echo "feed load test passed" || { echo "feed load test FAILED (log: swift test --filter FeedLoadTests)"; tail -n 20 "$log"; }
exit "$status"
