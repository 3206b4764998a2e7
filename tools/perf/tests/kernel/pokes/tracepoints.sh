# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Tracepoints switched on and off through tracefs: each one's static key
# (jump labels: nop5 <-> jmp rel32, 66 90 <-> jmp rel8, in every caller)
# and its static call (the __SCT__tp_func_* trampoline and the calls to it).

EVENTS="sched/sched_wakeup timer/hrtimer_start irq/softirq_entry"

exp_body() {
	truth quiet
	# shellcheck disable=SC2086
	tp_toggle 3 $EVENTS
	truth quiet
	for e in $EVENTS; do echo 1 >"$T/events/$e/enable"; done
	truth quiet
	# shellcheck disable=SC2086
	busy tp_toggle 0 $EVENTS
	truth busy
	truth busy
	busy_end
	for e in $EVENTS; do echo 0 >"$T/events/$e/enable"; done
	truth quiet
}
