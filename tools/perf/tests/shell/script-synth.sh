#!/bin/bash
# script: -F synth:..., synth: and +synth accepted or refused as perf script on a real recording
# SPDX-License-Identifier: GPL-2.0-only
#
# A stock perf recording of a workload has no PERF_TYPE_SYNTH events: the
# synth: type lists must then change nothing, the synth field alone must
# print perf's empty lines, and the bad lists must fail with perf's status
# (the synth samples themselves are in tests/script-json-synth.c, on a
# recording our writer makes).  Outputs are byte-identical to stock perf
# script's.
#
# Mutation caught: type_lookup() without "synth" (every synth: list is an
# error, exit 129).

. "$(dirname "$0")/lib/script-common.sh"
need_perf_root
scratch script-synth
export HOME=$tmp/home
mkdir -p "$HOME"

build_workload "$tmp/w64" || fail "gcc: $(cat "$tmp/gcc.err")"
perf_record "$tmp/p.data" -e cpu-clock -- "$tmp/w64" 20000000

same_output synth-ip-sym "$tmp/p.data" -F synth:ip,sym
same_output synth-none "$tmp/p.data" -F synth:
same_output plus-synth "$tmp/p.data" -F +synth
same_output synth-plus-ip "$tmp/p.data" -F synth:+ip
same_output synth-minus "$tmp/p.data" -F synth:-period,-synth
same_output ip-synth "$tmp/p.data" -F ip,synth
same_output synth-only "$tmp/p.data" -F synth
same_output synth-and-sw "$tmp/p.data" -F synth:ip -F sw:comm,ip

for args in "-F synth:bogus" "-F synth:trace" "-F synth:bpf-output" "-F synth:ip,+sym" \
	"-F synthetic:ip"; do
	# shellcheck disable=SC2086
	HOME=$tmp perf script -i "$tmp/p.data" $args >"$tmp/p.out" 2>&1
	st_perf=$?
	# shellcheck disable=SC2086
	"$TEXTPOKE" script -i "$tmp/p.data" $args >"$tmp/o.out" 2>"$tmp/o.err"
	st_ours=$?
	[ "$st_perf" != 0 ] || fail "$args: stock perf accepts it"
	[ "$st_ours" = "$st_perf" ] || fail "$args: we exit $st_ours, stock perf $st_perf"
	[ -s "$tmp/o.out" ] && fail "$args: printed on stdout"
	echo "ok: $args refused as by perf (exit $st_ours): $(cat "$tmp/o.err")"
done
