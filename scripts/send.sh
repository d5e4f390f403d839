#!/usr/bin/env bash
# make send: the series of patches/ as b4 would post it, never sent.  A
# scratch clone of the work tree's branch is enrolled with b4 prep (the
# cover letter is the branch description, as make export keeps it), marked
# RFC v3, given To/Cc from the kernel's get_maintainer.pl
# (b4 prep --auto-to-cc), and written by b4 send -o as the mails it would
# send, under build/send/.  To post: b4 send in build/send/tree, with your
# own identity and sendemail configuration.
set -euo pipefail
. "$(dirname "$0")/common.sh"

command -v b4 > /dev/null || die "b4 is not installed (apt-get install b4)"
"$top/scripts/make-tree.sh"
dir=$BUILD/send
rm -rf "$dir"
mkdir -p "$dir"
git clone -q --shared -b series "$KSRC" "$dir/tree"
cd "$dir/tree"
git fetch -q origin "refs/tags/*:refs/tags/*"
git branch -q base "$BASE_TAG"	# b4 wants the fork point on a branch
git config branch.series.description "$(git -C "$KSRC" config branch.series.description)"
git config b4.prep-cover-strategy branch-description
# The series' author, so that b4 does not add From: lines to each patch
git config user.name "$(git log -1 --format=%an series)"
git config user.email "$(git log -1 --format=%ae series)"
# Only for b4's dry run: nothing is sent
git config sendemail.smtpserver localhost
b4 prep -e base > "$dir/b4.log" 2>&1 || die "b4 prep -e failed (log: $dir/b4.log)"
b4 prep --force-revision 2 >> "$dir/b4.log" 2>&1 || die "b4 prep --force-revision failed (log: $dir/b4.log)"
b4 prep --set-prefixes RFC >> "$dir/b4.log" 2>&1 || die "b4 prep --set-prefixes failed (log: $dir/b4.log)"
b4 prep --auto-to-cc >> "$dir/b4.log" 2>&1 ||
	die "b4 prep --auto-to-cc failed (log: $dir/b4.log)"
b4 send -o "$dir/mails" --no-sign >> "$dir/b4.log" 2>&1 ||
	die "b4 send -o failed (log: $dir/b4.log)"
n=$(ls "$dir/mails" | wc -l)
patches=$(grep -cEv '^(#|$)' "$PATCHES/series")
[ "$n" -eq $((patches + 1)) ] ||
	die "b4 wrote $n mails for $patches patches and a cover letter (log: $dir/b4.log)"
# The cover letter's subject and recipients, each header unfolded
sed -n '1,/^$/p' "$dir/mails"/*0000*.eml | sed -e ':a' -e 'N;$!ba' -e 's/\n[ \t]\+/ /g' |
	grep -E '^(Subject|To|Cc):'
echo "$n mails, not sent, in $dir/mails (b4 send in $dir/tree posts them)"
