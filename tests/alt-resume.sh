#!/usr/bin/env bash
# Slow, not part of make check: can a task stopped inside a this_cpu_*()
# or xchg() LL/SC sequence resume after apply_alternatives_all() patched
# the LSE form in?  (bench/mainline-7.4/README.md, "The in-place
# alternative".)  The KUnit suite arm64_alt_resume, on -cpu max (LSE),
# in two kernels without the debug options:
#   before: mainline 7.4's way as merged, the LSE form patched in place:
#           its this_cpu_add(), this_cpu_cmpxchg() and
#           this_cpu_cmpxchg128() cases must fail (the reproducer);
#   after:  with patches/alt-resume/ (the series for linux-arm-kernel:
#           xchg() and then this_cpu_*() as complete forms chosen by a
#           patched branch): they must pass, and the xchg() case too,
#           which fails before (the base's own in-place xchg()).
# Patch 1 (xchg()) is against the base: it must apply there alone.
# Builds build/out/alt-resume-*, with the fragments of
# tests/singlestep.sh's m74 kernel, so ccache shares them.
#
# usage: alt-resume.sh
set -uo pipefail
. "$(dirname "$0")/../scripts/common.sh"

"$top/scripts/make-tree.sh" || die "no work tree made from patches/"
m74=$("$top/scripts/variant-tree.sh" mainline-7.4) || die "no mainline-7.4 tree"
passed=0
failed=0
test_logs=$LOGS/alt-resume
mkdir -p "$test_logs"

# The fixed tree: the variant's with the fix on top, in a worktree of its
# own, made again when either moves
fix_tree=$BUILD/mainline-7.4-fix-tree
fix_patches=()
for p in "$top"/patches/alt-resume/*.patch; do
	case $p in *-cover-letter.patch) ;; *) fix_patches+=("$p") ;; esac
done
state="$(git -C "$m74" rev-parse HEAD) $(cat "${fix_patches[@]}" | sha256sum | cut -c1-16)"
if [ "$(cat "$fix_tree.made-from" 2>/dev/null)" != "$state" ] ||
   [ -n "$(git -C "$fix_tree" status --porcelain 2>/dev/null)" ]; then
	[ -d "$fix_tree" ] || git -C "$KSRC" worktree add -q --detach "$fix_tree" ||
		die "cannot make the worktree $fix_tree"
	rm -f "$fix_tree.made-from"
	git -C "$fix_tree" am --abort > /dev/null 2>&1 || true
	git -C "$fix_tree" checkout -q -f --detach "$(git -C "$m74" rev-parse HEAD)"
	git -C "$fix_tree" am -q --3way "${fix_patches[@]}" ||
		die "patches/alt-resume/ does not apply to the variant; rebase it in $fix_tree"
	echo "$state" > "$fix_tree.made-from"
fi

t "xchg-applies-to-base" git -C "$(base_tree)" apply --check "${fix_patches[0]}"

# case_result LOG CASE: ok, not ok or skipped, as the suite reported CASE
case_result() {
	tr -d '\r' < "$1" | sed -nE -e "s/^ *ok [0-9]+ alt_resume_test_$2 # SKIP.*/skipped/p" \
		-e "s/^ *(ok|not ok) [0-9]+ alt_resume_test_$2\$/\1/p" | head -n 1
}

# expect LOG CASE RESULT
expect() {
	local got
	got=$(case_result "$1" "$2")
	echo "$2: $got (expected $3)"
	[ "$got" = "$3" ]
}

for v in before after; do
	tree=$m74
	[ "$v" = after ] && tree=$fix_tree
	kv=alt-resume-$v
	t "build:$kv" env KSRC="$tree" "$top/scripts/build-kernel.sh" "$kv" \
		guest "$GEOMETRY" local-mapping-n mainline-7.4 mainline-7.4-kunit alt-resume werror &&
	t "build:$kv-initramfs" env KSRC="$tree" "$top/scripts/build-initramfs.sh" "$kv" ||
		continue
	log=$LOGS/$kv-max.log
	GUEST_CHECKS=meminfo t "boot:$kv-max" "$top/scripts/boot-guest.sh" "$kv" max "$kv-max" \
		'kunit.filter_glob=arm64_alt_resume'
	grep -a "resumed at" "$log" | tr -d '\r' | sed 's/^/    /'
	want=ok
	[ "$v" = before ] && want="not ok"
	t "this_cpu_add:$v" expect "$log" this_cpu_add "$want"
	t "this_cpu_cmpxchg:$v" expect "$log" this_cpu_cmpxchg "$want"
	t "this_cpu_cmpxchg128:$v" expect "$log" this_cpu_cmpxchg128 "$want"
	t "xchg:$v" expect "$log" xchg "$want"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
