#!/usr/bin/env bash
# What the kernel costs at a given number of possible CPUs: the TLB
# invalidations of a memory-cgroup churn (a percpu depopulation's cost as
# the CPUs grow), and guest/checks/scale's boot, allocator, fork/exit and
# module figures and memory.  Boots build/out/VARIANT (built, with its
# initramfs) under QEMU TCG with -icount, a device tree of POSSIBLE CPUs,
# ONLINE of them online (maxcpus), and the TLBI plugin
# (bench/tlbi-count.c), runs guest/checks/memcg_churn and then scale (the
# allocator's frees would leave a batch of unmaps for the churn to count),
# and prints one line:
#
#   scale: VARIANT CPU POSSIBLE ONLINE full=F kernel=K user=U boot=B ... kinds=...
#
# (every "scale: NAME VALUE" of the guest as NAME=VALUE; alloc, fork and
# module the instructions executed between its marks), F, K and U from the
# plugin's counts between the churn's marks:
# full: TLBIs that drop every entry (VMALLE1IS and VMALLE1: flush_tlb_all(),
# user entries included); kernel: by address for all ASIDs (VAAE1IS,
# VAALE1IS and their range forms: kernel mappings); user: by ASID or by
# address and ASID (the tasks' own).  -cpu max has range TLBIs
# (FEAT_TLBIRANGE), cortex-a57 does not.
#
# usage: scale-boot.sh VARIANT CPU POSSIBLE ONLINE   (CHURN_COUNT memory
#        cgroups, CHURN_ROUNDS times: 1000 and 2 by default; MEM 2G)
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage="usage: scale-boot.sh VARIANT CPU POSSIBLE ONLINE"
variant=${1:?$usage}
cpu=${2:?$usage}
possible=${3:?$usage}
online=${4:?$usage}
name=scale-$variant-$cpu-$possible-$online
mkdir -p "$LOGS/scale"
plugin=$("$top/scripts/tlbi-plugin.sh") || die "the TLBI plugin could not be built"
nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$BUILD/out/$variant/.config")
[ "$possible" -le "$nr_cpus" ] || die "$variant has NR_CPUS=$nr_cpus, below $possible"

dtb=$LOGS/scale/$name.dtb
"$top/scripts/possible-cpus-dtb.sh" "$dtb" "$possible" "$cpu" "$online"
tlbi=$LOGS/scale/$name.tlbi
rm -f "$tlbi"
# printk.time: guest/checks/scale reads the boot's length from a timestamp
LOGS=$LOGS/scale MEM=${MEM:-2G} SMP=$online GUEST_CHECKS=memcg_churn,scale \
	QEMU_ARGS="-icount shift=0,sleep=off -dtb $dtb -plugin $plugin -d plugin -D $tlbi" \
	"$top/scripts/boot-guest.sh" "$variant" "$cpu" "$name" "maxcpus=$online" printk.time=1 \
	"guest.memcg_churn.count=${CHURN_COUNT:-1000}" \
	"guest.memcg_churn.rounds=${CHURN_ROUNDS:-2}" ||
	die "$name: the guest did not finish (log: $LOGS/scale/$name.log)"
grep -q "^ok .*memcg_churn" "$LOGS/scale/$name.ktap" ||
	die "$name: the churn failed (log: $LOGS/scale/$name.log)"
grep -q "^ok .* scale$" "$LOGS/scale/$name.ktap" ||
	die "$name: guest/checks/scale failed (log: $LOGS/scale/$name.log)"
figures=$(sed -n 's/^scale: \([a-zA-Z_]*\) \([0-9]*\)\r*$/\1=\2/p' "$LOGS/scale/$name.log" | tr '\n' ' ')
# The W+X check at the end of boot (DEBUG_WX: its walk of the kernel's
# tables grows with the regions), from the console's timestamps: the
# instructions from "Freeing unused kernel memory" to "Checked W+X"
figures="$figures$(awk '/\] Freeing unused kernel memory/ { split($0, t, /[][]/); a = t[2] }
	/\] Checked W\+X mappings/ { split($0, t, /[][]/); b = t[2] }
	END { if (a != "" && b != "") printf "wx=%d ", (b - a) * 1e9 }' "$LOGS/scale/$name.log")"
# The workloads' instructions, every vCPU's, between guest/checks/scale's
# marks: after the churn's two, a pair each for alloc, fork and module.
figures="$figures$(awk '/^insns: mark / { c[$3] = $4 }
	END {
		if (!(7 in c)) { print "fewer than 8 marks" > "/dev/stderr"; exit 1 }
		printf "alloc=%d fork=%d module=%d ", c[3] - c[2], c[5] - c[4], c[7] - c[6]
	}' "$tlbi")" || die "$name: the plugin printed no instruction counts at the marks (log: $tlbi)"

# The plugin prints "tlbi: mark N kind=count ..." with cumulative counts
# by op1.CRn.CRm.op2 (bench/tlbi-count.c); the churn is between marks 0 and 1.
awk -v head="scale: $variant $cpu $possible $online" -v figures="$figures" '
	/^tlbi: mark [01] / {
		for (i = 4; i <= NF; i++) {
			split($i, kv, "=")
			c[$3, kv[1]] = kv[2]
			kinds[kv[1]] = 1
		}
		seen[$3] = 1
	}
	END {
		if (!seen[0] || !seen[1]) { print "no marks 0 and 1" > "/dev/stderr"; exit 1 }
		name["0.8.3.0"] = "VMALLE1IS"; name["0.8.7.0"] = "VMALLE1"
		name["0.8.3.3"] = "VAAE1IS"; name["0.8.3.7"] = "VAALE1IS"
		name["0.8.2.3"] = "RVAAE1IS"; name["0.8.2.7"] = "RVAALE1IS"
		name["0.8.7.3"] = "VAAE1"; name["0.8.7.7"] = "VAALE1"
		name["0.8.3.1"] = "VAE1IS"; name["0.8.3.5"] = "VALE1IS"
		name["0.8.3.2"] = "ASIDE1IS"; name["0.8.2.1"] = "RVAE1IS"
		name["0.8.2.5"] = "RVALE1IS"
		full = kernel = user = 0; list = ""
		for (k in kinds) {
			n = c[1, k] - c[0, k]
			if (!n)
				continue
			kn = (k in name) ? name[k] : k
			list = list " " kn "=" n
			if (kn ~ /^VMALLE1/)
				full += n
			else if (kn ~ /^R?VAA/)
				kernel += n
			else
				user += n
		}
		printf "%s full=%d kernel=%d user=%d %skinds=%s\n", head, full, kernel, user, figures, list
	}' "$tlbi"
