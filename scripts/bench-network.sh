#!/usr/bin/env bash
# make bench-network: for each count of publishers, one mosquitto and one aggregator
# (`aviator-adsb --net-only --mqtt-in ... --beast-out ...`) on loopback, and
# `aviator-adsb bench-network` publishing 1,000 frames/s per receiver and timing each frame
# through the aggregator's Beast output. Prints the aggregator's CPU (share of one core) and
# memory, the latency and the frames lost.
# Usage: scripts/bench-network.sh BINARY SECONDS COUNT...
set -euo pipefail
binary=$1; seconds=$2; shift 2
work=$(mktemp -d /tmp/aviator-bench-network-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm_kib() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
hz=$(getconf CLK_TCK)

printf '%-11s %-9s %-9s %-9s %-40s\n' publishers "agg CPU" "agg RSS" "agg peak" "what bench-network saw"
for publishers in "$@"; do
    broker_port=$(free_port); beast_port=$(free_port)
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n' "$broker_port" > "$work/mosquitto.conf"
    /usr/sbin/mosquitto -c "$work/mosquitto.conf" & broker=$!
    sleep 0.5
    "$binary" --net-only --mqtt-in "mqtt://127.0.0.1:$broker_port" --beast-out "$beast_port" \
        --socket "$work/feed.sock" --log-level warning --stats-interval 3600 & aggregator=$!
    sleep 1.5
    before=$(cpu_ticks $aggregator); start=$(date +%s.%N)
    seen=$("$binary" bench-network --broker "mqtt://127.0.0.1:$broker_port" --beast "127.0.0.1:$beast_port" \
        --publishers "$publishers" --rate 1000 --seconds "$seconds")
    after=$(cpu_ticks $aggregator); end=$(date +%s.%N)
    rss=$(rss_kib $aggregator); hwm=$(hwm_kib $aggregator)
    cpu=$(python3 -c "print(f'{100 * ($after - $before) / $hz / ($end - $start):.0f}%')")
    printf '%-11s %-9s %-9s %-9s %s\n' "$publishers" "$cpu" "$((rss / 1024)) MiB" "$((hwm / 1024)) MiB" "$seen"
    kill -INT $aggregator; wait $aggregator || true
    kill $broker; wait $broker || true
done
