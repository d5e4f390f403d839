#!/usr/bin/env bash
# Tests of the workbench itself: that bad input stops it with a clear
# message.  They run on a scratch clone of the work tree, never on it.
#
# usage: tooling.sh mutants-apply|send-placeholder|checkpatch-maintainers|checksum|broken-patch|roundtrip|unexported|tree-state|results|kaslr-report|bench-report|scale-report|cover-losses|cover-figures|fragment-off|emitted-code|host|hang|interrupt
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"

scratch=$BUILD/selftest
mkdir -p "$scratch"

# A clone of the work tree at the series, as cloned, and a copy of
# patches/.  An earlier test's clone is reset rather than made again: a
# checkout of the whole tree, and make-tree.sh's of its apply worktree,
# cost make check about a minute a test.  Anything the reset cannot clean
# (a run killed mid-way) gets a new clone.
scratch_tree() {
	local t=$scratch/tree
	rm -rf "$scratch/patches"
	cp -r "$PATCHES" "$scratch/patches"
	[ -e "$t/.git" ] && scratch_reset "$t" && return
	rm -rf "$t" "$t-apply"
	git clone -q --shared "$KSRC" "$t"
	git -C "$t" fetch -q origin "refs/tags/*:refs/tags/*"
}

# scratch_reset TREE: TREE and its apply worktree as a new clone of KSRC
# would have them, or false.
scratch_reset() {
	local t=$1 w
	for w in "$t" "$t-apply"; do
		[ -e "$w/.git" ] || continue
		rm -rf "$(git -C "$w" rev-parse --path-format=absolute --git-path rebase-apply)" \
			"$(git -C "$w" rev-parse --path-format=absolute --git-path index.lock)" || return 1
		git -C "$w" reset -q --hard && git -C "$w" clean -q -f -d -x || return 1
	done
	git -C "$t" remote set-url origin "$KSRC" &&
		git -C "$t" fetch -q -f origin "+refs/heads/series:refs/remotes/origin/series" \
			"+refs/tags/*:refs/tags/*" 2> /dev/null &&
		git -C "$t" checkout -q -f -B series origin/series || return 1
	rm -f "$t/.git/series-made-from"
	# and without the branches and settings make-tree.sh gives the stack
	git -C "$t" for-each-ref --format='%(refname:short)' refs/heads | grep -vx series |
		xargs -r git -C "$t" branch -q -D
	git -C "$t" config --remove-section series 2> /dev/null || true
	git -C "$t" config --get-regexp '^branch\..*\.(description|reroll)$' | cut -d' ' -f1 |
		xargs -r -n 1 git -C "$t" config --unset-all
}

# expect_fail PATTERN CMD...: CMD must fail and say PATTERN.
expect_fail() {
	local pattern=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "unexpected success: $*"
		return 1
	fi
	echo "$out"
	# (not echo | grep -q: with pipefail, grep leaving at its match can
	# fail echo with SIGPIPE, and the test with it)
	grep -q -- "$pattern" <<< "$out" || { echo "expected the message: $pattern"; return 1; }
}

case "${1:?usage: tooling.sh TEST}" in
mutants-apply)
	# Every mutant applies to the series as it is: make mutants, slow and
	# not in make check, would report one that does not only at its turn.
	rc=0
	for m in "$top"/tests/mutants/*.patch; do
		git -C "$KSRC" apply --check "$m" 2> /dev/null ||
			{ echo "does not apply to the series: $m"; rc=1; }
	done
	exit $rc
	;;
send-placeholder)
	# make send never writes mails under the placeholder identity
	expect_fail "is a placeholder, not a person's" \
		env SENDER_NAME="Seed maintainers" SENDER_EMAIL=maintainers@users.noreply.a-seed.example \
		"$top/scripts/send.sh"
	# (git's identity emptied wherever it is configured)
	expect_fail "no sender identity" env SENDER_NAME= SENDER_EMAIL= GIT_CONFIG_COUNT=2 \
		GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0= \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1= "$top/scripts/send.sh"
	;;
checkpatch-maintainers)
	# checkpatch.sh lets "does MAINTAINERS need updating?" pass for a new
	# file an existing entry covers, and for no other
	newfile_patch() {
		cat <<EOP
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Jane Developer <jane@kernel-dev.org>
Date: Fri, 27 Nov 2026 00:00:00 +0000
Subject: [PATCH] add an empty file

Add an empty file, for the workbench's own test.

Signed-off-by: Jane Developer <jane@kernel-dev.org>
---
 $1 | 1 +
 1 file changed, 1 insertion(+)
 create mode 100644 $1

diff --git a/$1 b/$1
new file mode 100644
index 000000000000..111111111111
--- /dev/null
+++ b/$1
@@ -0,0 +1 @@
+// SPDX-License-Identifier: GPL-2.0-only
EOP
	}
	newfile_patch arch/arm64/mm/covered.c > "$scratch/covered.patch"
	newfile_patch nowhere/uncovered.c > "$scratch/uncovered.patch"
	"$top/scripts/checkpatch.sh" "$scratch/covered.patch"
	expect_fail "nowhere/uncovered.c: no MAINTAINERS entry covers it" \
		"$top/scripts/checkpatch.sh" "$scratch/uncovered.patch"
	;;
checksum)
	echo garbage > "$scratch/bad.tar.xz"
	expect_fail "checksum mismatch" env LINUX_TARBALL="$scratch/bad.tar.xz" "$top/scripts/fetch-base.sh"
	;;
broken-patch)
	scratch_tree
	last=$(tail -n 1 "$scratch/patches/series")
	cat > "$scratch/patches/${last%/*}/9999-broken.patch" <<'EOP'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Nobody <nobody@example.org>
Subject: [PATCH] a patch that does not apply

---
 Makefile | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
-this line is not in the Makefile
+nor is this one
 context
 context
EOP
	echo "${last%/*}/9999-broken.patch" >> "$scratch/patches/series"
	expect_fail "patch ${last%/*}/9999-broken.patch does not apply" \
		env FORCE=1 KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/make-tree.sh"
	# A patch in no series' directory
	mv "$scratch/patches/${last%/*}/9999-broken.patch" "$scratch/patches/"
	sed -i "s|^${last%/*}/9999-broken.patch\$|9999-broken.patch|" "$scratch/patches/series"
	expect_fail "9999-broken.patch, which is in no series directory" \
		env FORCE=1 KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/make-tree.sh"
	;;
roundtrip)
	scratch_tree
	FORCE=1 KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/make-tree.sh"
	KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/export-series.sh"
	diff -r "$PATCHES" "$scratch/patches"
	# The series' branches, each ending its series, in stack order
	stack=$(git -C "$scratch/tree" config series.stack)
	[ "$stack" = "$(sed 's|/.*||' "$PATCHES/series" | uniq | tr '\n' ' ' | sed 's/ $//')" ] ||
		{ echo "series.stack is '$stack'"; exit 1; }
	first=${stack%% *} second=$(echo "$stack" | cut -d' ' -f2)
	[ "$(git -C "$scratch/tree" rev-list --count "$BASE_TAG..$first")" = \
	  "$(grep -c "^$first/" "$PATCHES/series")" ] || { echo "branch $first is not where its series ends"; exit 1; }
	# A series' branch out of order is refused, not exported wrong
	git -C "$scratch/tree" branch -f "$second" "$first~1"
	expect_fail "branch $second does not follow $first" \
		env KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/export-series.sh"
	;;
unexported)
	scratch_tree
	FORCE=1 KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/make-tree.sh"
	KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/series-check.sh"
	echo "/* unexported */" >> "$scratch/tree/README"
	expect_fail "uncommitted edits" env KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/series-check.sh"
	git -C "$scratch/tree" commit -q -a -m "an unexported commit"
	expect_fail "run 'make export'" env KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/series-check.sh"
	;;
tree-state)
	# make-tree.sh tells which of patches/ and the tree moved.
	scratch_tree
	unset FORCE
	mk() { KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/make-tree.sh"; }
	FORCE=1 mk
	before=$(stat -c %Y "$scratch/tree/mm/percpu.c")
	sleep 1
	mk 2>&1 | grep "nothing to do"
	[ "$(stat -c %Y "$scratch/tree/mm/percpu.c")" = "$before" ] ||
		{ echo "a run on a matching tree touched mm/percpu.c"; exit 1; }
	# patches/ moved (a pull): applied again, silently.
	last=$(tail -n 1 "$scratch/patches/series")
	reword() {
		awk -v line="$1" '!done && /^$/ { print; print line; done = 1; next } { print }' \
			"$scratch/patches/$last" > "$scratch/reworded"
		mv "$scratch/reworded" "$scratch/patches/$last"
	}
	# A new commit message only: the files keep their mtimes (no rebuild).
	changed=$(git -C "$scratch/tree" diff --name-only HEAD~1 HEAD | head -n 1)
	before=$(stat -c %Y "$scratch/tree/$changed")
	reword "Reworded upstream."
	mk
	git -C "$scratch/tree" log -1 --format=%b | grep -q "^Reworded upstream." ||
		{ echo "the moved patches/ was not applied"; exit 1; }
	[ "$(stat -c %Y "$scratch/tree/$changed")" = "$before" ] ||
		{ echo "a reworded message touched $changed"; exit 1; }
	# The tree moved: refused.
	git -C "$scratch/tree" commit -q --allow-empty -m "an unexported commit"
	expect_fail "run 'make export' first" mk
	# Both moved: the conflict named.
	reword "Reworded again."
	expect_fail "conflict: both patches/ and the work tree changed" mk
	# A run that stopped while applying is its own to redo, not work to
	# export: a patch that does not apply, then fixed.
	FORCE=1 mk
	cp "$scratch/patches/$last" "$scratch/good.patch"
	sed -i '0,/^+/s/^+.*/+this line is not in the file/' "$scratch/patches/$last"
	sed -i '0,/^ /s/^ .*/ nor is this context line/' "$scratch/patches/$last"
	expect_fail "does not apply" mk
	cp "$scratch/good.patch" "$scratch/patches/$last"
	mk 2>&1 | grep "did not finish applying"
	KSRC="$scratch/tree" PATCHES="$scratch/patches" "$top/scripts/series-check.sh"
	;;
interrupt)
	# A Ctrl-C stops the guest and the run: SIGINT to the process group
	# of a boot that would otherwise hang until BOOT_TIMEOUT.  set -m
	# gives the boot a group of its own with the signal dispositions of
	# a job under a terminal.
	variant=${2:?the interrupt test needs a built variant}
	rm -f "$scratch/interrupt.log"
	# A runner started in the background (nohup ... &) hands SIGINT down
	# ignored, and a shell cannot trap a signal ignored on entry: the boot
	# starts with SIGINT at its default, as under a terminal.
	set -m
	env BOOT_TIMEOUT=300 LOGS="$scratch" python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$top/scripts/boot-guest.sh" \
		"$variant" cortex-a57 interrupt guest.hang=1 > "$scratch/interrupt.out" 2>&1 &
	group=$!
	set +m
	trap 'kill -KILL -- -"$group" 2> /dev/null || true' EXIT
	for _ in $(seq 60); do
		grep -q guest-start "$scratch/interrupt.log" 2>/dev/null && break
		sleep 1
	done
	grep -q guest-start "$scratch/interrupt.log" || { echo "the guest did not start"; exit 1; }
	kill -INT -- -"$group"
	for _ in $(seq 20); do
		kill -0 "$group" 2> /dev/null || break
		sleep 1
	done
	if kill -0 "$group" 2> /dev/null; then
		echo "boot-guest.sh still ran 20 s after SIGINT to its process group"
		exit 1
	fi
	rc=0
	wait "$group" || rc=$?
	[ "$rc" -gt 128 ] || { echo "boot-guest.sh exited $rc after SIGINT: its caller would go on"; exit 1; }
	! pgrep -g "$group" > /dev/null || { echo "a process of the boot outlived it"; exit 1; }
	echo "SIGINT stopped QEMU and boot-guest.sh (exit $rc)"
	;;
results)
	# guest-results.py fails on a guest that died, a failed case nested
	# two levels down (and prints what it and its check left), and reads
	# a kexec's second document and a hibernation's two files as the
	# guest wrote them.
	r() { "$top/scripts/guest-results.py" "$@"; }
	d=$scratch/results
	mkdir -p "$d"
	printf 'KTAP version 1\n1..2\nok 1 hotplug\n' > "$d/died.ktap"
	expect_fail "1 results of 2 planned" r --complete "$d/died.ktap"
	expect_fail "not every test passed" r "$d/died.ktap"
	cat > "$d/nested.ktap" <<-'EOK'
	KTAP version 1
	1..1
	    KTAP version 1
	    # Subtest: kunit_modules
	        KTAP version 1
	        # Subtest: percpu_local_mapping
	        1..2
	        ok 1 pcpu_local_test_static
	        # pcpu_local_test_dynamic: EXPECTATION FAILED at mm/tests/percpu_local_kunit.c:99
	        Expected addr == laddr, but
	        not ok 2 pcpu_local_test_dynamic
	    not ok 1 percpu_local_mapping
	# > kunit_modules: percpu_local_mapping failed
	not ok 1 kunit_modules
	EOK
	r --complete "$d/nested.ktap"
	r --failed pcpu_local_test_dynamic "$d/nested.ktap"
	r --failed /kunit_modules/percpu_local_mapping "$d/nested.ktap"
	# a top-level name matches the check, not a case of the same name
	expect_fail "no result for /pcpu_local_test_dynamic" r --failed /pcpu_local_test_dynamic "$d/nested.ktap"
	expect_fail "pcpu_local_test_dynamic failed" r --passed pcpu_local_test_dynamic "$d/nested.ktap"
	expect_fail "no result for /hotplug" r --failed /hotplug "$d/nested.ktap"
	# what CI shows of a failed check: its output's end and its cases' logs
	expect_fail "error:   /kunit_modules: # > kunit_modules: percpu_local_mapping failed" \
		r --passed /kunit_modules "$d/nested.ktap"
	expect_fail "error:   /kunit_modules/percpu_local_mapping/pcpu_local_test_dynamic: Expected addr == laddr" \
		r --passed /kunit_modules "$d/nested.ktap"
	# on stderr: make matrix keeps stdout in its table
	[ -z "$(r --passed /kunit_modules "$d/nested.ktap" 2> /dev/null)" ] ||
		{ echo "guest-results.py wrote a failure's diagnostics to stdout"; exit 1; }
	# kexec: the first kernel's document ends in the middle
	{ printf 'KTAP version 1\n1..1\n'; printf 'KTAP version 1\n1..1\nok 1 kexeced\n'; } > "$d/kexec.ktap"
	r "$d/kexec.ktap"
	expect_fail "did not finish" r --doc 1 --complete "$d/kexec.ktap"
	# hibernation: written by one boot, finished by the next
	printf 'KTAP version 1\n1..2\n' > "$d/write.ktap"
	printf 'ok 1 hibernate\nok 2 hotplug\n' > "$d/resume.ktap"
	expect_fail "did not finish" r --complete "$d/write.ktap"
	r "$d/write.ktap" "$d/resume.ktap"
	expect_fail "never reported" r --complete /dev/null
	expect_fail "no results file" r --complete "$d/none.ktap"
	;;
host)
	# The host detection and the QEMU command lines it leads to, for an
	# arm64 host with KVM, which this machine is not.
	variant=${2:?the host test needs a built variant}
	q() { PRINT_QEMU=1 "$top/scripts/boot-guest.sh" "$variant" "$@" x; }
	# (the line is shell-quoted: printf %q writes the comma as "\,")
	q max | grep -q -- '-cpu max\\\?,pauth-impdef=on' || { echo "TCG: not -cpu max with pauth-impdef"; exit 1; }
	! q max | grep -q -- "-accel" || { echo "TCG: an -accel option"; exit 1; }
	ACCEL=kvm q max | grep -q -- "-accel kvm -cpu host " || { echo "KVM: not -accel kvm -cpu host"; exit 1; }
	expect_fail "needs TCG" env ACCEL=kvm PRINT_QEMU=1 "$top/scripts/boot-guest.sh" "$variant" cortex-a57 x
	expect_fail "tcg (the default) or kvm" env ACCEL=hvf PRINT_QEMU=1 "$top/scripts/boot-guest.sh" "$variant" max x
	HOST_ARCH=arm64 "$top/scripts/host-tools.sh" --print > "$scratch/arm64.pkgs"
	HOST_ARCH=amd64 "$top/scripts/host-tools.sh" --print > "$scratch/amd64.pkgs"
	grep -qx libc6-dev "$scratch/arm64.pkgs" && ! grep -q arm64-cross "$scratch/arm64.pkgs" &&
		! grep -qx gcc-aarch64-linux-gnu "$scratch/arm64.pkgs" ||
		{ echo "arm64 host: not the native toolchain"; cat "$scratch/arm64.pkgs"; exit 1; }
	grep -qx gcc-aarch64-linux-gnu "$scratch/amd64.pkgs" && grep -qx libc6-dev-arm64-cross "$scratch/amd64.pkgs" ||
		{ echo "amd64 host: not the cross toolchain"; exit 1; }
	expect_fail "runs on amd64 (cross) or arm64 (native)" env HOST_ARCH=riscv64 "$top/scripts/host-tools.sh"
	# make bench's plan: KVM with perf on an arm64 host with a KVM
	# device (a stand-in file), the instruction counts everywhere else
	touch "$scratch/kvm"
	b() {
		env -u ACCEL -u BENCH_CPUS -u BENCH_QUICK -u BENCH_PERF -u BENCH_RESULTS \
			-u BENCH_KBUILD -u BENCH_KBUILD_CPUS -u BENCH_KBUILD_MEM \
			-u BENCH_KBUILD_CONFIG -u BENCH_KBUILD_TARGET \
			BENCH_PRINT=1 "$@" "$top/scripts/bench.sh" > "$scratch/plan"
	}
	b HOST_ARCH=arm64 KVM_DEVICE="$scratch/kvm"
	grep -qx "accel=kvm" "$scratch/plan" && grep -q "^kernel bench-kvm-y: .* perf" "$scratch/plan" &&
		grep -q "^boot y-max: .*-accel kvm -cpu host " "$scratch/plan" &&
		grep -q "^boot y-max-ipi: .*guest.checks=ipi\\\\,memcg_churn\\\\,perf" "$scratch/plan" &&
		grep -q "^kernel bench-kvm-y: .* kbuild" "$scratch/plan" &&
		grep -q "^boot y-max-kbuild: .*-drive file=.*kbuild.img.*readonly=on -device virtio-blk-device.*guest.checks=kbuild" "$scratch/plan" &&
		! grep -q -- "-icount\|-plugin\|cortex-a57" "$scratch/plan" ||
		{ echo "arm64 host with KVM: not the KVM bench with perf"; cat "$scratch/plan"; exit 1; }
	# Five runs a kernel, in turn; two vCPUs pinned where the host has
	# more CPUs than that
	b HOST_ARCH=arm64 KVM_DEVICE="$scratch/kvm" BENCH_SMP=1
	[ "$(sed -n 's/^boot \([a-z0-9-]*\): .*/\1/p' "$scratch/plan" | head -n 6 | paste -sd' ')" = \
	  "m-max n-max y-max f-max m-max-r2 n-max-r2" ] &&
		grep -q "^boot f-max-ipi-r5: .*-name f-max-ipi-r5.,debug-threads=on" "$scratch/plan" &&
		! grep -q "^boot .*-r6" "$scratch/plan" ||
		{ echo "KVM: not five interleaved runs with pinned vCPUs"; cat "$scratch/plan"; exit 1; }
	for host in "HOST_ARCH=arm64 KVM_DEVICE=$scratch/none" "HOST_ARCH=amd64 KVM_DEVICE=$scratch/kvm" \
		    "HOST_ARCH=arm64 KVM_DEVICE=$scratch/kvm ACCEL=tcg"; do
		# shellcheck disable=SC2086
		b $host
		grep -qx "accel=tcg" "$scratch/plan" && grep -qx "kernel bench-y: .* bench" "$scratch/plan" &&
			grep -q "^boot y-cortex-a57: .*-icount shift=0" "$scratch/plan" &&
			grep -q "^boot y-max-ipi: .*-plugin " "$scratch/plan" &&
			! grep -q -- "-accel kvm" "$scratch/plan" ||
			{ echo "$host: not the TCG bench"; cat "$scratch/plan"; exit 1; }
	done
	# The kernel build: left out under KVM by BENCH_KBUILD=0; under TCG,
	# asked for, one vCPU, the small target, build directories of its own
	b HOST_ARCH=arm64 KVM_DEVICE="$scratch/kvm" BENCH_KBUILD=0
	! grep -q "kbuild" "$scratch/plan" ||
		{ echo "BENCH_KBUILD=0: a kernel build in the KVM plan"; cat "$scratch/plan"; exit 1; }
	b HOST_ARCH=amd64 BENCH_KBUILD=1
	grep -q "^kernel bench-kbuild-y: .* kbuild" "$scratch/plan" &&
		grep -q "^boot y-max-kbuild: .*-smp 1 .*-icount shift=0.*guest.kbuild.target=scripts_basic" "$scratch/plan" &&
		! grep "^boot y-max-kbuild: " "$scratch/plan" | grep -q -- "-plugin" ||
		{ echo "TCG with BENCH_KBUILD=1: not one vCPU, scripts_basic, no plugin"; cat "$scratch/plan"; exit 1; }
	expect_fail "a number of vCPUs" env BENCH_PRINT=1 BENCH_KBUILD=1 BENCH_KBUILD_CPUS=x "$top/scripts/bench.sh"
	expect_fail "tcg or kvm" env BENCH_PRINT=1 ACCEL=hvf "$top/scripts/bench.sh"
	;;
kaslr-report)
	# kaslr-report.py on made-up boots: a value seen twice in three boots
	# is two distinct values, one equal pair, log2(3) bits; one boot alone
	# is refused
	d=$scratch/kaslr-report
	mkdir -p "$d"
	{
		echo "guest-addresses: text=ffff800080000000 window=ffff800100000000 region=ffffc00000000000 modules=ffff80007f000000"
		echo "guest-addresses: text=ffff800080200000 window=ffff800140000000 region=ffffc00040000000 modules=ffff80007f200000"
		echo "guest-addresses: text=ffff800080000000 window=ffff800180000000 region=ffffc00080000000 modules=ffff80007f001000"
	} > "$d/three"
	out=$("$top/scripts/kaslr-report.py" "$d/three" title)
	echo "$out"
	grep -q '^| image (_text) | 3 | 2 | 2 MB | 1.0 | 1.6 | 1.0 |$' <<< "$out"
	grep -q '^| percpu window | 3 | 3 | 1024 MB | 1.6 | >= 0.0 | 1.6 |$' <<< "$out"
	grep -q '^| lowest module - image | 3 | 2 | 4 KB | 1.0 | 1.6 | 1.0 |$' <<< "$out"
	head -n 1 "$d/three" > "$d/one"
	expect_fail "fewer than two boots" "$top/scripts/kaslr-report.py" "$d/one" title
	;;
bench-report)
	# bench-report.py on made-up logs of one CPU: the TLBI rows and a
	# flush_tlb_all() listed as a loss (TCG), then the same logs as a
	# KVM run with perf stat's lines: ns in the headings, the hardware
	# counters' table (a walk count of 0 is one there, not under TCG), no
	# losses listed.
	d=$scratch/bench-report
	rm -rf "$d"
	mkdir -p "$d/logs"
	for v in n y f; do
		# frees: =y beats =n by 3% and loses to the fixup by 16%
		case $v in n) x=10 fr=600 ;; y) x=4 fr=580 ;; f) x=6 fr=500 ;; esac
		{
			echo "pcpu_bench: op add 8 dynamic $x.00"
			echo "pcpu_bench: alloc 4 inorder 1000 $fr"
			echo "memcg-bench: before Percpu: 100 kB"
			echo "memcg-bench: created 10 insns ${x}000"
			echo "memcg-bench: after Percpu: 200 kB"
			echo "workload: fork ops 5 insns ${x}00000 cmd stress-ng --fork 1"
			echo "bench-wall: 9 s"
		} > "$d/logs/$v-max.log"
		{
			echo "workload: pingpong ops 10 insns 1000 cmd bench-loops pingpong 10"
			echo "workload: memcg_churn ops 10 insns 2000 cmd bench-loops cgroups 10, 1 times"
			echo "ipis: pingpong 20"
			echo "perf: munmap cycles ${x}000"
			echo "perf: munmap r34 n/a"
			echo "perf: munmap r35 0"
		} > "$d/logs/$v-max-ipi.log"
		full=0
		[ $v = y ] && full=3
		printf 'tlbi: mark 0 0.8.3.7=1\ntlbi: mark 1 0.8.3.0=%s 0.8.3.7=9\n' "$full" > "$d/logs/$v-max-ipi.tlbi"
		printf 'meminfo: MemTotal: 1000 kB\nmeminfo: MemFree: 500 kB\n' > "$d/logs/$v-max-smp4.log"
		echo "tlb_reach: first chunk: 32 pages, 32 TLB entries (the linear map's: single pages)" >> "$d/logs/$v-max-smp4.log"
	done
	echo "tlb_reach: first chunk: 32 pages, 2 TLB entries (local mapping: CPU 0's unit, 128K contiguous, 0K in blocks)" >> "$d/logs/y-max-smp4.log"
	echo "per-CPU kernel page tables: 3 levels, 28672 bytes per CPU" >> "$d/logs/y-max-smp4.log"
	for b in bloat-o-meter bloat-o-meter-fixup; do
		echo "Total: Before=1, After=1, chg +0.00%" > "$d/logs/$b.txt"
	done
	printf '%s\n' "pcpu_ref_add_8   2   0   5   3" "error: pcpu_ref_add_8: bench-n: mrs" > "$d/logs/emitted-code.txt"
	printf 'loc series=2000\nloc fixup=600\n' > "$d/logs/properties.txt"
	echo "percpu entry fixup: 10 sequences, table 160 bytes" >> "$d/logs/f-max.log"
	echo "accel=tcg" > "$d/logs/meta.txt"
	# loc-added.awk: 4 lines of code (a, b, the blank, config X) among a KUnit block and a test's
	# Kconfig entry
	n=$(printf '%s\n' '+++ b/x.c' '+int a;' '+#ifdef CONFIG_X_KUNIT_TEST' '+#if B' '+t();' \
		'+#endif' '+u();' '+#endif' '+int b;' '+++ b/Kconfig' '+config X_KUNIT_TEST' \
		'+	bool "t"' '+' '+config X' ' context' |
		awk -f "$top/scripts/loc-added.awk")
	[ "$n" = 4 ] || { echo "loc-added.awk counted $n lines, not 4"; exit 1; }
	rep() { PATH=/usr/bin:$PATH python3 "$top/scripts/bench-report.py" "$d/logs" "$d/out" > /dev/null; }
	# make bench's scale section, written before the report, goes into it
	mkdir -p "$d/out"
	printf '%s\n' "# The kernel against the number of possible CPUs" "" "intro" "" \
		"## TLB invalidations" "" "### -cpu max" "" "| possible CPUs |" > "$d/out/scale.md"
	rep || { echo "the TCG report failed"; cat "$d/out/report.md"; exit 1; }
	sed -n '/^## Against the number of possible CPUs (scale.md)$/,/^## /p' "$d/out/report.md" |
		grep -q "^#### -cpu max" &&
		[ "$(grep -c "^### TLB invalidations$\|^intro$" "$d/out/report.md")" = 2 ] ||
		{ echo "TCG: the scale section not in the report, or its headings not one level down"; cat "$d/out/report.md"; exit 1; }
	grep -q "^| TLBI VMALLE1IS | memcg_churn | 0 | 3 | 0 |" "$d/out/report.md" &&
		grep -q "^- 3 TLBI VMALLE1IS (flush_tlb_all) in the cgroup churn on max, =n 0" "$d/out/report.md" &&
		grep -q "instructions per operation, -cpu max" "$d/out/report.md" &&
		grep -q "^| munmap | r35 | n/a |" "$d/out/report.md" ||
		{ echo "TCG: no TLBI rows, no flush_tlb_all() loss or a walk count of QEMU's PMU"; cat "$d/out/report.md"; exit 1; }
	# The frees lose against the fixup variant only, and so are listed there only
	sed -n '/^## Where =y loses against the fixup/,$p' "$d/out/report.md" |
		grep -q "^- free of 4-byte objects (inorder) on max: =y .* against fixup" &&
		! sed -n '/^## Where =y loses$/,/^## Where =y loses against/p' "$d/out/report.md" | grep -q "^- free of" &&
		grep -q "^- 11 kernel TLBIs in the cgroup churn on max, =n 8" "$d/out/report.md" &&
		grep -q "^| lines of code (added; no KUnit tests or documentation) | 2000 | 600 |" "$d/out/report.md" &&
		grep -q "^| memory | 28672 bytes .* | 160 bytes of table at run time (10 sequences)" "$d/out/report.md" &&
		grep -q "^pcpu_ref_add_8 " "$d/out/report.md" && ! grep -q "^error: pcpu_ref" "$d/out/report.md" &&
		grep -q "^| =y | 32 | 2 | local mapping: CPU 0's unit" "$d/out/report.md" ||
		{ echo "TCG: a loss against the fixup variant not listed, or listed against =n, or no properties or emitted code"; cat "$d/out/report.md"; exit 1; }
	rm "$d/logs/"*.tlbi
	echo "accel=kvm" > "$d/logs/meta.txt"
	# The kernel build's boots: their own table, not a CPU of the others
	for v in n y f; do
		case $v in n) x=1000 ;; y) x=900 ;; f) x=950 ;; esac
		printf '%s\n' "workload: kbuild ops 1 insns $x cmd make -j2 tinyconfig vmlinux (gcc 15)" \
			"perf: kbuild cycles ${x}0" > "$d/logs/$v-max-kbuild.log"
	done
	rep || { echo "the KVM report failed"; cat "$d/out/report.md"; exit 1; }
	! grep -q "^## Against the number of possible CPUs" "$d/out/report.md" ||
		{ echo "KVM: the scale section (TCG's instruction counts) in a KVM report"; exit 1; }
	grep -q "^| kernel build, ns | 1 | 1000 | 900 | 950 | -10.0% | -5.0% |" "$d/out/report.md" &&
		grep -q "^| kbuild | cycles | 10000 | 9000 | 9500 |" "$d/out/report.md" &&
		! grep -q "max-kbuild" "$d/out/report.md" ||
		{ echo "KVM: no kernel build table, or its logs taken for a CPU's"; cat "$d/out/report.md"; exit 1; }
	grep -q "^## this_cpu_\*(), ns per operation, -cpu host" "$d/out/report.md" &&
		grep -q "^| munmap | cycles | 10000 | 4000 | 6000 |" "$d/out/report.md" &&
		grep -q "^| munmap | r34 | n/a |" "$d/out/report.md" &&
		grep -q "^| munmap | r35 | 0 |" "$d/out/report.md" &&
		grep -q "^- not listed: one run under KVM" "$d/out/report.md" ||
		{ echo "KVM: not the ns headings, the counters or the losses left out"; cat "$d/out/report.md"; exit 1; }
	# With 7.4's way: the reference, its column first, its losses listed
	# first (the frees: =y 580, 7.4 540), =n's after
	sed -e 's/op add 8 dynamic 10.00/op add 8 dynamic 5.00/' -e 's/inorder 1000 600/inorder 1000 540/' \
		"$d/logs/n-max.log" > "$d/logs/m-max.log"
	for f in max-ipi.log max-smp4.log max-kbuild.log; do cp "$d/logs/n-$f" "$d/logs/m-$f"; done
	for v in m n y f; do
		printf 'tlbi: mark 0 0.8.3.7=1\ntlbi: mark 1 0.8.3.7=9\n' > "$d/logs/$v-max-ipi.tlbi"
	done
	cp "$d/logs/bloat-o-meter.txt" "$d/logs/bloat-o-meter-m74.txt"
	echo "loc m74=800" >> "$d/logs/properties.txt"
	echo "accel=tcg" > "$d/logs/meta.txt"
	rep || { echo "the report with 7.4's way failed"; cat "$d/out/report.md"; exit 1; }
	grep -q "^| add | 8 | dynamic | 5.00 | 4.00 | 10.00 | 6.00 | -20.0% | +100.0% | +20.0% |" "$d/out/report.md" &&
		[ "$(grep '^## Where =y loses' "$d/out/report.md" | paste -sd'|')" = \
		  "## Where =y loses against mainline 7.4's way|## Where =y loses against =n (7.2.13)|## Where =y loses against the fixup variant" ] &&
		sed -n "/^## Where =y loses against mainline 7.4's way/,/^## /p" "$d/out/report.md" |
		grep -q "^- free of 4-byte objects (inorder) on max: " &&
		grep -q "^| | local mapping | mainline 7.4's way | entry fixup |$" "$d/out/report.md" &&
		grep -q "^| lines of code (added; no KUnit tests or documentation) | 2000 | 800 | 600 |" "$d/out/report.md" ||
		{ echo "7.4: not the reference column, its losses not listed first, or no properties column"; cat "$d/out/report.md"; exit 1; }
	;;
bench-stats)
	# bench-stats.py on made-up KVM runs, three a kernel: =y's operation
	# clearly faster than 7.4's (intervals apart: significant), its frees
	# slower than =n's by less than the noise (overlapping: not), its
	# perf cycles clearly slower (listed as behind); one run of a kernel
	# is refused.
	d=$scratch/bench-stats
	rm -rf "$d"
	mkdir -p "$d"
	for r in 1 2 3; do
		sfx=
		[ $r -eq 1 ] || sfx=-r$r
		for v in m n y; do
			case $v in m) op=50 fr=600 cy=1000 ;; n) op=90 fr=590 cy=1000 ;; y) op=30 fr=600 cy=1500 ;; esac
			noise=$((r * 7 % 10))
			{
				echo "pcpu_bench: op add 8 dynamic $((op + r)).00"
				echo "pcpu_bench: alloc 4 inorder 1000 $((fr + noise))"
			} > "$d/$v-max$sfx.log"
			echo "perf: munmap cycles $((cy + r))" > "$d/$v-max-ipi$sfx.log"
		done
	done
	echo "meminfo: MemTotal: 1000 kB" > "$d/y-max-smp4.log"
	# a figure one run lacks is listed as missing, not dropped unsaid
	echo "workload: fork ops 5 insns 500 cmd stress-ng --fork 1" >> "$d/y-max.log"
	python3 "$top/scripts/bench-stats.py" "$d" "$d/stats.md" ||
		{ echo "bench-stats.py failed"; exit 1; }
	grep -q '^| add 8 dynamic | 52.00 \[4[0-9.]*, 5[0-9.]*\] | 92.00 .* | 32.00 .* | -38.5% \*\*significant\*\* | -65.2% \*\*significant\*\* |$' "$d/stats.md" &&
		grep -q '^| free of 4-byte objects (inorder) | .* | +[0-9.]*% |$' "$d/stats.md" &&
		grep -q '^- perf munmap cycles on max-ipi: =y +49.9% against 7.4$' "$d/stats.md" &&
		grep -q '^- workload fork on max: not in every run of every kernel$' "$d/stats.md" &&
		! grep -q '^- free of' "$d/stats.md" ||
		{ echo "bench-stats.py: wrong medians, intervals or significance"; cat "$d/stats.md"; exit 1; }
	rm "$d"/n-max-r*.log
	if python3 "$top/scripts/bench-stats.py" "$d" "$d/stats.md" 2> "$d/err"; then
		echo "bench-stats.py took one run of =n"
		exit 1
	fi
	grep -q "fewer than two runs of =n" "$d/err" || { cat "$d/err"; exit 1; }
	;;
scale-report)
	# scale-report.py on made-up lines: a loss past each bound is listed
	# (full flushes, by address, instructions, memory), a gain is not, a
	# 4096-CPU kernel's line counts as its 512-CPU self's column, and the
	# W+X check's share of the boot's difference is given.
	d=$scratch/scale-report
	mkdir -p "$d"
	f="boot=100000000 alloc=50000000 fork=20000000 module=900000000 MemTotal=2000000 PageTables=500 Percpu=300 cpu_tables=12288"
	cat > "$d/lines" <<-EOT
	scale: bench-m max 64 2 full=0 kernel=400 user=9 $f wx=500000 kinds=
	scale: bench-n max 64 2 full=0 kernel=400 user=9 $f kinds=
	scale: bench-y max 64 2 full=1 kernel=900 user=9 ${f/boot=100000000/boot=103000000 wx=2500000} kinds=
	scale: bench-m max 512 2 full=0 kernel=400 user=9 $f kinds=
	scale: bench-n max 512 2 full=0 kernel=400 user=9 $f kinds=
	scale: bench-y max 512 2 full=0 kernel=100 user=9 ${f/MemTotal=2000000/MemTotal=1990000} kinds=
	EOT
	echo "scale: scale4096-y max 4096 2 full=7 kernel=5 user=0 kinds=" > "$d/more"
	PATH=/usr/bin:$PATH python3 "$top/scripts/scale-report.py" "$d" "$d/lines" "$d/more" 2> /dev/null
	for want in "TLBIs, max, 64 possible CPUs: 1 full flushes against =n's 0" \
		"TLBIs, max, 64 possible CPUs: 900 invalidations by address against =n's 400" \
		"boot to init, max, 2 online of 64: =y +3.0% against 7.4's way" \
		"memory, 512 possible CPUs: MemTotal 10,000 kB below =n's" \
		"| 4096 | - | - | - | - | 7 | 5 |" "| 512 | per-CPU kernel tables (kB, all CPUs) | 6,144 | 6,144 | 6,144 |" \
		"| max | 2 | 64 | +3.00 | +2.00 | 2.50 | 0.50 |"; do
		grep -qF -- "$want" "$d/scale.md" || { echo "scale-report: no \"$want\""; cat "$d/scale.md"; exit 1; }
	done
	! grep -q "512 possible CPUs: 100 invalidations\|512: =y" "$d/scale.md" ||
		{ echo "scale-report: a gain listed as a loss"; exit 1; }
	;;
cover-losses)
	# cover-losses.py: the section written by --update passes --check; a
	# figure changed in it by hand, or a loss the report gained, fails.
	d=$scratch/cover-losses
	mkdir -p "$d"
	printf '# r\n\n- series: abc (3 patches, tree def)\n\n## Where =y loses against mainline 7.4%ss way\n\n- free of 128-byte objects (reverse) on max: +2.9%%\n\n## Where =y loses against =n (7.2.13)\n\n- nothing\n' "'" > "$d/report.md"
	printf '## Where the series costs more\n\n- boot to init, max, 2 online of 512: =y +3.0%% against 7.4%ss way\n- TLBIs, max, 4096 possible CPUs: 19 full flushes against =n%ss 2\n' "'" "'" > "$d/scale.md"
	printf 'Intro\n\nWhere it loses\n==============\n\nold figures\n\nThe series\n==========\n\npatches\n' > "$d/cover"
	cl() { python3 "$top/scripts/cover-losses.py" "$d" "$@"; }
	expect_fail "is not the report's" cl --check "$d/cover"
	cl --update "$d/cover"
	cl --check "$d/cover"
	grep -qE "^  allocator frees, some sizes +\+2\.9%" "$d/cover" &&
	grep -qE "^  boot to init +max +512 +\+3\.0%" "$d/cover" &&
	grep -q "^The series$" "$d/cover" && grep -q "^Intro$" "$d/cover" &&
	! grep -q "19 full flushes" "$d/cover" ||
		{ echo "cover-losses: --update lost the loss or the text around it, or kept a 4096-CPU row"; cat "$d/cover"; exit 1; }
	sed -i 's/+2.9%/+1.9%/' "$d/cover"
	expect_fail "is not the report's" cl --check "$d/cover"
	cl --update "$d/cover"
	echo "- alloc of 16-byte objects (alternate) on max: +1.2%" >> "$d/report.md"
	sed -i 's/^- nothing$//' "$d/report.md"
	expect_fail "is not the report's" cl --check "$d/cover"
	;;
cover-figures)
	# cover-figures.py: the section written by --update passes --check; a
	# figure the report no longer has fails.
	d=$scratch/cover-figures
	mkdir -p "$d"
	{
		printf '# r\n\n- series: abc (3 patches, tree def)\n\n'
		for cpu in max cortex-a57; do
			printf '## Workloads: loops, -cpu %s\n\n| workload | ops | 7.4 | =y | =n | fixup | change =y | change =n | change fixup |\n' "$cpu"
			printf '| `bench-loops munmap 1024` | 1024 | 1 | 1 | 1 | 1 | -5.0%% | +1.0%% | -1.0%% |\n\n'
		done
		printf '## Emitted instructions per this_cpu_*()\n\n```\n bench-m bench-n bench-y bench-f\nfunction insns x insns x insns x insns x\n'
		for f in add_u64 add_return_u64 read_u64 cmpxchg_u64 cmpxchg128 raw_add_u64 raw_cpu_read_static; do
			printf 'pcpu_ref_%s 7 6 17 16 1 0 3 2\n' "$f"
		done
		printf '```\n\n'
		for h in "=n against =y" "=n against mainline 7.4's way" "=n against the fixup variant"; do
			printf '## vmlinux, %s (scripts/bloat-o-meter -c)\n\nTotal: Before=1, After=2, chg +0.50%%\nTotal: Before=1, After=2, chg +1.00%%\n\n' "$h"
		done
	} > "$d/report.md"
	printf '## TLB invalidations of a churn\n\n### -cpu max\n\n| possible CPUs | a | b | c | d | e | f |\n|---|\n| 64 | 0 | 476 | 0 | 385 | 0 | 92 |\n' > "$d/scale.md"
	printf 'Intro\n\nIn figures\n==========\n\nold figures\n\nAt scale\n========\n\ntext\n' > "$d/cover"
	cf() { python3 "$top/scripts/cover-figures.py" "$d" "$@"; }
	expect_fail "is not the report's" cf --check "$d/cover"
	cf --update "$d/cover"
	cf --check "$d/cover"
	grep -qE "^  this_cpu_add\(\), 8 bytes +17 +7 +3 +1$" "$d/cover" &&
	grep -qE "^  munmap\(\) of 1MB, page by page +-5\.0% +-5\.0%$" "$d/cover" &&
	grep -qE "^  max +64 +476 +385 +92$" "$d/cover" &&
	grep -qE "^  this series \(the core\) +[0-9,]+ +\+0\.50% +\+1\.00%$" "$d/cover" &&
	grep -q "^At scale$" "$d/cover" ||
		{ echo "cover-figures: --update lost a figure or the text around them"; cat "$d/cover"; exit 1; }
	sed -i 's/chg +0.50%/chg +0.70%/' "$d/report.md"
	expect_fail "is not the report's" cf --check "$d/cover"
	;;
fragment-off)
	# A fragment that turns off an option the tree does not have stops the
	# configuration, in either form (merge_config's strict mode lets "=n"
	# pass); turning off one it has is not refused.
	for line in 'CONFIG_ARM64_LSE_ATOMICS=n' '# CONFIG_ARM64_LSE_ATOMICS is not set'; do
		printf '%s\n' "$line" > "$scratch/gone.config"
		expect_fail "has no such option" "$top/scripts/configure-kernel.sh" \
			"$scratch/config-gone" guest "$scratch/gone.config"
	done
	printf '# CONFIG_ARM64_PTR_AUTH is not set\n' > "$scratch/off.config"
	"$top/scripts/configure-kernel.sh" "$scratch/config-off" guest "$scratch/off.config" ||
		{ echo "an existing option turned off was refused"; exit 1; }
	;;
emitted-code)
	# check-emitted-code.py's rules, on hand-written functions
	"$top/tests/emitted-code-rules.py" ;;
hang)
	variant=${2:?the hang test needs a built variant}
	expect_fail "was killed" env BOOT_TIMEOUT=20 LOGS="$scratch" \
		"$top/scripts/boot-guest.sh" "$variant" cortex-a57 hang guest.hang=1
	grep -q "guest-start" "$scratch/hang.log" || { echo "the hung guest's log was not kept"; exit 1; }
	;;
*)
	die "no such test: $1"
	;;
esac
