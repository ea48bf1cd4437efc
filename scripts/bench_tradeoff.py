"""The demodulator's targets under several configurations of `demod`, side by side: what
meeting one target by switching techniques off would cost the others. Each configuration's
figures come from the same `make bench` run as the defaults', judged as
scripts/bench_targets.py judges them.

Usage: bench_tradeoff.py [--markdown] --cpu-times TIMES.json
           --configuration LABEL=CPU_KEY NAME=RESULT.json ... [--configuration ...]
  TIMES.json: {decoder: [CPU seconds of each run], ...} on the dense sky, the runs of every
  decoder taken in turn, so run i of one pairs with run i of another; "readsb" among them;
  LABEL: the configuration's column title; CPU_KEY: its decoder in TIMES.json;
  NAME=RESULT.json: as for bench_targets.py, the streams this configuration decoded
  (aviator-adsb first in each result, readsb beside it on the 2.4 MS/s streams).
The CPU target's figure is the median over run pairs of readsb's time / the configuration's.
"""
import statistics
import sys

import bench_targets

PEER = "readsb"


def columns(configurations, times):
    """Per configuration, its label and the rows of (target, figure, met) of bench_targets."""
    result = []
    for label, key, streams in configurations:
        if key not in times or PEER not in times:
            raise KeyError(f"no CPU times for {key if key not in times else PEER}")
        ratio = statistics.median(peer / own for peer, own in zip(times[PEER], times[key]))
        result.append((label, bench_targets.targets(streams, {PEER: ratio}, {})))
    return result


def parse(argv):
    """(markdown, TIMES.json's path, [(label, CPU key, {stream: result})]) from the arguments."""
    markdown, times, configurations = False, None, []
    arguments = iter(argv)
    for argument in arguments:
        if argument == "--markdown":
            markdown = True
        elif argument in ("--cpu-times", "--configuration"):
            value = next(arguments, None)
            if value is None:
                raise ValueError(f"{argument} needs a value")
            if argument == "--cpu-times":
                times = value
            else:
                label, _, key = value.partition("=")
                if not key:
                    raise ValueError(f"expected --configuration LABEL=CPU_KEY, not '{value}'")
                configurations.append((label, key, {}))
        else:
            name, _, path = argument.partition("=")
            if not path or not configurations:
                raise ValueError(f"expected NAME=RESULT.json after a --configuration, not '{argument}'")
            configurations[-1][2][name] = path
    if times is None or not configurations:
        raise ValueError("needs --cpu-times and at least one --configuration")
    return markdown, times, configurations


def main(argv):
    try:
        markdown, times_path, configurations = parse(argv)
    except ValueError as error:
        print(f"bench_tradeoff: {error}", file=sys.stderr)
        return 2
    times = bench_targets.load(times_path)
    loaded = [(label, key, {name: bench_targets.load(path) for name, path in streams.items()})
              for label, key, streams in configurations]
    for label, _, streams in loaded:
        missing = [n for n in ("sweep24", "busy24", "dense24") if n not in streams]
        if missing:
            print(f"bench_tradeoff: {label}: no result for {', '.join(missing)}", file=sys.stderr)
            return 2
    try:
        table = columns(loaded, times)
    except KeyError as error:
        print(f"bench_tradeoff: {error.args[0]}", file=sys.stderr)
        return 2
    targets = [target for target, _, _ in table[0][1]]
    if markdown:
        print("| target | " + " | ".join(label for label, _ in table) + " |")
        print("| --- |" + " --- |" * len(table))
        for index, target in enumerate(targets):
            cells = [f"{'yes' if rows[index][2] else 'no'}: {rows[index][1]}" for _, rows in table]
            print(f"| {target} | " + " | ".join(cells) + " |")
    else:
        for label, rows in table:
            print(f"  {label}:")
            width = max(len(t) for t in targets) + 2
            for target, figure, met in rows:
                print(f"    {target:<{width}}{'met' if met else 'NOT MET':<9}{figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
