#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# In the guest: the text-poke experiments of issue 21, each recorded by
# perf textpoke record -a and by stock perf record -a --kcore, with the
# kernel's own bytes read at moments of each recording (lib.sh, truth).
# rig.exp=a,b on the kernel command line runs only those.

. /rig/pokes/lib.sh
set -u

exps="tracepoints ftrace kprobes bpf fentry module startup"
for w in $(cat /proc/cmdline); do
	case $w in rig.exp=*) exps=$(echo "${w#rig.exp=}" | tr , ' ') ;; esac
done

# /proc/vmallocinfo prints its addresses with %pK: hashed with
# kptr_restrict 0, real ones for root (CAP_SYSLOG) with 1
echo 1 >/proc/sys/kernel/kptr_restrict
uname -r >kernel-release
perf --version >perf-version
perf-textpoke version >textpoke-version
cat /proc/cmdline >cmdline
cp /proc/kallsyms kallsyms
cp /proc/modules modules.start
echo 0 >/tmp/moment
t0=$(date +%s)
kcore-truth init $TRUTH_STATE /out/truth || exit 1
echo "rig: moment 0 (the whole image) in $(($(date +%s) - t0)) s"

for e in $exps; do
	(record_both "$e") || echo "rig: experiment $e failed"
done
cp /proc/kallsyms kallsyms.end
