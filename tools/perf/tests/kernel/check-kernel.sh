#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-kernel: the text-poke experiments of issue 21 on Debian's
# kernel under qemu, booted with and without KASLR, and check-pokes.py's
# table of what perf textpoke code says at every poked site against what
# the kernel held.  Exit 0 when every compared byte is equal and none is
# shown where nothing was mapped; 2 (a skip, with the reason) when qemu,
# busybox, gcc, libbpf-dev or stock perf is missing or the kernel package
# cannot be fetched; 1 otherwise.
#
# Usage: check-kernel.sh [OUTDIR]   (default build/check-kernel)
# TEXTPOKE: the binary under test (default the tree's).

# two boots of ~90 s of wall time each on an idle core (~4 min each on
# a machine loaded to 5); a hung guest ends here, not in the suite's own
# timeout.  Before config.sh, whose default is the 32-bit recordings' 900.
: "${KERNEL_QEMU_TIMEOUT:=360}"
export KERNEL_QEMU_TIMEOUT
. "$(dirname "$0")/config.sh"
out=${1:-$kernel_src_dir/build/check-kernel}
: "${TEXTPOKE:=$kernel_src_dir/tools/perf/perf-textpoke}"
export TEXTPOKE

for t in qemu-system-x86_64 busybox gcc perf python3 flock; do
	command -v $t >/dev/null 2>&1 || { echo "skip: $t is not installed"; exit 2; }
done
# the fentry experiment's helper finds its function in the kernel's BTF with libbpf
printf '#include <bpf/btf.h>\n' | gcc -E -o /dev/null - 2>/dev/null ||
	{ echo "skip: libbpf-dev is not installed (no <bpf/btf.h>)"; exit 2; }
[ -x "$TEXTPOKE" ] || { echo "check-kernel: $TEXTPOKE is not built (make)" >&2; exit 1; }
kroot=$("$kernel_rig_dir/fetch-kernel.sh") ||
	{ echo "skip: the kernel package $KERNEL_PKG=$KERNEL_PKG_VERSION cannot be fetched"; exit 2; }

mkdir -p "$out"
for v in kaslr nokaslr; do
	arg=
	[ $v = nokaslr ] && arg=nokaslr
	# one guest at a time on the machine: qemu runs on one core
	flock /tmp/qemu.lock nice bash "$kernel_rig_dir/run-pokes.sh" "$out/$v" $arg ||
		{ echo "check-kernel: the $v boot failed: $out/$v/console.log" >&2; exit 1; }
	# a recorder that failed in the guest leaves no recording to check:
	# that is a failure, never fewer rows in the table
	if grep -E '^rig: .*: exit [1-9]' "$out/$v/experiment.log" >&2; then
		echo "check-kernel: a recorder failed in the $v boot: $out/$v/experiment.log" >&2
		exit 1
	fi
	for e in tracepoints ftrace kprobes bpf fentry module startup; do
		for who in ours stock; do
			[ -d "$out/$v/$e.$who" ] || {
				echo "check-kernel: $v boot: no $e.$who recording: $out/$v/experiment.log" >&2
				exit 1
			}
		done
	done
done
# the vmlinux base, on the nokaslr boot: the package ships only vmlinuz
python3 "$kernel_rig_dir/extract-vmlinux.py" "$kroot"/boot/vmlinuz-* "$out/vmlinux" ||
	{ echo "check-kernel: no vmlinux in $kroot/boot" >&2; exit 1; }
mkdir -p "$out/home"
HOME=$out/home python3 "$kernel_rig_dir/check-pokes.py" --textpoke "$TEXTPOKE" --stock-insn \
	--vmlinux "$out/vmlinux" "$out/kaslr" "$out/nokaslr"
