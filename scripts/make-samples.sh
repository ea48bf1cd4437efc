#!/usr/bin/env bash
# Regenerates Samples/ with the simulator.
set -euo pipefail
echo "samples: the simulator is not built yet" >&2
exit 1
