#!/bin/bash
# corruption matrix: cut, bit-flipped and damaged recordings give an error or a warning, never a crash or hang
# SPDX-License-Identifier: GPL-2.0-only
#
# Recordings made now by stock perf record (file mode with callchains, and
# a pipe) and by perf textpoke record (with its kcore_dir), each damaged
# every way a copy, a crash or an attacker damages one:
# - cut at every record boundary and 3 bytes into every record, and at
#   random bytes;
# - one bit of each record's header.size flipped;
# - the header's attr, data and feature-section offsets and sizes, and
#   each feature's offset and size, bit-flipped (low and high bits);
# - kcore_dir members replaced by a FIFO, a device node, a symlink out of
#   the directory, garbage, or cut short.
# script runs on every one, report and inject on every fourth (and on all
# the kcore_dir cases).  Each run: within 20 s (a FIFO opened for reading
# would block), exit 0 or the command's error status (script: perf's 234
# or 255; report, inject: 1) and no signal or abort, a non-zero exit says
# "error:" naming the input, an exit 0 says "warning:" naming the input,
# the input unchanged byte for byte, and on the normal build under
# ulimit -v of 256 MB (the documented cap; ASan reserves terabytes of
# address space, so not there).  An exit 0 without a word is allowed only
# where the damage cannot be told, each case named in the matrix below: a
# pipe cut between two records (a stream has no end mark), a user
# record's size grown onto a later record's start (perf reads those
# payloads by their own counts), kcore_dir/modules for the commands that
# never open it (script, report).
#
# Mutation caught: perf_session__process_range() trusting header.size
# past the mapped window (the "h.size > data->size - off" check dropped):
# a flipped size bit reads past the file, and the run crashes or fails
# without a message.  perf_header__check_sections() not called: a feature
# section's size or offset bit flipped gives exit 0 and no word.

. "$(dirname "$0")/lib/report-common.sh"
need_perf_root
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (builds the matrix)"
command -v mkfifo >/dev/null 2>&1 || skip "mkfifo is not installed"
scratch corrupt-matrix

build_report_workload "$tmp/work" || { cat "$tmp/gcc.err"; fail "gcc"; }
# the workload's argument is its iterations: 100000 is a ms or two, some
# samples on top of the side-band records whatever the machine's speed
perf_record "$tmp/file.data" -e cpu-clock -c 200000 -g -- "$tmp/work" 100000
HOME=$tmp perf record -q -o - -e cpu-clock -c 200000 -- "$tmp/work" 100000 >"$tmp/pipe.data" 2>/dev/null ||
	fail "perf record -o -"
# -o an existing directory: the form with a kcore_dir/ whose members are damaged below
mkdir "$tmp/ours.data" || fail "mkdir"
"$TEXTPOKE" record -q -o "$tmp/ours.data" -e cpu-clock -c 200000 -- "$tmp/work" 100000 \
	>"$tmp/ours.out" 2>&1 || { cat "$tmp/ours.out"; fail "perf textpoke record"; }
[ -d "$tmp/ours.data/kcore_dir" ] || fail "perf textpoke record wrote no kcore_dir"

# no cap under ASan (check-san sets ASAN_OPTIONS)
cap=262144
[ -n "$ASAN_OPTIONS" ] && cap=0

python3 - "$TEXTPOKE" "$tmp" "$cap" <<'PY'
import hashlib, os, random, resource, shutil, stat, struct, subprocess, sys, threading
from concurrent.futures import ThreadPoolExecutor

prog, tmp, cap = sys.argv[1], sys.argv[2], int(sys.argv[3])
rnd = random.Random(20261201)
out = os.path.join(tmp, 'm')
os.mkdir(out)
failures = []
runs = 0

def records(d, pipe):
    """(offset, size) of each record, walked from the headers"""
    if pipe:
        off, end = 16, len(d)
    else:
        off, size = struct.unpack_from('<QQ', d, 40)
        end = off + size
    res = []
    while off + 8 <= min(end, len(d)):
        t, m, s = struct.unpack_from('<IHH', d, off)
        if s < 8:
            break
        res.append((off, s))
        if t == 71:
            s += struct.unpack_from('<Q', d, off + 8)[0]
        off += s
    return res

def limit():
    if cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap * 1024, cap * 1024))

def digest(path):
    h = hashlib.sha256()
    for root, dirs, files in os.walk(path) if os.path.isdir(path) else [(None, [], [path])]:
        for f in sorted(files):
            p = os.path.join(root, f) if root else f
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                h.update(p.encode() + open(p, 'rb').read())
            else:
                h.update(p.encode() + str(st.st_mode).encode())
    return h.hexdigest()

# the runs go two at a time (the machine's two cores), the cases made
# ahead in order (the random choices stay those of the seed), a few at most
pool = ThreadPoolExecutor(max_workers=2)
ahead = threading.BoundedSemaphore(6)
jobs = []

def job(name, path, cmds, quiet_ok, n, then):
    try:
        check(name, path, cmds, quiet_ok, n)
        if then:
            then()
    finally:
        ahead.release()

def run(name, path, cmds, quiet_ok=(), then=None):
    ahead.acquire()
    jobs.append(pool.submit(job, name, path, cmds, quiet_ok, len(jobs), then))

count = threading.Lock()

def check(name, path, cmds, quiet_ok, n):
    global runs
    before = digest(path)
    inj = os.path.join(out, 'inj-%d.out' % n)
    for cmd in cmds:
        argv = [prog, cmd, '-i', path]
        if cmd == 'report':
            argv += ['--stdio']
        if cmd == 'inject':
            argv += ['-q', '-o', inj]
        with count:
            runs += 1
        try:
            p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=20, preexec_fn=limit)
        except subprocess.TimeoutExpired:
            failures.append('%s: %s hangs' % (name, cmd))
            continue
        err = p.stderr.decode(errors='replace')
        # script exits as perf script does (234, 255 for an input it
        # cannot open); report and inject 1
        ok = (0, 234, 255) if cmd == 'script' else (0, 1)
        if p.returncode not in ok:
            failures.append('%s: %s exit %d: %s' % (name, cmd, p.returncode, err[-300:]))
        elif p.returncode and ('error:' not in err or path not in err):
            failures.append('%s: %s exit %d without an error naming %s: %s' %
                            (name, cmd, p.returncode, path, err[-300:]))
        elif not p.returncode and cmd not in quiet_ok and ('warning:' not in err or
                                                            path not in err):
            failures.append('%s: %s exit 0 without a warning naming %s: %r' %
                            (name, cmd, path, err[-300:]))
        for f in (inj, inj + '.old'):
            if os.path.isdir(f):
                shutil.rmtree(f)
            elif os.path.lexists(f):
                os.unlink(f)
    if digest(path) != before:
        failures.append('%s: the input was modified' % name)
    if os.path.isfile(path):
        os.unlink(path)

def write(name, data):
    path = os.path.join(out, name)
    with open(path, 'wb') as f:
        f.write(data)
    return path

def cmds_for(i):
    return ['script', 'report', 'inject'] if i % 4 == 0 else ['script']

nr = 0
for base, pipe in (('file', False), ('pipe', True)):
    d = open(os.path.join(tmp, base + '.data'), 'rb').read()
    recs = records(d, pipe)
    if len(recs) < 20:
        sys.exit('%s.data: only %d records' % (base, len(recs)))
    cuts = sorted(set([o for o, s in recs] + [o + 3 for o, s in recs] +
                      [rnd.randrange(len(d)) for _ in range(30)]))
    starts = set(o for o, s in recs)
    ends = starts | set([len(d) if pipe else struct.unpack_from('<QQ', d, 40)[0] +
                         struct.unpack_from('<QQ', d, 40)[1]])
    for i, c in enumerate(cuts):
        # a stream that ends between records is whole: a pipe has no end mark
        quiet = cmds_for(i) if pipe and c in starts else ()
        run('%s cut at %#x' % (base, c), write('%s-cut-%x.data' % (base, c), d[:c]), cmds_for(i),
            quiet)
    for i, (o, s) in enumerate(recs):
        b = bytearray(d)
        t, = struct.unpack_from('<I', d, o)
        bad = s ^ (1 << rnd.randrange(16))
        struct.pack_into('<H', b, o + 6, bad)
        # a longer size that lands on a later record's start swallows the
        # records between: told for the records whose fields fix their
        # length (the kernel's, FINISHED_ROUND and FINISHED_INIT), not for
        # perf's own with payloads read by their own counts (attrs, features,
        # event updates, thread and cpu maps)
        quiet = cmds_for(i) if (t >= 64 and t not in (68, 82) and o + bad in ends) else ()
        run('%s record at %#x: size bit flipped' % (base, o),
            write('%s-size-%x.data' % (base, o), bytes(b)), cmds_for(i), quiet)
    if pipe:
        continue
    # the header's sections and the feature section's entries
    fields = [(16, 'attr_size'), (24, 'attrs.offset'), (32, 'attrs.size'),
              (40, 'data.offset'), (48, 'data.size')]
    ds, dz = struct.unpack_from('<QQ', d, 40)
    feat_off = ds + dz
    nfeat = sum(bin(x).count('1') for x in struct.unpack_from('<4Q', d, 72))
    for k in range(nfeat):
        fields += [(feat_off + 16 * k, 'feature %d offset' % k),
                   (feat_off + 16 * k + 8, 'feature %d size' % k)]
    for i, (at, what) in enumerate(fields):
        if at + 8 > len(d):
            continue
        for bit in (1, 12, 40, 63):
            b = bytearray(d)
            v, = struct.unpack_from('<Q', b, at)
            struct.pack_into('<Q', b, at, v ^ (1 << bit))
            run('file %s bit %d flipped' % (what, bit),
                write('file-hdr-%x-%d.data' % (at, bit), bytes(b)), cmds_for(i + bit))

# kcore_dir members of perf textpoke record's recording
src = os.path.join(tmp, 'ours.data')
members = [m for m in os.listdir(os.path.join(src, 'kcore_dir'))]
for m in members:
    for how in ('fifo', 'device', 'symlink', 'garbage', 'cut'):
        dst = os.path.join(out, 'kc-%s-%s.data' % (m, how))
        shutil.copytree(src, dst, symlinks=True)
        p = os.path.join(dst, 'kcore_dir', m)
        os.unlink(p)
        if how == 'fifo':
            os.mkfifo(p)
        elif how == 'device':
            os.mknod(p, 0o644 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero
        elif how == 'symlink':
            os.symlink('/etc/passwd', p)
        elif how == 'garbage':
            open(p, 'wb').write(bytes(rnd.randrange(256) for _ in range(4096)))
        else:
            whole = open(os.path.join(src, 'kcore_dir', m), 'rb').read()
            if len(whole) <= 100:
                # nothing to cut (no modules loaded): not damaged
                shutil.rmtree(dst)
                continue
            open(p, 'wb').write(whole[:100])
        # script and report take the modules from the records: they never
        # open kcore_dir/modules (inject copies it, and checks it)
        quiet = ('script', 'report') if m == 'modules' else ()
        run('kcore_dir/%s as a %s' % (m, how), dst, ['script', 'report', 'inject'], quiet,
            lambda dst=dst: shutil.rmtree(dst))

for j in jobs:
    j.result()
print('%d runs over the matrix, %d failures' % (runs, len(failures)))
for f in failures[:20]:
    print('FAIL: ' + f)
sys.exit(1 if failures else 0)
PY
