"""The demodulator's targets against one `make bench` run, as a table: each target, the
figure that decides it, and whether it is met. Figures are from the realistic channel.

Usage: bench_targets.py [--markdown] --cpu CPU.json [--daemon DAEMON.json] NAME=RESULT.json ...
  NAME: a stream of scripts/bench.sh (sweep24, busy24, dense24, noise24, low24, sweep20,
  busy20); the 3-6 dB bucket counts the sweep's messages there and, when given, all of the
  low stream's (every one of its messages is at 3-6 dB);
  RESULT.json: what `yield.py --json` wrote for it (aviator-adsb first, then the peers);
  CPU.json: {"readsb": ratio, ...}, each peer's CPU time as a share of ours on the dense sky;
  DAEMON.json: what scripts/bench-daemon.sh wrote (DAEMON_JSON) for the 300-aircraft sky,
  with readsb's daemon on the same samples (readsb_cpu_percent, readsb_peak_rss_mb) when it
  was measured; peak_anon_mb and readsb_peak_anon_mb, when given, are each process's own
  memory within its resident size (the rest is code mapped from files).
"""
import json
import sys

# The sweep's buckets, as yield.py names its rows.
BUCKETS = ["3-6 dB", "6-9 dB", "9-12 dB", "12-16 dB", "16-25 dB"]
# The bucket the low stream (low24) adds its messages to.
LOW_BUCKET = "3-6 dB"
OURS, PEER = "aviator-adsb", "readsb"


def share(row):
    """A row's yield in %: found / messages."""
    got, total = row[0], row[1]
    return 100.0 * got / total if total else 0.0


def targets(streams, cpu, daemon):
    """Rows of (target, figure, met) from the streams' results, the CPU ratios and the
    daemon's figures (empty when not measured)."""
    def rows(name, decoder):
        return streams[name]["decoders"][decoder]["rows"]

    def bucket(decoder, name):
        """The 2.4 MS/s row of bucket `name`: the sweep's, plus the low stream's for 3-6 dB
        (the element-wise sum of the two rows' counts)."""
        row = list(rows("sweep24", decoder)[name])
        if name == LOW_BUCKET and "low24" in streams:
            row = [a + b for a, b in zip(row, rows("low24", decoder)[name])]
        return row

    def where(name):
        return "sweep and low stream " + name if name == LOW_BUCKET and "low24" in streams else f"sweep {name}"

    rows_out = []
    # Yield at least readsb's: every sweep bucket, the busy and the dense sky.
    margins = [(where(b), share(bucket(OURS, b)) - share(bucket(PEER, b))) for b in BUCKETS]
    margins += [(f"{n[:-2]} sky", share(rows(n, OURS)["all"]) - share(rows(n, PEER)["all"]))
                for n in ("busy24", "dense24")]
    place, least = min(margins, key=lambda m: m[1])
    rows_out.append(("yield at least readsb's in every bucket and busy sky",
                     f"least lead {least:+.1f} points ({place})", least >= 0))
    # At 3-6 dB at least 1.3 times readsb's.
    ours, peer = share(bucket(OURS, LOW_BUCKET)), share(bucket(PEER, LOW_BUCKET))
    ratio = ours / peer if peer else float("inf")
    rows_out.append(("3-6 dB yield at least 1.3 times readsb's",
                     f"{ours:.1f} % against {peer:.1f} % ({ratio:.1f} times)", ratio >= 1.3))
    # readsb's frames we miss: at most 2 % of readsb's in every bucket (row[3]: found by the
    # peer and not by the first decoder named, aviator-adsb).
    missed = []
    for name in BUCKETS:
        row = bucket(PEER, name)
        missed.append((where(name), 100.0 * row[3] / row[0] if row[0] else 0.0, row[3], row[0]))
    place, worst, count, own = max(missed, key=lambda m: m[1])
    rows_out.append(("readsb's frames we miss at most 2 % of its own, every bucket",
                     f"worst {worst:.1f} % ({count} of {own} frames, {place})", worst <= 2.0))
    # No false frame anywhere.
    false = [(streams[name].get("label") or name, streams[name]["decoders"][OURS]["false"]) for name in streams]
    bad = [f"{label}: {n}" for label, n in false if n]
    rows_out.append(("no false frame on noise or in any stream",
                     "none" if not bad else ", ".join(bad), not bad))
    # 2.0 MS/s within 10 points of 2.4 MS/s, bucket by bucket, on the same sky.
    if "sweep20" in streams:
        gaps = [(b, share(rows("sweep24", OURS)[b]) - share(rows("sweep20", OURS)[b])) for b in BUCKETS]
        place, gap = max(gaps, key=lambda g: g[1])
        rows_out.append(("2.0 MS/s within 10 points of 2.4 MS/s in every bucket",
                         f"widest gap {gap:.1f} points (sweep {place})", gap <= 10.0))
    # CPU on the dense sky at most readsb's.
    if PEER in cpu:
        rows_out.append(("CPU on the dense sky at most readsb's (its time / ours at least 1.0)",
                         f"{cpu[PEER]:.2f}", cpu[PEER] >= 1.0))
    # The daemon at real time on a 300-aircraft sky, beside readsb's daemon on the same
    # samples in the same runs when it was measured.
    if daemon:
        peer_cpu, peer_mb = daemon.get("readsb_cpu_percent"), daemon.get("readsb_peak_rss_mb")
        beside_cpu = f"; readsb {peer_cpu:.1f} %" if peer_cpu is not None else ""
        # The resident size counts the code mapped from files too; a process's own memory
        # (heap, stacks, buffers) is the part that grows with the sky.
        def own(key):
            return f", {daemon[key]} MB its own" if key in daemon else ""
        beside_mb = f" (readsb {peer_mb} MB{own('readsb_peak_anon_mb')})" if peer_mb is not None else ""
        rows_out.append(("daemon on a 300-aircraft sky under 5 % of one core",
                         f"{daemon['cpu_percent']:.1f} % (median of {daemon['runs']} runs, "
                         f"{daemon['cpu_low']:.1f} % to {daemon['cpu_high']:.1f} %{beside_cpu})",
                         daemon["cpu_percent"] < 5.0))
        rows_out.append(("daemon on a 300-aircraft sky under 40 MB",
                         f"{daemon['peak_rss_mb']} MB at its peak{own('peak_anon_mb')}{beside_mb}", daemon["peak_rss_mb"] < 40))
    return rows_out


def load(path):
    """A JSON file's content; a clear error and exit status 2 when it cannot be read."""
    try:
        with open(path) as file:
            return json.load(file)
    except (OSError, ValueError) as error:
        print(f"bench_targets: cannot read {path}: {error}", file=sys.stderr)
        sys.exit(2)


def main(argv):
    markdown = "--markdown" in argv
    argv = [a for a in argv if a != "--markdown"]
    files = {}
    for option in ("--cpu", "--daemon"):
        if option in argv:
            at = argv.index(option)
            if at + 1 >= len(argv):
                print(f"bench_targets: {option} needs a file", file=sys.stderr)
                return 2
            files[option] = load(argv[at + 1])
            del argv[at:at + 2]
    streams = {}
    for spec in argv:
        name, _, path = spec.partition("=")
        if not path:
            print(f"bench_targets: expected NAME=RESULT.json, not '{spec}'", file=sys.stderr)
            return 2
        streams[name] = load(path)
    missing = [n for n in ("sweep24", "busy24", "dense24") if n not in streams]
    if missing:
        print(f"bench_targets: no result for {', '.join(missing)}", file=sys.stderr)
        return 2
    rows = targets(streams, files.get("--cpu", {}), files.get("--daemon", {}))
    if markdown:
        print("| target | this run | met |")
        print("| --- | --- | --- |")
        for target, figure, met in rows:
            print(f"| {target} | {figure} | {'yes' if met else 'no'} |")
    else:
        width = max(len(t) for t, _, _ in rows) + 2
        for target, figure, met in rows:
            print(f"  {target:<{width}}{'met' if met else 'NOT MET':<9}{figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
