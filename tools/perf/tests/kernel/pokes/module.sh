# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# A module of the kernel package (drivers/net/dummy.ko) loaded and
# unloaded in the middle of the recording: its code, the pokes its load
# makes, its init code freed.

exp_body() {
	truth quiet
	insmod $P/dummy.ko || log "insmod dummy failed"
	truth quiet
	ip link set dummy0 up 2>/dev/null
	truth quiet
	rmmod dummy || log "rmmod dummy failed"
	truth quiet
}
