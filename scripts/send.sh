#!/usr/bin/env bash
# make send: the series of patches/ as b4 would post it, never sent.  A
# scratch clone of the work tree's branch is enrolled with b4 prep (the
# cover letter is the branch description, as make export keeps it), marked
# RFC with the revision of the cover letter's subject, given To/Cc from
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
revision=$(sed -n '1,/^$/s/^Subject: .*\[.* v\([0-9]*\) .*/\1/p' "$(ls "$PATCHES"/*0000-cover-letter.patch | head -n 1)")
[ -n "$revision" ] || die "no revision (vN) in the cover letter's subject"
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
# Every patch the sender's: author, committer and the author's sign-off
author="$(git log -1 --format='%an <%ae>' series)"
OLD_SOB="Signed-off-by: $author" NEW_SOB="Signed-off-by: $sender" \
SENDER_NAME=$sender_name SENDER_EMAIL=$sender_email FILTER_BRANCH_SQUELCH_WARNING=1 \
	git filter-branch -f --env-filter '
		GIT_AUTHOR_NAME=$SENDER_NAME GIT_AUTHOR_EMAIL=$SENDER_EMAIL
		GIT_COMMITTER_NAME=$SENDER_NAME GIT_COMMITTER_EMAIL=$SENDER_EMAIL
		export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL' \
	--msg-filter 'python3 -c "import os, sys; sys.stdout.write(sys.stdin.read().replace(os.environ[\"OLD_SOB\"], os.environ[\"NEW_SOB\"]))"' \
	base..series > "$dir/filter.log" 2>&1 || die "cannot rewrite the patches' identity (log: $dir/filter.log)"
# The sender, so that b4 adds no From: line of its own to each patch
git config user.name "$sender_name"
git config user.email "$sender_email"
# Only for b4's dry run: nothing is sent
git config sendemail.smtpserver localhost
b4 prep -e base > "$dir/b4.log" 2>&1 || die "b4 prep -e failed (log: $dir/b4.log)"
b4 prep --force-revision "$revision" >> "$dir/b4.log" 2>&1 || die "b4 prep --force-revision failed (log: $dir/b4.log)"
b4 prep --set-prefixes RFC >> "$dir/b4.log" 2>&1 || die "b4 prep --set-prefixes failed (log: $dir/b4.log)"
b4 prep --auto-to-cc >> "$dir/b4.log" 2>&1 ||
	die "b4 prep --auto-to-cc failed (log: $dir/b4.log)"
b4 send -o "$dir/mails" --no-sign >> "$dir/b4.log" 2>&1 ||
	die "b4 send -o failed (log: $dir/b4.log)"
n=$(ls "$dir/mails" | wc -l)
patches=$(grep -cEv '^(#|$)' "$PATCHES/series")
[ "$n" -eq $((patches + 1)) ] ||
	die "b4 wrote $n mails for $patches patches and a cover letter (log: $dir/b4.log)"
# Every mail from the sender, every patch signed off by the sender, and
# the patches' old identity nowhere
for m in "$dir/mails"/*.eml; do
	grep -qF "From: $sender" "$m" || die "$(basename "$m") is not from $sender"
	case $(basename "$m") in
	*0000*) ;;
	*) grep -qxF "Signed-off-by: $sender" "$m" || die "$(basename "$m") has no Signed-off-by: $sender" ;;
	esac
done
if [ "$author" != "$sender" ] && grep -lF "${author#*<}" "$dir"/mails/*.eml; then
	die "the mails above still carry $author"
fi
# The cover letter's subject and recipients, each header unfolded
sed -n '1,/^$/p' "$dir/mails"/*0000*.eml | sed -e ':a' -e 'N;$!ba' -e 's/\n[ \t]\+/ /g' |
	grep -E '^(Subject|To|Cc):'
echo "$n mails, not sent, in $dir/mails (b4 send in $dir/tree posts them)"
