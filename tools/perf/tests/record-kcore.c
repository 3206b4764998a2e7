// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kcore copy on a core we build: this machine has no /proc/kcore, so
 * the test makes an ELF core shaped like one (kernel text, the module
 * area, the direct map) with kallsyms and modules files, and checks that
 * exactly the page-rounded _stext.._etext and the module range come out,
 * byte for byte, each as a PT_LOAD at its address; then the refusals.
 * With a vmallocinfo, only the module area's mapped pages ("pages=N" of
 * each area, not its guard page nor free module space) are copied.
 *
 * Mutation caught: vmallocinfo__mapped() taking an area's whole range
 * instead of its "pages=" (the guard page between two areas is copied:
 * two pieces, not three).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"
#include "fixture.h"
#include "../util/kcore-copy.h"
#include "../util/perf-clock.h"

#define TEXT 0xffffffff81000000ULL
#define MODS 0xffffffffc0000000ULL
#define DMAP 0xffff888000000000ULL

static u8 pattern(u64 addr)
{
	return (u8)(addr ^ (addr >> 8) ^ (addr >> 16));
}

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(s, f);
	return fclose(f);
}

static int make_core(const char *path)
{
	struct {
		u64 vaddr, size;
	} segs[] = {{TEXT, 0x10000}, {MODS, 0x4000}, {DMAP, 0x1000}};
	Elf64_Ehdr eh = {0};
	u64 off = 0x1000;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 3;
	if (pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		goto fail;
	for (int i = 0; i < 3; i++) {
		Elf64_Phdr ph = {.p_type = PT_LOAD,
				 .p_flags = PF_R | PF_W | PF_X,
				 .p_offset = off,
				 .p_vaddr = segs[i].vaddr,
				 .p_filesz = segs[i].size,
				 .p_memsz = segs[i].size,
				 .p_align = 0x1000};
		u8 *buf = malloc(segs[i].size);

		if (!buf)
			goto fail;
		for (u64 a = 0; a < segs[i].size; a++)
			buf[a] = pattern(segs[i].vaddr + a);
		if (pwrite(fd, &ph, sizeof(ph), sizeof(eh) + i * sizeof(ph)) != sizeof(ph) ||
		    pwrite(fd, buf, segs[i].size, off) != (ssize_t)segs[i].size) {
			free(buf);
			goto fail;
		}
		free(buf);
		off += segs[i].size;
	}
	return close(fd);
fail:
	close(fd);
	return -1;
}

/* the output's segment @i: vaddr and size, and every byte as at its address */
static int check_piece(int fd, const Elf64_Ehdr *eh, int i, u64 vaddr, u64 size)
{
	Elf64_Phdr ph;
	u8 *buf;

	TEST_ASSERT_VAL("phdr",
			pread(fd, &ph, sizeof(ph), eh->e_phoff + i * sizeof(ph)) == sizeof(ph));
	TEST_ASSERT_EQUAL("PT_LOAD", ph.p_type, PT_LOAD);
	TEST_ASSERT_EQUAL("vaddr", ph.p_vaddr, vaddr);
	TEST_ASSERT_EQUAL("size", ph.p_filesz, size);
	TEST_ASSERT_EQUAL("page aligned", ph.p_offset % 4096, 0);
	buf = malloc(size);
	TEST_ASSERT_VAL("alloc", buf);
	if (pread(fd, buf, size, ph.p_offset) != (ssize_t)size) {
		free(buf);
		TEST_ASSERT_VAL("segment data", false);
	}
	for (u64 a = 0; a < size; a++) {
		if (buf[a] != pattern(vaddr + a)) {
			pr_debug("byte at 0x%llx differs\n", (unsigned long long)(vaddr + a));
			free(buf);
			return TEST_FAIL;
		}
	}
	free(buf);
	return TEST_OK;
}

static int test__record_kcore(struct test_suite *t __maybe_unused)
{
	char dir[] = "/tmp/textpoke-kcore.XXXXXX";
	char core[64], ksyms[64], mods[64], out[64], bad[64];
	Elf64_Ehdr eh;
	int fd, ret = TEST_FAIL;

	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	snprintf(core, sizeof(core), "%s/kcore.in", dir);
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", dir);
	snprintf(mods, sizeof(mods), "%s/modules", dir);
	snprintf(out, sizeof(out), "%s/kcore", dir);
	snprintf(bad, sizeof(bad), "%s/bad", dir);
	if (make_core(core) ||
	    write_file(ksyms, "ffffffff81000000 T _text\n"
			      "ffffffff81000000 T _stext\n"
			      "ffffffff81004000 t helper\n"
			      "ffffffffc0001010 t _etext\t[mod_a]\n"
			      "ffffffff81008123 T _etext\n") ||
	    write_file(mods, "mod_a 8192 0 - Live 0xffffffffc0001000\n"
			     "mod_b 4096 1 mod_a, Live 0xffffffffc0002800 (O)\n") ||
	    write_file(bad, "not an ELF core at all, just text\n"))
		goto out;

	if (kcore__copy_text(core, ksyms, mods, NULL, out, NULL, NULL)) {
		pr_debug("copy failed\n");
		goto out;
	}
	fd = open(out, O_RDONLY);
	if (fd < 0)
		goto out;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_type != ET_CORE || eh.e_machine != EM_X86_64 || eh.e_phnum != 2) {
		pr_debug("bad output header (phnum %u)\n", eh.e_phnum);
		close(fd);
		goto out;
	}
	/* _etext 0x...8123 rounds up to 0x9000; modules 0x...1000 to the end of mod_b, 0x4000 */
	if (check_piece(fd, &eh, 0, TEXT, 0x9000) ||
	    check_piece(fd, &eh, 1, MODS + 0x1000, 0x3000)) {
		close(fd);
		goto out;
	}
	close(fd);

	/* the mapped pages only: mod_a's page, then the next area's; no guard page between */
	unlink(out);
	snprintf(bad, sizeof(bad), "%s/vmallocinfo", dir);
	if (write_file(bad, "0xffffffffc0001000-0xffffffffc0003000    8192 load_module+0x7e/0x1d0 "
			    "pages=1 vmalloc N0=1\n"
			    "0xffffffffc0003000-0xffffffffc0005000    8192 bpf_jit_alloc_exec+0x9 "
			    "pages=1 vmalloc N0=1\n"
			    "0xffffc90000000000-0xffffc90000002000    8192 pci_iomap+0x4 "
			    "phys=0x00000000fe000000 ioremap\n") ||
	    kcore__copy_text(core, ksyms, mods, bad, out, NULL, NULL)) {
		pr_debug("copy with vmallocinfo failed\n");
		goto out;
	}
	fd = open(out, O_RDONLY);
	if (fd < 0)
		goto out;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || eh.e_phnum != 3 ||
	    check_piece(fd, &eh, 0, TEXT, 0x9000) ||
	    check_piece(fd, &eh, 1, MODS + 0x1000, 0x1000) ||
	    check_piece(fd, &eh, 2, MODS + 0x3000, 0x1000)) {
		pr_debug("with vmallocinfo: %u pieces, expected text and two mapped pages\n",
			 eh.e_phnum);
		close(fd);
		goto out;
	}
	close(fd);
	unlink(bad);
	snprintf(bad, sizeof(bad), "%s/bad", dir);

	quiet = true;
	if (kcore__copy_text(bad, ksyms, mods, NULL, out, NULL, NULL) != -EINVAL ||
	    kcore__copy_text(core, mods, mods, NULL, out, NULL, NULL) != -ENOENT) {
		pr_debug("a bad core or kallsyms was not refused\n");
		goto out_quiet;
	}
	/* text the core does not hold */
	unlink(out);
	if (write_file(ksyms, "ffffffff90000000 T _stext\nffffffff90001000 T _etext\n") ||
	    kcore__copy_text(core, ksyms, NULL, NULL, out, NULL, NULL) != -ENODATA ||
	    !access(out, F_OK)) {
		pr_debug("text outside the core was not refused, or left a file\n");
		goto out_quiet;
	}
	ret = TEST_OK;
out_quiet:
	quiet = false;
out:
	unlink(core);
	unlink(ksyms);
	unlink(mods);
	unlink(out);
	unlink(bad);
	rmdir(dir);
	return ret;
}

struct test_suite suite__record_kcore = {
    .desc = "record: kcore copy of kernel text and modules from an ELF core",
    .func = test__record_kcore,
};

/* kcore_dir__write_from() in a child under a file-size limit; its -errno */
static int write_kcore_dir_limited(const char *dir, const char *proc, rlim_t limit)
{
	struct rlimit rl = {limit, limit};
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		/* the recorder ignores it too: write() then says EFBIG */
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(255);
		_exit(-kcore_dir__write_from(dir, proc, true, NULL) & 0xff);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

/*
 * kcore_dir under failure: a kallsyms that cannot be opened is an error,
 * not an empty copy; no modules file is an empty one; a write that hits
 * the file-size limit says EFBIG (not EIO), in the kallsyms copy and in
 * the kcore copy, which fails the whole kcore_dir instead of a warning.
 */
static int test__record_kcore_errors(struct test_suite *t __maybe_unused)
{
	char dir[] = "/tmp/textpoke-kcore-err.XXXXXX";
	char proc[64], big[64], out[64], path[128];
	int ret = TEST_FAIL, err;
	struct stat st;
	FILE *f;

	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	snprintf(big, sizeof(big), "%s/big", dir);
	if (mkdir(proc, 0755) || mkdir(big, 0755))
		goto out;

	/* an empty "proc": no kallsyms */
	snprintf(out, sizeof(out), "%s/o1", dir);
	if (mkdir(out, 0755))
		goto out;
	quiet = true;
	err = kcore_dir__write_from(out, proc, true, NULL);
	quiet = false;
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", out);
	if (err != -ENOENT || !access(path, F_OK)) {
		pr_debug("no kallsyms: %d (%s), expected -ENOENT and no copy\n", err,
			 strerror(-err));
		goto out;
	}

	/* kallsyms only: no modules is an empty file, no kcore a notice */
	snprintf(path, sizeof(path), "%s/kallsyms", proc);
	if (write_file(path, "ffffffff81000000 T _text\n"
			     "ffffffff81000000 T _stext\n"
			     "ffffffff81008123 T _etext\n"))
		goto out;
	snprintf(out, sizeof(out), "%s/o2", dir);
	if (mkdir(out, 0755))
		goto out;
	err = kcore_dir__write_from(out, proc, true, NULL);
	snprintf(path, sizeof(path), "%s/kcore_dir/modules", out);
	if (err || stat(path, &st) || st.st_size) {
		pr_debug("no modules: %d (%s), expected 0 and an empty copy\n", err,
			 strerror(-err));
		goto out;
	}

	/* the 48 KiB kcore copy past a 16 KiB limit */
	snprintf(path, sizeof(path), "%s/modules", proc);
	if (write_file(path, "mod_a 8192 0 - Live 0xffffffffc0001000\n"))
		goto out;
	snprintf(path, sizeof(path), "%s/kcore", proc);
	if (make_core(path))
		goto out;
	snprintf(out, sizeof(out), "%s/o3", dir);
	if (mkdir(out, 0755))
		goto out;
	err = write_kcore_dir_limited(out, proc, 16384);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", out);
	if (err != -EFBIG || !access(path, F_OK)) {
		pr_debug("kcore past the limit: %d (%s), expected -EFBIG and no kcore\n", err,
			 strerror(-err));
		goto out;
	}
	/* and without a limit the same copy works */
	snprintf(out, sizeof(out), "%s/o4", dir);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", out);
	if (mkdir(out, 0755) || kcore_dir__write_from(out, proc, true, NULL) || stat(path, &st) ||
	    st.st_size < 0x9000) {
		pr_debug("the unlimited copy failed\n");
		goto out;
	}

	/* a kallsyms larger than the limit */
	snprintf(path, sizeof(path), "%s/kallsyms", big);
	f = fopen(path, "w");
	if (!f)
		goto out;
	for (int i = 0; i < 2000; i++)
		fprintf(f, "ffffffff81%06x t filler_%d\n", i * 16, i);
	if (fclose(f))
		goto out;
	snprintf(out, sizeof(out), "%s/o5", dir);
	if (mkdir(out, 0755))
		goto out;
	err = write_kcore_dir_limited(out, big, 16384);
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", out);
	if (err != -EFBIG || !access(path, F_OK)) {
		pr_debug("kallsyms past the limit: %d (%s), expected -EFBIG and no copy\n", err,
			 strerror(-err));
		goto out;
	}
	ret = TEST_OK;
out:
	fixture__rm_rf(dir);
	return ret;
}

/* a clock that counts its readings: 1, 2, 3... */
static int counting_clock(void *arg, u64 *time)
{
	*time = ++*(u64 *)arg;
	return 0;
}

static int failing_clock(void *arg __maybe_unused, u64 *time __maybe_unused)
{
	return -EIO;
}

/*
 * kcore_times: each range read with a reading of the clock before and
 * after it, in address order; a clock that fails writes none.  The
 * expected file follows from the test core's pieces (text 0x9000 bytes,
 * the modules 0x3000, one read each) and the counting clock.  Then the
 * events' own clock (perf-clock.c) with -k CLOCK_MONOTONIC: its time lies
 * between clock_gettime() before and after.
 *
 * Mutations caught: copy_bytes() writing its first time as the last
 * (1 1, 3 3); perf_clock__new() without use_clockid (the kernel's local
 * clock: 1.3 ms off CLOCK_MONOTONIC here).
 */
static int test__record_kcore_times(struct test_suite *t __maybe_unused)
{
	char dir[] = "/tmp/textpoke-kcore-times.XXXXXX";
	char proc[64], out[64], path[128], *text = NULL;
	static const char want[] = "ffffffff81000000 9000 1 2\n"
				   "ffffffffc0001000 3000 3 4\n";
	struct kcore_clock fail = {failing_clock, NULL};
	struct kcore_clock count;
	struct perf_clock *clock;
	struct timespec a, b;
	u64 n = 0, now;
	int ret = TEST_FAIL;
	size_t len = 0;
	FILE *f;

	count = (struct kcore_clock){counting_clock, &n};
	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	if (mkdir(proc, 0755))
		goto out;
	snprintf(path, sizeof(path), "%s/kallsyms", proc);
	if (write_file(path, "ffffffff81000000 T _stext\nffffffff81008123 T _etext\n"))
		goto out;
	snprintf(path, sizeof(path), "%s/modules", proc);
	if (write_file(path, "mod_a 8192 0 - Live 0xffffffffc0001000\n"
			     "mod_b 4096 1 mod_a, Live 0xffffffffc0002800 (O)\n"))
		goto out;
	snprintf(path, sizeof(path), "%s/kcore", proc);
	if (make_core(path))
		goto out;
	snprintf(out, sizeof(out), "%s/o1", dir);
	if (mkdir(out, 0755) || kcore_dir__write_from(out, proc, true, &count))
		goto out;
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore_times", out);
	f = fopen(path, "r");
	if (!f)
		goto out;
	/* the comment line first, then the reads */
	if (getline(&text, &len, f) < 0 || text[0] != '#' || getdelim(&text, &len, '\0', f) < 0 ||
	    strcmp(text, want)) {
		pr_debug("kcore_times:\n%s\nexpected:\n%s", text ?: "", want);
		fclose(f);
		goto out;
	}
	fclose(f);
	snprintf(out, sizeof(out), "%s/o2", dir);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore_times", out);
	if (mkdir(out, 0755) || kcore_dir__write_from(out, proc, true, &fail) ||
	    !access(path, F_OK)) {
		pr_debug("a failing clock: kcore_times written, or the copy failed\n");
		goto out;
	}

	clock = perf_clock__new(true, CLOCK_MONOTONIC);
	if (!clock) {
		pr_debug("perf_clock__new: %s\n", strerror(errno));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (perf_clock__now(clock, &now)) {
		perf_clock__delete(clock);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	perf_clock__delete(clock);
	if (now < (u64)a.tv_sec * 1000000000 + a.tv_nsec ||
	    now > (u64)b.tv_sec * 1000000000 + b.tv_nsec) {
		pr_debug("the events' clock said %llu, not between %lld.%09ld and %lld.%09ld\n",
			 (unsigned long long)now, (long long)a.tv_sec, a.tv_nsec,
			 (long long)b.tv_sec, b.tv_nsec);
		goto out;
	}
	ret = TEST_OK;
out:
	free(text);
	fixture__rm_rf(dir);
	return ret;
}

struct test_suite suite__record_kcore_times = {
    .desc = "record: kcore_times says when each range of the kcore copy was read",
    .func = test__record_kcore_times,
};

struct test_suite suite__record_kcore_errors = {
    .desc = "record: kcore_dir copy: a missing kallsyms, EFBIG kept, kcore write failures",
    .func = test__record_kcore_errors,
};
