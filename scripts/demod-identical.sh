#!/usr/bin/env bash
# Shows that the demodulator's output did not change: runs `demod` of two binaries over every
# recording in Samples/ and ../shared/iq, and over simulated 10 s busy skies at 2.4 and
# 2.0 MS/s on both channels (realistic and kind), with and without overlap cancellation and
# with --mlat timestamps, and compares the outputs byte for byte.
#
# Usage: scripts/demod-identical.sh [BASE [NEW]]
#   BASE  a binary, or a git revision to build in a temporary worktree (default: HEAD, the
#         last commit, against which a working tree's changes are compared)
#   NEW   a binary (default: .build/release/aviator-adsb, built by `make release`)
# Exit status 0 when every output is identical, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
BASE=${1:-HEAD}
NEW=${2:-.build/release/aviator-adsb}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/aviator-identical.XXXXXX")
cleanup() {
    if [ -d "$WORK/tree" ]; then git worktree remove --force "$WORK/tree" >/dev/null 2>&1 || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

if [ ! -x "$BASE" ]; then
    echo "demod-identical: building $BASE in a temporary worktree (a release build: several minutes)"
    git worktree add --detach -q "$WORK/tree" "$BASE"
    (cd "$WORK/tree" && swift build -c release --product aviator-adsb >"$WORK/build.log" 2>&1) \
        || { tail -20 "$WORK/build.log" >&2; exit 1; }
    BASE="$WORK/tree/.build/release/aviator-adsb"
fi
[ -x "$NEW" ] || { echo "demod-identical: $NEW not found; run 'make release' first" >&2; exit 1; }

# name|file|rate|format
inputs=()
for f in Samples/*.cu8; do
    rate=2.4M
    [[ $f == *-2m.cu8 ]] && rate=2.0M
    inputs+=("$(basename "$f")|$f|$rate|cu8")
done
if [ -d "$SHARED/iq" ]; then
    for f in "$SHARED"/iq/*.sc16; do inputs+=("$(basename "$f")|$f|2.4M|cs16"); done
    for f in "$SHARED"/iq/*.cu8; do inputs+=("$(basename "$f")|$f|2.0M|cu8"); done
else
    echo "demod-identical: $SHARED/iq not found: comparing Samples/ and simulated skies only" >&2
fi
# Simulated with the new binary, which knows both channels (the simulation does not depend on
# the demodulator, so both binaries read the same bytes).
for channel in real kind; do
    "$NEW" simulate --channel "$channel" --out "$WORK/busy24-$channel.cu8" --sample-rate 2.4M --duration 10 \
        --busy --seed 7102 2>/dev/null
    "$NEW" simulate --channel "$channel" --out "$WORK/busy20-$channel.cu8" --sample-rate 2.0M --duration 10 \
        --busy --seed 7104 2>/dev/null
    inputs+=("busy24 ($channel channel)|$WORK/busy24-$channel.cu8|2.4M|cu8"
             "busy20 ($channel channel)|$WORK/busy20-$channel.cu8|2.0M|cu8")
done

differ=0
printf '%-34s %-22s %8s  %s\n' recording options frames result
for entry in "${inputs[@]}"; do
    IFS='|' read -r name file rate format <<<"$entry"
    for options in "--mlat" "--mlat --no-cancel-overlaps"; do
        # shellcheck disable=SC2086
        "$BASE" demod "$file" --sample-rate "$rate" --format "$format" $options >"$WORK/base" 2>/dev/null
        # shellcheck disable=SC2086
        "$NEW" demod "$file" --sample-rate "$rate" --format "$format" $options >"$WORK/new" 2>/dev/null
        frames=$(wc -l <"$WORK/new")
        if cmp -s "$WORK/base" "$WORK/new"; then
            result=identical
        else
            result="DIFFERENT ($(wc -l <"$WORK/base") frames before)"
            differ=1
        fi
        printf '%-34s %-22s %8s  %s\n' "$name" "${options#--mlat}" "$frames" "$result"
    done
done
if [ $differ = 0 ]; then echo "demod-identical: every output is byte-identical"; fi
exit $differ
