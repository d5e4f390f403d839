#!/usr/bin/env bash
# The sha256 of what a patch file says, without what moves when an earlier
# patch of the stack changes: the blob ids of its index lines and its hunk
# headers (line numbers and the function git names after them).  Two
# patches with the same sum are the same change; a base's resolved patch
# records its original's (bases/NAME/resolved-from).
#
# usage: patch-sum.sh PATCH
set -euo pipefail
sed -e '/^index [0-9a-f]*\.\.[0-9a-f]*/d' -e 's/^@@ .*/@@/' "${1:?usage: patch-sum.sh PATCH}" |
	sha256sum | cut -d' ' -f1
