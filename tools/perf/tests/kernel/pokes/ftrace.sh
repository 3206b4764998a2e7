# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The function tracer with a filter: the filtered functions' ftrace sites
# (nop5 <-> call), ftrace_call/ftrace_regs_call, and trampolines.

exp_body() {
	echo do_sys_openat2 >$T/set_ftrace_filter
	echo vfs_read >>$T/set_ftrace_filter
	truth quiet
	echo function >$T/current_tracer
	cat /proc/version >/dev/null
	truth quiet
	echo nop >$T/current_tracer
	truth quiet
	echo function >$T/current_tracer
	busy sh -c 'while :; do cat /proc/version >/dev/null; done'
	truth busy
	busy_end
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	truth quiet
}
