#!/usr/bin/env bash
# make send: the series of patches/ as b4 would post them, never sent.  In
# a scratch clone of the work tree, each series' branch is enrolled with b4
# prep, its fork point the series before it (the cover letter is the
# branch description, as make export keeps it), marked RFC with the
# revision of the cover letter's subject, given To/Cc from
# the kernel's get_maintainer.pl (b4 prep --auto-to-cc), and written by
# b4 send -o as the mails it would send, under build/send/.  Every patch's
# author, committer and its author's Signed-off-by: become the sender's:
# git's user.name and user.email (or SENDER_NAME and SENDER_EMAIL), which
# must be a person's, not the placeholder the patches are written with.
# To post: b4 send in build/send/tree, with your sendemail configuration.
set -euo pipefail
. "$(dirname "$0")/common.sh"

command -v b4 > /dev/null || die "b4 is not installed (apt-get install b4)"

# Nobody can certify the DCO under an address in a reserved domain
# (RFC 2606), as the workbench's placeholder identity has.
sender_name=${SENDER_NAME:-$(git config user.name || true)}
sender_email=${SENDER_EMAIL:-$(git config user.email || true)}
[ -n "$sender_name" ] && [ -n "$sender_email" ] ||
	die "no sender identity: set git config user.name and user.email (or SENDER_NAME and SENDER_EMAIL) to your own"
case ${sender_email,,} in
*.example|*.invalid|*.test|*.localhost|*@example.com|*@example.net|*@example.org|*@localhost)
	die "the sender identity <$sender_email> is a placeholder, not a person's: set git config user.name and user.email (or SENDER_NAME and SENDER_EMAIL) to your own" ;;
*@*.*) ;;
*)	die "the sender identity <$sender_email> is no mail address" ;;
esac
sender="$sender_name <$sender_email>"
"$top/scripts/make-tree.sh"
# The series in stack order, as make-tree.sh recorded them
stack=$(git -C "$KSRC" config series.stack || true)
[ -n "$stack" ] || die "patches/series lists no series"
dir=$BUILD/send
rm -rf "$dir"
mkdir -p "$dir"
git clone -q --shared -b series "$KSRC" "$dir/tree"
cd "$dir/tree"
git fetch -q origin "refs/tags/*:refs/tags/*"
git branch -q base "$BASE_TAG"	# b4 wants the fork point on a branch
for s in $stack; do
	git branch -q -f "$s" "origin/$s"
	git config "branch.$s.description" "$(git -C "$KSRC" config "branch.$s.description")"
done
# patches/alt-resume/, the series for linux-arm-kernel outside the stack,
# on the tree it is tested on (mainline 7.4's way, bench/mainline-7.4/):
# its branch, fork point and cover letter, the cover's text as the branch
# description
alt=alt-resume
alt_cover=$PATCHES/$alt/0000-cover-letter.patch
m74=$("$top/scripts/variant-tree.sh" mainline-7.4)
git branch -q "$alt-base" "$(git -C "$m74" rev-parse HEAD)"
git checkout -q -b "$alt" "$alt-base"
git am -q --3way $(ls "$PATCHES/$alt"/*.patch | grep -v 0000-cover-letter) ||
	die "patches/$alt/ does not apply to the mainline-7.4 variant"
git config "branch.$alt.description" "$(python3 - "$alt_cover" <<'PY'
import email, re, sys
msg = email.message_from_binary_file(open(sys.argv[1], 'rb'))
subject = re.sub(r'^\[[^]]*\] ', '', ' '.join(msg['Subject'].split()))
# the text, without format-patch's shortlog, diffstat and signature
body = re.split(r'\n\n[^\n]+ \(\d+\):\n', msg.get_payload())[0]
print(subject + '\n\n' + body.strip())
PY
)"
git checkout -q series
git config b4.prep-cover-strategy branch-description
# Every patch the sender's: author, committer and the author's sign-off
author="$(git log -1 --format='%an <%ae>' series)"
# rewrite_identity RANGE...: the commits of RANGE
rewrite_identity() {
	OLD_SOB="Signed-off-by: $author" NEW_SOB="Signed-off-by: $sender" \
	SENDER_NAME=$sender_name SENDER_EMAIL=$sender_email FILTER_BRANCH_SQUELCH_WARNING=1 \
		git filter-branch -f --env-filter '
			GIT_AUTHOR_NAME=$SENDER_NAME GIT_AUTHOR_EMAIL=$SENDER_EMAIL
			GIT_COMMITTER_NAME=$SENDER_NAME GIT_COMMITTER_EMAIL=$SENDER_EMAIL
			export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL' \
		--msg-filter 'python3 -c "import os, sys; sys.stdout.write(sys.stdin.read().replace(os.environ[\"OLD_SOB\"], os.environ[\"NEW_SOB\"]))"' \
		-- "$@" >> "$dir/filter.log" 2>&1 ||
		die "cannot rewrite the patches' identity (log: $dir/filter.log)"
}
rewrite_identity $(for s in $stack; do echo "base..$s"; done)
# The alternative's series apart: its fork point holds the whole stack,
# which a range beside the stack's would take out of theirs
rewrite_identity "$alt-base..$alt"
# The sender, so that b4 adds no From: line of its own to each patch
git config user.name "$sender_name"
git config user.email "$sender_email"
# Only for b4's dry run: nothing is sent
git config sendemail.smtpserver localhost
# Each series on its own, its fork point the series before it, its
# revision the cover letter's (vN, else 1)
prev=base
total=0
for s in $stack; do
	cover=$(ls "$PATCHES/$s"/*0000-cover-letter.patch | head -n 1)
	revision=$(sed -n '1,/^$/s/^Subject: .*\[.* v\([0-9]*\) .*/\1/p' "$cover")
	git checkout -q "$s"
	log=$dir/b4-$s.log
	b4 prep -e "$prev" > "$log" 2>&1 || die "b4 prep -e failed for $s (log: $log)"
	b4 prep --force-revision "${revision:-1}" >> "$log" 2>&1 || die "b4 prep --force-revision failed for $s (log: $log)"
	b4 prep --set-prefixes RFC >> "$log" 2>&1 || die "b4 prep --set-prefixes failed for $s (log: $log)"
	b4 prep --auto-to-cc >> "$log" 2>&1 || die "b4 prep --auto-to-cc failed for $s (log: $log)"
	b4 send -o "$dir/mails/$s" --no-sign >> "$log" 2>&1 || die "b4 send -o failed for $s (log: $log)"
	n=$(ls "$dir/mails/$s" | wc -l)
	patches=$(grep -c "^$s/" "$PATCHES/series")
	# (a single patch goes alone, the cover letter's text under its ---)
	want=$((patches + 1))
	[ "$patches" -gt 1 ] || want=1
	[ "$n" -eq "$want" ] ||
		die "b4 wrote $n mails for $s's $patches patches and a cover letter (log: $log)"
	total=$((total + n))
	prev=$s
done
# The alternative's series alone: no RFC, its own revision 1, its fork
# point the variant's tree (for-next/core's asm/percpu.h as we model it)
git checkout -q "$alt"
log=$dir/b4-$alt.log
{ b4 prep -e "$alt-base" && b4 prep --auto-to-cc &&
  b4 send -o "$dir/mails/$alt" --no-sign; } > "$log" 2>&1 || die "b4 failed for $alt (log: $log)"
n=$(ls "$dir/mails/$alt" | wc -l)
want=$(( $(ls "$PATCHES/$alt"/*.patch | wc -l) ))
[ "$n" -eq "$want" ] || die "b4 wrote $n mails for $alt, not $want (log: $log)"
total=$((total + n))
stack="$stack $alt"
# Every mail from the sender, every patch signed off by the sender, and
# the patches' old identity nowhere
for m in "$dir/mails"/*/*.eml; do
	grep -qF "From: $sender" "$m" || die "$m is not from $sender"
	case $(basename "$m") in
	*0000*) ;;
	*) grep -qxF "Signed-off-by: $sender" "$m" || die "$m has no Signed-off-by: $sender" ;;
	esac
done
if [ "$author" != "$sender" ] && grep -lF "${author#*<}" "$dir"/mails/*/*.eml; then
	die "the mails above still carry $author"
fi
# The cover letter's subject and recipients, each header unfolded
for s in $stack; do
	sed -n '1,/^$/p' "$(ls "$dir/mails/$s"/*.eml | head -n 1)" | sed -e ':a' -e 'N;$!ba' -e 's/\n[ \t]\+/ /g' |
		grep -E '^(Subject|To|Cc):'
done
echo "$total mails, not sent, in $dir/mails/{${stack// /,}} (b4 send in $dir/tree, on each series' branch, posts them)"
