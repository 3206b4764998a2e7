# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# A tracepoint toggler already running while the recorder starts and
# copies kcore: pokes land during the copy.

EVENTS="sched/sched_wakeup timer/hrtimer_start"

exp_before() {
	# shellcheck disable=SC2086
	tp_toggle 0 $EVENTS &
	echo $! >/tmp/toggler
}

toggler_end() {
	kill "$(cat /tmp/toggler)" 2>/dev/null
	for e in $EVENTS; do echo 0 >"$T/events/$e/enable"; done
}

exp_after() {
	toggler_end
	wait
}

exp_body() {
	truth busy
	truth busy
	toggler_end
	truth quiet
}
