#!/usr/bin/env bash
# Print the subject and text of a format-patch cover letter, in the form
# git format-patch --cover-from-description=subject reads from a branch
# description: the subject, a blank line, then the text up to the shortlog.
set -euo pipefail

cover=${1:?usage: cover-description.sh COVER-LETTER}
if [ ! -f "$cover" ]; then
	printf 'percpu: preemption-free this_cpu ops on arm64 through a local mapping\n'
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git mailinfo -k "$tmp/msg" "$tmp/patch" < "$cover" > "$tmp/info"
sed -n 's/^Subject: \(\[[^]]*\] *\)*//p' "$tmp/info"
echo
# The shortlog starts with a line "Author Name (N):".
sed '/^[^ ].* ([0-9]*):$/,$d' "$tmp/msg"
