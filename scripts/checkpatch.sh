#!/usr/bin/env bash
# scripts/checkpatch.pl --strict on one patch file; any error, warning or
# check fails.
set -euo pipefail
. "$(dirname "$0")/common.sh"

patch=$(realpath "${1:?usage: checkpatch.sh PATCH}")
cd "$KSRC"
# spdxcheck.py must find Debian's python3 with python3-ply and python3-git,
# not a python3 of the user's that lacks them.
export PATH=/usr/bin:$PATH
scripts/checkpatch.pl --strict --no-summary --show-types --color=never "$patch"
