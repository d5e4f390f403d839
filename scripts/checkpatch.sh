#!/usr/bin/env bash
# scripts/checkpatch.pl --strict on one patch file; any error, warning or
# check fails.
set -euo pipefail
. "$(dirname "$0")/common.sh"

patch=${1:?usage: checkpatch.sh PATCH}
cd "$KSRC"
scripts/checkpatch.pl --strict --no-summary --show-types --color=never "$patch"
