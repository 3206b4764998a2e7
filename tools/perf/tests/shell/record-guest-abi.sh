#!/bin/bash
# record: our recordings of 32- and 64-bit tasks on a real kernel (m32-guest/*.ours.data) against stock perf's
# SPDX-License-Identifier: GPL-2.0-only
#
# m32-guest/*.ours.data: perf textpoke record --no-kcore on Debian's
# kernel under qemu, which runs 32-bit tasks (this host's may not), of the
# workloads stock perf recorded there with the same options (MANIFEST):
# u32-regs (--user-regs, a 32-bit task), mixed (--user-regs=ip,sp, one
# process 32-bit and then, after an exec, 64-bit), chain32 and chain64
# (--call-graph dwarf of unwind-chain.c, -m32 and 64-bit static).  Stock
# perf 6.1 is the oracle for what it reads:
#
# - the sampling event's attrs, by stock perf evlist -v on ours and on
#   stock perf's recording of the same options: sample_regs_user,
#   sample_stack_user and exclude_callchain_user equal, every
#   sample_type bit of stock's in ours (ADDR and DATA_SRC, which perf
#   record adds for a DWARF call graph, included), mmap_data on some
#   event of both (stock perf sets it on the sampling event, we on the
#   side-band one); chain64 against chain32's, its stack 1024 bytes;
# - the build-id table: each object ours and stock perf's recording both
#   name with the same build-id, and every build-id of ours (but the
#   kernel's: see below) one stock perf put in the guest's build-id cache
#   (m32-guest/debug.tar.bz2), the compat vdso "[vdso32]" as stock perf's
#   perf-read-vdso32 got it there;
#   every object ours' samples hit (by stock perf script -F dso) named;
#   the vdsos the tasks mapped named, hit or not, as perf record does;
# - stock perf script reads ours with no warning but two, each named:
#   for every file "No kallsyms or vmlinux with build-id <the guest
#   kernel's>" (we write the kernel's build-id hit or not, and its
#   symbols are on no machine this runs on; stock perf writes it only
#   for kernel samples), and for chain32 "unwind: target platform=x86 is
#   not supported" (stock perf's gap: no 32-bit user frames);
# - per sample (pid/tid and time), stock perf script -F uregs's ABI word
#   (1: 32-bit, 2: 64-bit) and register values against ours -F abi,uregs:
#   abi:32 for ABI 1, abi:64 for 2, and the same registers (ours names
#   i386 ones eax..eflags, which this test maps to perf's AX..FLAGS) with
#   the same values; in mixed, one pid has samples of both ABIs.
#
# The DWARF chains: unwind-compat.sh checks ours of chain32.ours.data.
# chain64.ours.data here: stock perf 6.1 unwinds no frame of a static
# 64-bit program (libunwind; what it does is printed), so the oracle is
# the workload's call structure: >= 95% of the samples whose IP is in
# level3 (stock perf -G resolves the IP without unwinding) go through
# level2, level1, main and end in the function at the program's ELF entry
# point (readelf on the packed object), every frame in chain64.
#
# Mutation caught: record_hits__mmap() dropping a vdso mapped below
# 4 GiB (as before vdso-compat.c): no [vdso32] in u32-regs.ours.data and
# stock perf runs perf-read-vdso32, which fails here with a warning.
# Mutation caught: record_opts__parse_call_graph() without sample_addr:
# chain32.ours.data lacks ADDR|DATA_SRC.  (Both shown by recordings the
# mutated recorder made in the guest.)

. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/m32-guest.sh"
[ -n "$TEXTPOKE" ] || skip "TEXTPOKE not set: run through perf-textpoke test"
command -v perf >/dev/null 2>&1 || skip "stock perf is not installed"
command -v readelf >/dev/null 2>&1 || skip "readelf is not installed"
scratch record-guest-abi
export HOME=$tmp
m32_guest_check u32-regs.data mixed.data chain32.data \
	u32-regs.ours.data mixed.ours.data chain32.ours.data chain64.ours.data
[ -z "$why_m32_guest" ] || skip "$why_m32_guest"
m32_guest_home
g=$m32_guest

# the first event's compared attrs of FILE (the sampling one), then
# whether any event has mmap_data; STACK overrides sample_stack_user
attrs() {
	perf evlist -v -i "$1" 2>"$tmp/evlist.err" | awk -v stack="$2" '
	{
		name = $0; sub(/: .*/, "", name)
		n = split(substr($0, length(name) + 3), kv, ", ")
		delete f
		for (i = 1; i <= n; i++) {
			k = kv[i]; v = k
			sub(/: .*/, "", k); sub(/^[^:]*: /, "", v)
			f[k] = v
		}
		if (f["mmap_data"]) md = 1
		if (NR > 1) next
		print "event " name
		print "sample_regs_user " f["sample_regs_user"]
		print "sample_stack_user " (stack != "" ? stack : f["sample_stack_user"])
		print "exclude_callchain_user " f["exclude_callchain_user"] + 0
		nb = split(f["sample_type"], bits, "|")
		for (i = 1; i <= nb; i++) print "sample_type " bits[i]
	}
	END { print "mmap_data " md + 0 }' | sort
}

check_attrs() {
	local name=$1 ours=$2 stock=$3 stack=$4

	attrs "$g/$ours" >"$tmp/$name.attrs.ours"
	[ -s "$tmp/$name.attrs.ours" ] || fail "$name: perf evlist -v $ours: $(cat "$tmp/evlist.err")"
	attrs "$g/$stock" "$stack" >"$tmp/$name.attrs.stock"
	# every line of stock's in ours; ours may have more sample_type bits
	comm -23 "$tmp/$name.attrs.stock" "$tmp/$name.attrs.ours" >"$tmp/$name.attrs.missing"
	[ -s "$tmp/$name.attrs.missing" ] &&
		fail "$name: $ours lacks stock perf's attrs of $stock: $(tr '\n' ' ' <"$tmp/$name.attrs.missing")"
	comm -13 "$tmp/$name.attrs.stock" "$tmp/$name.attrs.ours" | grep -v '^sample_type ' |
		head -3 | grep . && fail "$name: $ours has other attrs than stock perf's $stock"
	echo "ok: $name: attrs as stock perf's ($(grep -c '^sample_type' "$tmp/$name.attrs.stock") sample_type bits," \
	     "$(grep '^sample_regs_user' "$tmp/$name.attrs.stock")," \
	     "$(grep '^sample_stack_user' "$tmp/$name.attrs.stock" | sed 's/ $/ none/'))"
}

check_attrs u32-regs u32-regs.ours.data u32-regs.data
check_attrs mixed mixed.ours.data mixed.data
check_attrs chain32 chain32.ours.data chain32.data
check_attrs chain64 chain64.ours.data chain32.data 1024

# the build-id table: what ours names, stock perf's recording names alike
# (but the kernel, which stock perf writes for kernel samples only); each
# object ours' samples hit (by stock perf) named; the vdsos hit or not
for p in u32-regs mixed chain32 chain64; do
	stock=$p.data
	[ $p = chain64 ] && stock=
	perf buildid-list -i "$g/$p.ours.data" 2>/dev/null | sort >"$tmp/$p.bids.ours"
	if [ -n "$stock" ]; then
		perf buildid-list -i "$g/$stock" 2>/dev/null | sort >"$tmp/$p.bids.stock"
		[ -s "$tmp/$p.bids.stock" ] || fail "$p: stock perf buildid-list lists nothing of $stock"
		# the names both give, with the same build-id (which objects a
		# recording names depends on where its samples fell)
		awk 'FNR == NR { id[$2] = $1; next } ($2 in id) && id[$2] != $1' \
			"$tmp/$p.bids.stock" "$tmp/$p.bids.ours" | head -3 | grep . &&
			fail "$p: the build-ids above of $p.ours.data are not those stock perf's $stock gives"
	fi
	# and every one (but the kernel's) an object stock perf cached in the guest
	grep -v ' \[kernel\.kallsyms\]$' "$tmp/$p.bids.ours" | while read -r bid path; do
		[ -e "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}" ] || echo "$bid $path"
	done | head -3 | grep . && fail "$p: the build-ids above of $p.ours.data are in no stock perf cache"
	perf script -i "$g/$p.ours.data" -G -F dso 2>/dev/null | sed 's/^ *(\(.*\))$/\1/' | sort -u |
	while read -r dso; do
		grep -q -F " $dso" "$tmp/$p.bids.ours" || echo "$dso"
	done >"$tmp/$p.bids.lacking"
	[ -s "$tmp/$p.bids.lacking" ] &&
		fail "$p: samples hit, without a build-id in $p.ours.data: $(tr '\n' ' ' <"$tmp/$p.bids.lacking")"
done
for want in "u32-regs [vdso32]" "mixed [vdso32]" "mixed [vdso]" "chain32 [vdso32]" "chain64 [vdso]"; do
	grep -q -F " ${want#* }" "$tmp/${want%% *}.bids.ours" ||
		fail "${want%% *}: no ${want#* } in $(tr '\n' ' ' <"$tmp/${want%% *}.bids.ours")"
done
echo "ok: the build-ids of ours are stock perf's, [vdso32] and [vdso] included, each object hit named"

# stock perf script on FILE with FIELDS into $tmp/NAME.stock; its stderr
# only the named lines
kbid=
stock_read() {
	local name=$1 file=$2 fields=$3 gap=$4

	kbid=$(perf buildid-list -i "$g/$file" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }')
	perf script -i "$g/$file" --ns -G -F "$fields" >"$tmp/$name.stock" 2>"$tmp/$name.stock.err" ||
		fail "$name: stock perf script: $(head -3 "$tmp/$name.stock.err")"
	grep -v -x -F -e "No kallsyms or vmlinux with build-id $kbid was found" ${gap:+-e "$gap"} \
		"$tmp/$name.stock.err" | head -3 | grep . &&
		fail "$name: stock perf script warned the above reading $file"
	[ -s "$tmp/$name.stock" ] || fail "$name: stock perf script printed no sample of $file"
}

# per sample: pid/tid, time, ip, ABI word, registers as perf names them
norm() {
	awk '{
		out = $1 " " $2 " " $3; abi = ""; regs = ""
		for (i = 4; i <= NF; i++) {
			if ($i == "abi:32") abi = "ABI:1"
			else if ($i == "abi:64") abi = "ABI:2"
			else if ($i ~ /^ABI:/ && !ours) abi = $i
			else if ($i ~ /^[A-Za-z0-9]+:0x/) {
				r = toupper($i)
				if (r ~ /^E(AX|BX|CX|DX|SI|DI|BP|SP|IP|FLAGS):/)
					r = substr(r, 2)
				regs = regs " " r
			}
		}
		print out " " (abi == "" ? "no-abi" : abi) regs
	}' ours="$1"
}

check_regs() {
	local name=$1 file=$2

	stock_read "$name" "$file" pid,tid,time,ip,uregs
	"$TEXTPOKE" script -i "$g/$file" --ns -F pid,tid,time,ip,abi,uregs >"$tmp/$name.ours" \
		2>"$tmp/$name.ours.err" || fail "$name: perf textpoke script: $(head -3 "$tmp/$name.ours.err")"
	[ -s "$tmp/$name.ours.err" ] && fail "$name: perf textpoke script warned: $(head -3 "$tmp/$name.ours.err")"
	norm 0 <"$tmp/$name.stock" >"$tmp/$name.want"
	norm 1 <"$tmp/$name.ours" >"$tmp/$name.got"
	if ! cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
		diff -u "$tmp/$name.want" "$tmp/$name.got" | head -8
		fail "$name: our ABI or registers differ from stock perf's at the samples above"
	fi
	grep -q ' no-abi' "$tmp/$name.want" && fail "$name: stock perf shows a sample without its ABI word"
	echo "ok: $name: $(wc -l <"$tmp/$name.want") samples, ABI and $(awk 'NR == 1 { print NF - 4 }' \
		"$tmp/$name.want") registers each as stock perf's:" \
		"$(awk '{ print $4 }' "$tmp/$name.want" | sort | uniq -c | tr -s ' \n' '  ')"
}

check_regs u32-regs u32-regs.ours.data
grep -v ' ABI:1 ' "$tmp/u32-regs.want" | head -3 | grep . && fail "u32-regs: samples of the 32-bit task not ABI:1"
check_regs mixed mixed.ours.data
awk '{ split($1, p, "/"); a[p[1] " " $4] = 1 } END {
	for (k in a) { split(k, w, " "); if (w[2] == "ABI:1" && (w[1] " ABI:2") in a) exit 0 } exit 1 }' \
	"$tmp/mixed.want" || fail "mixed: no pid has samples of both ABIs"
echo "ok: mixed: one pid with 32-bit and 64-bit samples"

# chain32.ours.data: stock perf reads it with its gap only (unwind-compat.sh
# checks the chains)
stock_read chain32 chain32.ours.data comm,tid,ip,sym "unwind: target platform=x86 is not supported"
echo "ok: chain32: stock perf reads ours, saying only: $(sort -u "$tmp/chain32.stock.err" | tr '\n' ';')"

# chain64.ours.data: the call structure of unwind-chain.c
prog=$m32_guest_dir/chain64
bid=$(perf buildid-list -i "$g/chain64.ours.data" 2>/dev/null | awk -v f="$prog" '$2 == f { print $1 }')
obj=$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/elf
entry=$(readelf -h "$obj" 2>/dev/null | sed -n 's/^ *Entry point address: *0x0*//p')
outer=$(readelf -sW "$obj" 2>/dev/null |
	awk -v e="$entry" '$4 == "FUNC" { v = $2; sub(/^0+/, "", v); if (v == e) { print $8; exit } }')
[ -n "$outer" ] || fail "chain64: no function at the entry point ($entry) of $prog's packed copy $obj"
stock_read chain64 chain64.ours.data tid,time,ip,sym
awk '$NF == "level3" { print $2 }' "$tmp/chain64.stock" >"$tmp/chain64.in3"
n3=$(wc -l <"$tmp/chain64.in3")
[ "$n3" -gt 50 ] || fail "chain64: stock perf -G sees only $n3 samples in level3"
perf script -i "$g/chain64.ours.data" -F ip,sym >"$tmp/chain64.perf" 2>/dev/null
stock=$(awk 'BEGIN { RS = ""; FS = "\n" } NF > 2 { n++ } END { print n + 0 }' "$tmp/chain64.perf")
"$TEXTPOKE" script -i "$g/chain64.ours.data" --ns -F tid,time,ip,sym,dso >"$tmp/chain64.ours" \
	2>"$tmp/chain64.ours.err" || fail "chain64: perf textpoke script: $(head -3 "$tmp/chain64.ours.err")"
[ -s "$tmp/chain64.ours.err" ] && fail "chain64: perf textpoke script warned: $(head -3 "$tmp/chain64.ours.err")"
awk -v in3file="$tmp/chain64.in3" -v prog="($prog)" -v outer="$outer" -v n3="$n3" '
	BEGIN { while ((getline t <in3file) > 0) level3[t] = 1; RS = ""; FS = "\n" }
	{
		split($1, h, " ")
		if (!(h[2] in level3))
			next
		seen++
		nu = 0
		for (i = 2; i <= NF; i++) {
			split($i, w, " ")
			sym[++nu] = w[2]
			if ($i !~ / \(.*\)$/ || substr($i, index($i, " (")) != " " prog)
				bad++
		}
		if (nu >= 4 && sym[1] == "level3" && sym[2] == "level2" && sym[3] == "level1" &&
		    sym[4] == "main" && sym[nu] == outer)
			ok++
		else if (shown++ < 3)
			print "not level3 ... main ... " outer ": sample " NR ":\n" $0
	}
	END {
		printf "ours: %d of %d samples in level3 unwind through level2, level1, main to %s" \
			" (%.1f%%), %d frames outside chain64\n", ok, n3, outer, 100 * ok / n3, bad
		exit !(seen == n3 && bad == 0 && ok * 100 >= n3 * 95)
	}' "$tmp/chain64.ours" >"$tmp/chain64.verdict" ||
	{ cat "$tmp/chain64.verdict"; fail "chain64: $(tail -1 "$tmp/chain64.verdict")"; }
echo "ok: chain64: stock perf unwinds $stock samples past one frame (a static program); $(tail -1 \
	"$tmp/chain64.verdict")"
exit 0
