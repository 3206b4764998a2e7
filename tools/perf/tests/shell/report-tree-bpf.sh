#!/bin/bash
# report, script: chain frames in BPF programs that come, go and reuse an address name the program there then, as stock perf
# SPDX-License-Identifier: GPL-2.0-only
#
# lib/bpf-chains.py writes, byte by byte (not with our writer), a
# recording whose PERF_RECORD_KSYMBOLs register and unregister BPF
# programs: three in turn at one address, one that stays, one that
# lives between two samples of the second.  Kernel samples' chains run
# through them.  Its event has no sample_id_all, as perf record wrote
# before 3.x and as some tools still write: the KSYMBOLs carry no time,
# and perf reads such a file in its order, each record applying from
# where it stands.  Stock perf report --stdio (the default trees,
# --no-children both orders, folded, fractal, --sort sym, --sort dso,sym)
# and perf script must equal ours byte for byte, and the trees must name
# all three programs of the reused address.  After the last of them is
# gone (and nothing registered since), its chains come again: the frames
# there are unknown, in perf's output and in ours (whose lookups and
# script's kept lines must not answer for a program gone).
#
# The code-change report's regions, built in a pass of their own that
# drops the samples unread, must hold each program's samples as the
# generator made them: a time-less record is taken to be 1 ns after the
# last time read before it.
#
# Mutation caught: the sample_id_all fallback to file order left out
# (perf_session__new()): the samples stay queued, the KSYMBOLs go first,
# and script's frames at the reused address are unknown.  And:
# perf_session__deliver() leaving a time-less side-band record at time 0
# (not last_time + 1): the main pass still matches perf, reading in file
# order, but every region's life is empty and holds no sample.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
scratch report-tree-bpf

python3 "$libdir/bpf-chains.py" "$tmp/b.data" || fail "bpf-chains.py"
same_script "$tmp/b.data"
same_report default "$tmp/b.data"
same_report no-children "$tmp/b.data" --no-children
same_report caller-no-children "$tmp/b.data" -g caller --no-children
same_report folded "$tmp/b.data" -g folded
same_report fractal "$tmp/b.data" -g fractal
same_report sort-sym "$tmp/b.data" --sort sym
same_report dso-sym-callee "$tmp/b.data" --sort dso,sym -g callee
for p in first second third other stays; do
	grep -q -- "--bpf_prog_[0-9a-f]*_$p\$\|---bpf_prog_[0-9a-f]*_$p\$\|^ *bpf_prog_[0-9a-f]*_$p\$" \
		"$tmp/default.ours" || fail "the trees name no frame in program $p"
done
# the code-change report's regions (a pass of their own, samples dropped
# unread but for their time): each program's samples, as the generator
# made them (first 6; second and other 5, alternating; third 14)
"$TEXTPOKE" report -i "$tmp/b.data" --json >"$tmp/b.json" 2>"$tmp/err" ||
	fail "report --json: $(head -3 "$tmp/err")"
python3 -c 'import json, sys
want = {"first": 6, "second": 5, "other": 5, "third": 14, "stays": 0}
got = {r["name"].rsplit("_", 1)[1]: r["nr_samples"] for r in json.load(open(sys.argv[1]))["changes"]["regions"]}
sys.exit(0 if got == want else "regions: samples %s, want %s" % (got, want))' "$tmp/b.json" ||
	fail "the regions' samples are not the generator's"
echo "ok: the regions hold the samples taken in each program's life"
exit 0
