#!/usr/bin/env bash
# What a patch file says, without what moves when an earlier patch of the
# stack changes: the blob ids of its index lines and the line numbers of
# its hunk headers, and the function names git puts after them.  Two patches with the same content are the same
# change; a base's resolved patch is recorded against its original's.
#
# usage: patch-content.sh PATCH
set -euo pipefail
sed -e '/^index [0-9a-f]*\.\.[0-9a-f]*/d' -e 's/^@@ .*/@@/' "${1:?usage: patch-content.sh PATCH}"
