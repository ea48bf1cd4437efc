"""The demodulator's targets against one `make bench` run, as a table: each target, the
figure that decides it, and whether it is met. Figures are from the realistic channel.

Usage: bench_targets.py [--markdown] --cpu CPU.json NAME=RESULT.json ...
  NAME: a stream of scripts/bench.sh (sweep24, busy24, dense24, noise24, sweep20, busy20);
  RESULT.json: what `yield.py --json` wrote for it (aviator-adsb first, then the peers);
  CPU.json: {"readsb": ratio, ...}, each peer's CPU time as a share of ours on the dense sky.
"""
import json
import sys

# The sweep's buckets, as yield.py names its rows.
BUCKETS = ["3-6 dB", "6-9 dB", "9-12 dB", "12-16 dB", "16-25 dB"]
OURS, PEER = "aviator-adsb", "readsb"


def share(row):
    """A row's yield in %: found / messages."""
    got, total = row[0], row[1]
    return 100.0 * got / total if total else 0.0


def targets(streams, cpu):
    """Rows of (target, figure, met) from the streams' results and the CPU ratios."""
    def rows(name, decoder):
        return streams[name]["decoders"][decoder]["rows"]

    rows_out = []
    # Yield at least readsb's: every sweep bucket, the busy and the dense sky.
    margins = [(f"sweep {b}", share(rows("sweep24", OURS)[b]) - share(rows("sweep24", PEER)[b])) for b in BUCKETS]
    margins += [(f"{n[:-2]} sky", share(rows(n, OURS)["all"]) - share(rows(n, PEER)["all"]))
                for n in ("busy24", "dense24")]
    where, least = min(margins, key=lambda m: m[1])
    rows_out.append(("yield at least readsb's in every bucket and busy sky",
                     f"least lead {least:+.1f} points ({where})", least >= 0))
    # At 3-6 dB at least 1.3 times readsb's.
    ours, peer = share(rows("sweep24", OURS)["3-6 dB"]), share(rows("sweep24", PEER)["3-6 dB"])
    ratio = ours / peer if peer else float("inf")
    rows_out.append(("3-6 dB yield at least 1.3 times readsb's",
                     f"{ours:.1f} % against {peer:.1f} % ({ratio:.1f} times)", ratio >= 1.3))
    # readsb's frames we miss: at most 2 % of readsb's in every bucket (row[3]: found by the
    # peer and not by the first decoder named, aviator-adsb).
    missed = []
    for bucket in BUCKETS:
        row = rows("sweep24", PEER)[bucket]
        missed.append((f"sweep {bucket}", 100.0 * row[3] / row[0] if row[0] else 0.0, row[3]))
    where, worst, count = max(missed, key=lambda m: m[1])
    rows_out.append(("readsb's frames we miss at most 2 % of its own, every bucket",
                     f"worst {worst:.1f} % ({count} frames, {where})", worst <= 2.0))
    # No false frame anywhere.
    false = [(streams[name].get("label") or name, streams[name]["decoders"][OURS]["false"]) for name in streams]
    bad = [f"{label}: {n}" for label, n in false if n]
    rows_out.append(("no false frame on noise or in any stream",
                     "none" if not bad else ", ".join(bad), not bad))
    # 2.0 MS/s within 10 points of 2.4 MS/s, bucket by bucket, on the same sky.
    if "sweep20" in streams:
        gaps = [(b, share(rows("sweep24", OURS)[b]) - share(rows("sweep20", OURS)[b])) for b in BUCKETS]
        where, gap = max(gaps, key=lambda g: g[1])
        rows_out.append(("2.0 MS/s within 10 points of 2.4 MS/s in every bucket",
                         f"widest gap {gap:.1f} points (sweep {where})", gap <= 10.0))
    # CPU on the dense sky at most readsb's.
    if PEER in cpu:
        rows_out.append(("CPU on the dense sky at most readsb's (its time / ours at least 1.0)",
                         f"{cpu[PEER]:.2f}", cpu[PEER] >= 1.0))
    return rows_out


def main(argv):
    markdown = "--markdown" in argv
    argv = [a for a in argv if a != "--markdown"]
    cpu = {}
    if "--cpu" in argv:
        at = argv.index("--cpu")
        if at + 1 >= len(argv):
            print("bench_targets: --cpu needs a file", file=sys.stderr)
            return 2
        cpu = json.load(open(argv[at + 1]))
        del argv[at:at + 2]
    streams = {}
    for spec in argv:
        name, _, path = spec.partition("=")
        if not path:
            print(f"bench_targets: expected NAME=RESULT.json, not '{spec}'", file=sys.stderr)
            return 2
        streams[name] = json.load(open(path))
    missing = [n for n in ("sweep24", "busy24", "dense24") if n not in streams]
    if missing:
        print(f"bench_targets: no result for {', '.join(missing)}", file=sys.stderr)
        return 2
    rows = targets(streams, cpu)
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
