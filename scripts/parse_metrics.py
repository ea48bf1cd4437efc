#!/usr/bin/env python3
"""Parses Prometheus text exposition with prometheus_client, an independent parser.

Reads one scrape of /metrics on standard input. Writes one JSON object: `types` (each
family's type, by the name prometheus_client gives it: a counter's without `_total`) and
`samples`, a list of `[name, labels, value]`. Exits non-zero, with the parser's message on
standard error, when the text is not valid exposition format. The end-to-end tests of
/metrics read it.
"""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    text = sys.stdin.read()
    types = {}
    samples = []
    try:
        for family in text_string_to_metric_families(text):
            types[family.name] = family.type
            for sample in family.samples:
                samples.append([sample.name, sample.labels, sample.value])
    except Exception as error:  # the parser raises ValueError and others on bad input
        print(f"not valid exposition format: {error}", file=sys.stderr)
        return 1
    json.dump({"types": types, "samples": samples}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
