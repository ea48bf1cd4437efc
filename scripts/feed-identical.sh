#!/usr/bin/env bash
# Checks that the feed's bytes are still the recorded ones: frames of the busy-airport sample
# (through a pipeline and tracker on a fixed clock) and of hand-made aircraft for several
# views, greetings, command answers and the MQTT output's aircraft objects, compared byte for
# byte with Tests/Fixtures/feed-golden.txt by FeedGoldenTests. With --record the fixture is
# written again from the current code (only for a deliberate change of the wire: review the
# diff). With --bench it also prints how long the hub takes to render a busy frame for 20
# views. SCRATCH sets the build directory (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path "${SCRATCH:-.build}")
case "${1:-}" in
--record) export FEED_GOLDEN_RECORD=1 ;;
--bench) export FEED_RENDER_BENCH=1 ;;
"") ;;
*)
    echo "usage: $0 [--record|--bench]" >&2
    exit 2
    ;;
esac
swift test "${scratch[@]}" --filter FeedGoldenTests
