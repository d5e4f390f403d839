#!/usr/bin/env bash
# make distro (slow, not in make check): build the series with Debian's own
# complete arm64 .config and the option on, and fail on any compiler
# warning that the base does not give with the same .config, and on any
# linker or modpost warning.  Only the
# objects that warn are compiled in the base tree too (build/linux-base, a
# worktree at the base tag), so the base costs minutes, not hours.
#
# The whole build takes longer than a session here, so a run that is
# stopped is taken up by the next one: kbuild keeps what it compiled, and
# each run's log is kept (series-N.log), so the warnings are those of all
# runs.  A series that changed is built on the same objects too: kbuild
# compiles again what the change reaches, whose warnings the new log has,
# and what it does not reach would warn as before.  A warning that went
# away stays in the older logs: a false alarm at worst, never a miss.
#
# Debian's .config is changed where a build outside Debian's packaging
# needs it: no debug info (pahole and hours of DWARF; it makes no compiler
# warning of its own), no module signing (Debian's key is not here; what
# still needs a key, MODULE_SIG_FORMAT for kexec and IMA, gets one that
# kbuild makes), and
# olddefconfig for the compiler this machine has (Debian built with its
# gcc-16; Rust goes when no rustc is installed).
#
# usage: distro.sh [FLAVOR]   (arm64, the default, or arm64-16k, rt-arm64)
#        DISTRO_TARGETS: what to build (default: vmlinux modules)
set -euo pipefail
. "$(dirname "$0")/common.sh"

flavor=${1:-arm64}
targets=${DISTRO_TARGETS:-vmlinux modules}
config=$("$top/scripts/debian-config.sh" "$flavor")
out=$BUILD/out/distro-$flavor
base_out=$out-base
logs=$LOGS/distro-$flavor
# series_tree: the series' committed tree, or nothing when the work tree
# has edits (a build of neither version).
series_tree() {
	[ -z "$(git -C "$KSRC" status --porcelain -uno)" ] &&
		git -C "$KSRC" rev-parse HEAD^{tree}
}
tree=$(series_tree) ||
	die "$KSRC has uncommitted edits: commit them (or make tree) first"
[ ! -f "$logs/tree" ] || [ "$(cat "$logs/tree")" = "$tree" ] ||
	note "the series changed since the last run: kbuild compiles again what the change reaches"
mkdir -p "$out" "$base_out" "$logs"
echo "$tree" > "$logs/tree"

# configure TREE OUTDIR [OPTION...]: Debian's .config, adjusted, in OUTDIR.
configure() {
	local tree=$1 dir=$2
	shift 2
	cp "$config" "$dir/.config"
	"$tree/scripts/config" --file "$dir/.config" \
		--disable DEBUG_INFO --enable DEBUG_INFO_NONE \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --disable DEBUG_INFO_BTF \
		--disable MODULE_SIG --disable MODULE_SIG_ALL \
		--set-str MODULE_SIG_KEY certs/signing_key.pem \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" "$@"
	KSRC=$tree kmake -s O="$dir" olddefconfig > /dev/null
}

# warnings LOG...: each compiler warning as "file: warning: text", without
# the tree's path and the line and column (the series moves lines), once.
warnings() {
	sed -n 's|^\([^ :]*\):[0-9]*:[0-9]*: warning: |\1: warning: |p' "$@" |
		sed "s|^$(realpath "$KSRC")/||; s|^$KSRC/||; s|^$(realpath "$BUILD")/linux-base/||; s|^$BUILD/linux-base/||" | sort -u
}

note "configuring the series with Debian's $flavor .config ($config)"
configure "$KSRC" "$out" --enable PERCPU_LOCAL_MAPPING
grep -q '^CONFIG_PERCPU_LOCAL_MAPPING=y' "$out/.config" ||
	die "CONFIG_PERCPU_LOCAL_MAPPING=y does not hold with Debian's $flavor .config: see $out/.config"

last=$(find "$logs" -name 'series-*.log' | sed 's/.*series-\([0-9]*\)\.log$/\1/' | sort -n | tail -n 1)
run=$((${last:-0} + 1))
log=$logs/series-$run.log
echo "$tree" > "$logs/series-$run.tree"
start=$SECONDS
note "building $targets, run $run (log: $log)"
kmake O="$out" $targets > "$log" 2>&1 ||
	{ grep -E 'error|Error' "$log" | head -n 30 >&2 || true; die "the series does not build with Debian's $flavor .config (log: $log)"; }
echo "$(((SECONDS - start) / 60))" >> "$logs/minutes"
note "built in $(((SECONDS - start) / 60)) min; $(($(paste -sd+ "$logs/minutes"))) min in the runs that finished"
warnings "$logs"/series-*.log > "$logs/series.warnings"

# The linker's and modpost's warnings name no source line, and the base
# is not linked here to compare them with: any of them fails the check,
# for a reader to judge.
grep -hE '^WARNING: |ld(\.bfd)?: warning: ' "$logs"/series-*.log | sort -u > "$logs/series.link-warnings" || true

# The base: the same .config, the objects that warned.
base_tree=$(base_tree)
configure "$base_tree" "$base_out"
# The .c files that warned, and those whose includes did (gcc names them
# in its "In file included from" lines).
objs=$( { cut -d: -f1 "$logs/series.warnings"
	  cat "$logs"/series-*.log | grep -oE 'from [^ :]+\.c:' | sed -E 's/^from //; s/:$//' || true
	} | sed "s|^$KSRC/||" | sed -n 's/\.c$/.o/p' | sort -u)
: > "$logs/base.log"
for o in $objs; do
	[ -f "$base_tree/${o%.o}.c" ] || continue
	rm -f "$base_out/$o"
	KSRC=$base_tree kmake O="$base_out" "$o" >> "$logs/base.log" 2>&1 || true
done
warnings "$logs/base.log" > "$logs/base.warnings"

[ "$(series_tree)" = "$tree" ] ||
	die "$KSRC changed during the build: run make distro again"
new=$(comm -23 "$logs/series.warnings" "$logs/base.warnings")
echo "$(wc -l < "$logs/series.warnings") warnings with the series, $(comm -12 "$logs/series.warnings" "$logs/base.warnings" | wc -l) of them in the base too"
[ -z "$new" ] || echo "$new"
cat "$logs/series.link-warnings"
# Both lists are shown before either fails the check
[ -z "$new" ] ||
	die "the series adds $(echo "$new" | wc -l) warnings with Debian's $flavor .config"
[ ! -s "$logs/series.link-warnings" ] ||
	die "$(wc -l < "$logs/series.link-warnings") linker or modpost warnings with Debian's $flavor .config (the base is not linked here: judge each)"
echo "no new warning with Debian's $flavor .config and CONFIG_PERCPU_LOCAL_MAPPING=y"
