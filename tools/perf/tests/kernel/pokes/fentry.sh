# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# BPF fentry and fexit trampolines (bpf-fentry.c) on getpid's body, which
# the helper's own loop calls: the ftrace site poked nop5 <-> call, the
# trampoline's image (KSYMBOL bpf_trampoline_*) come and go, addresses
# possibly reused; fexit's teardown pokes a jmp into its trampoline.

# 6.1's __x64_sys_getpid is an alias of __do_sys_getpid, which alone is in
# its BTF
FENTRY_FUNCS=__do_sys_getpid,__x64_sys_getpid

# a helper that failed (no BTF, the load or attach refused) fails the rig:
# check-kernel.sh fails on a "rig: ...: exit N" line in experiment.log
fentry_status() {
	[ "$2" = 0 ] || echo "rig: $RIG_EXP: bpf-fentry $1: exit $2" >&2
	log "bpf-fentry $1: exit $2"
}

# fentry_busy_end: busy_end, keeping the helper's status (SIGTERM makes it
# detach and exit 0)
fentry_busy_end() {
	# shellcheck disable=SC2154 # set by lib.sh's busy()
	kill "$busy_pid"
	wait "$busy_pid"
	fentry_status "$1" $?
	log "busy end"
}

# the helper's lines (which function, each round's program id) go to
# /out/fentry.helper
exp_body() {
	exec >>"/out/$RIG_EXP.helper"
	truth quiet
	bpf-fentry fentry $FENTRY_FUNCS 0.6 3
	fentry_status "fentry churn" $?
	truth quiet
	busy bpf-fentry fentry $FENTRY_FUNCS 60
	sleep 0.3
	truth busy
	fentry_busy_end "fentry busy"
	truth quiet
	busy bpf-fentry fexit $FENTRY_FUNCS 60
	sleep 0.3
	truth busy
	fentry_busy_end "fexit busy"
	bpf-fentry fexit $FENTRY_FUNCS 0.4 2
	fentry_status "fexit churn" $?
	truth quiet
}
