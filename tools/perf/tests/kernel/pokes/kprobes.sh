# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Kprobes through tracefs: one at a function's entry (ftrace-based), one
# inside it (int3, then optimized to a jmp by a kworker, unoptimized
# through /proc/sys/debug/kprobes-optimization, then removed).

FN=do_sys_openat2

exp_body() {
	echo "p:rig/entry $FN" >>$T/kprobe_events || log "kprobe at $FN+0 refused"
	# the first offset past the entry that is an instruction boundary
	# the kernel accepts (it refuses others with EILSEQ)
	off=5
	while [ $off -lt 40 ]; do
		echo "p:rig/inside $FN+$off" >>$T/kprobe_events 2>/dev/null && break
		off=$((off + 1))
	done
	log "kprobe inside at $FN+$off"
	truth quiet
	echo 1 >$T/events/rig/entry/enable
	echo 1 >$T/events/rig/inside/enable
	truth quiet
	# the optimizer runs 5 jiffies after arming
	sleep 0.2
	cat /proc/version >/dev/null
	truth quiet
	echo 0 >/proc/sys/debug/kprobes-optimization
	truth quiet
	echo 1 >/proc/sys/debug/kprobes-optimization
	sleep 0.2
	busy sh -c 'while :; do cat /proc/version >/dev/null; done'
	truth busy
	busy_end
	echo 0 >$T/events/rig/inside/enable
	echo 0 >$T/events/rig/entry/enable
	echo "-:rig/inside" >>$T/kprobe_events
	echo "-:rig/entry" >>$T/kprobe_events
	sleep 0.1
	truth quiet
}
