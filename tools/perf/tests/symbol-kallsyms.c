// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel symbols from a small made-up kallsyms in a kcore_dir: which types
 * are kept, where symbols end, which alias wins, module symbols relative to
 * the module's map, and nothing for addresses outside every map; the same
 * table named by the user and moved to the recorded _stext.  Then the
 * running kernel's /proc/kallsyms when the recording says it is this kernel,
 * or names neither a kernel build-id nor a release and had its _text where
 * this kernel has it; never for a recording that names another release,
 * whatever its _text.  Each name found must also have the length its symbol
 * and dso keep for the printers.
 *
 * Mutation caught: machine__split_kallsyms() cutting a module symbol's
 * "\t[module]" without symbol__set_namelen(): mod_fn1's length is 16;
 * machine__kallsyms_path() taking /proc/kallsyms for another release
 * without a kernel build-id (schedule where [unknown] is expected).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "machine-records.h"
#include "tests.h"
#include "../util/header.h"
#include "../util/symbol.h"
#include "../util/machine.h"

static const char kallsyms_text[] = "ffffffff81000000 T _stext\n"
				    "ffffffff81000000 T _text\n"
				    "ffffffff81000000 t srso_alias_untrain_ret\n"
				    "ffffffff81000100 T func_a\n"
				    "ffffffff81000180 T strong_b\n"
				    "ffffffff81000180 W weak_b\n"
				    "ffffffff81000200 t local_c\n"
				    "ffffffff81000300 d some_data\n"
				    "ffffffff81000400 r rodata_skipped\n"
				    "ffffffff81000400 A abs_skipped\n"
				    "ffffffff81000500 T _etext\n"
				    "ffffffffc0001000 t mod_fn1\t[my_mod]\n"
				    "ffffffffc0001040 T mod_fn2\t[my_mod]\n"
				    "ffffffffc0002000 t bpf_prog_x\t[bpf]\n"
				    "garbage line\n";

/* the names, and the lengths the symbol and dso keep for the printers (module: "\t[mod]" cut) */
#define EXPECT(ip, name, dso_name)                                                               \
	do {                                                                                     \
		resolve_kernel(m, ip, 1, &f);                                                    \
		if (strcmp(f.sym, name) || strcmp(f.dso, dso_name) ||                            \
		    (f.sym_len >= 0 && f.sym_len != (long)strlen(f.sym)) ||                      \
		    (f.dso_len >= 0 && f.dso_len != (long)strlen(f.dso))) {                      \
			pr_debug("%#llx: %s (%s), expected %s (%s)\n", (unsigned long long)(ip), \
				 f.sym, f.dso, name, dso_name);                                  \
			goto out;                                                                \
		}                                                                                \
	} while (0)

static int check_made_up(const char *dir)
{
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	struct machine *m = machine__new(&env, dir);
	union record_buf buf;
	struct perf_sample s;
	struct found f;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("machine__new", m);
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0,
					    0xffffffff81000000ULL, 0x600, 0xffffffff81000000ULL,
					    "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0,
					    0xffffffffc0001000ULL, 0x1000, 0,
					    "/lib/modules/6.1.0/kernel/my-mod.ko"),
			       sample__at(&s, 0));

	/* of aliases, kallsyms' last one is the one with a size: it wins */
	EXPECT(0xffffffff81000010ULL, "srso_alias_untrain_ret", "[kernel.kallsyms]");
	EXPECT(0xffffffff81000100ULL, "func_a", "[kernel.kallsyms]");
	EXPECT(0xffffffff8100017fULL, "func_a", "[kernel.kallsyms]");
	EXPECT(0xffffffff81000190ULL, "weak_b", "[kernel.kallsyms]");
	EXPECT(0xffffffff810002ffULL, "local_c", "[kernel.kallsyms]");
	if (f.start != 0xffffffff81000200ULL || f.end != 0xffffffff81000300ULL ||
	    f.addr != 0xffffffff810002ffULL) {
		pr_debug("local_c is [%#llx, %#llx), addr %#llx\n", (unsigned long long)f.start,
			 (unsigned long long)f.end, (unsigned long long)f.addr);
		goto out;
	}
	/* data symbols are kept; 'r' and 'A' are not, so some_data runs on */
	EXPECT(0xffffffff81000450ULL, "some_data", "[kernel.kallsyms]");
	EXPECT(0xffffffff81000510ULL, "_etext", "[kernel.kallsyms]");
	/*
	 * The kernel map grows over all kernel symbols as perf's does: _etext
	 * is followed by a module symbol, so it ends a page later
	 */
	EXPECT(0xffffffff81000600ULL, "_etext", "[kernel.kallsyms]");
	EXPECT(0xffffffff81001fffULL, "_etext", "[kernel.kallsyms]");
	EXPECT(0xffffffff81002000ULL, "[unknown]", "[unknown]");
	EXPECT(0xffffffff80fff000ULL, "[unknown]", "[unknown]");

	/*
	 * module: "[name]" like perf (by path only when the BUILD_ID table
	 * lists it), symbols relative to the module map
	 */
	EXPECT(0xffffffffc0001050ULL, "mod_fn2", "[my_mod]");
	if (f.addr != 0x50 || f.start != 0x40 || f.end != 0x1000) {
		pr_debug("mod_fn2: addr %#llx [%#llx, %#llx)\n", (unsigned long long)f.addr,
			 (unsigned long long)f.start, (unsigned long long)f.end);
		goto out;
	}
	EXPECT(0xffffffffc0001000ULL, "mod_fn1", "[my_mod]");
	/* "[bpf]" entries have no map: BPF comes from KSYMBOL records */
	EXPECT(0xffffffffc0002010ULL, "[unknown]", "[unknown]");
	ret = TEST_OK;
out:
	machine__delete(m);
	return ret;
}

/* A kernel function of this machine, from /proc/kallsyms */
static int check_running_kernel(struct test_suite *t)
{
	struct utsname uts;
	struct perf_env env = {.os_release = NULL};
	struct machine *m;
	union record_buf buf;
	struct perf_sample s;
	struct found f;
	char line[512], name[256] = "", type;
	unsigned long long addr = 0, text = 0, a;
	FILE *fp = fopen("/proc/kallsyms", "r");
	int ret = TEST_FAIL;

	if (!fp || uname(&uts)) {
		if (fp)
			fclose(fp);
		test_skip(t, "no /proc/kallsyms");
		return TEST_SKIP;
	}
	while (fgets(line, sizeof(line), fp)) {
		char n[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, n) != 3 || strchr(line, '['))
			continue;
		if (!strcmp(n, "_text"))
			text = a;
		if (!name[0] && type == 'T' && !strcmp(n, "schedule")) {
			addr = a;
			snprintf(name, sizeof(name), "%s", n);
		}
	}
	fclose(fp);
	if (!addr || !text) {
		test_skip(t, "no schedule or _text in /proc/kallsyms (kptr_restrict?)");
		return TEST_SKIP;
	}
	env.os_release = uts.release;
	m = machine__new(&env, NULL);
	TEST_ASSERT_VAL("machine__new", m);
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, text, 0x4000000,
					    text, "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	EXPECT(addr + 1, "schedule", "[kernel.kallsyms]");
	machine__delete(m);

	/*
	 * Another release, no kernel build-id: another kernel, although its
	 * _text is this one's (as every unrandomized x86_64 kernel's is)
	 */
	env.os_release = (char *)"0.0-not-this-kernel";
	m = machine__new(&env, NULL);
	TEST_ASSERT_VAL("machine__new", m);
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, text, 0x4000000,
					    text, "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	EXPECT(addr + 1, "[unknown]", "[kernel.kallsyms]");
	machine__delete(m);

	/*
	 * No release, no kernel build-id: this kernel's symbols only where
	 * the recorded _text is this kernel's
	 */
	env.os_release = NULL;
	m = machine__new(&env, NULL);
	TEST_ASSERT_VAL("machine__new", m);
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, text, 0x4000000,
					    text, "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	EXPECT(addr + 1, "schedule", "[kernel.kallsyms]");
	machine__delete(m);
	m = machine__new(&env, NULL);
	TEST_ASSERT_VAL("machine__new", m);
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0, text, 0x4000000,
					    text + 0x200000, "[kernel.kallsyms]_text"),
			       sample__at(&s, 0));
	EXPECT(addr + 1, "[unknown]", "[kernel.kallsyms]");
	ret = TEST_OK;
out:
	machine__delete(m);
	return ret;
}

/*
 * A kallsyms the user names (--kallsyms) is the only source, moved to
 * where the recorded kernel had the symbol its MMAP names (_stext here)
 */
static int check_user_kallsyms(const char *path)
{
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	struct machine *m = machine__new(&env, NULL);
	union record_buf buf;
	struct perf_sample s;
	struct found f;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("machine__new", m);
	if (machine__set_kernel_symbols(m, path, "/nonexistent/vmlinux"))
		goto out;
	machine__process_event(m,
			       record__mmap(&buf, PERF_RECORD_MISC_KERNEL, -1, 0,
					    0xffffffff81200000ULL, 0x600, 0xffffffff81200000ULL,
					    "[kernel.kallsyms]_stext"),
			       sample__at(&s, 0));
	EXPECT(0xffffffff81200100ULL, "func_a", "[kernel.kallsyms]");
	if (f.addr != 0xffffffff81200100ULL || f.start != 0xffffffff81200100ULL) {
		pr_debug("func_a: addr %#llx start %#llx\n", (unsigned long long)f.addr,
			 (unsigned long long)f.start);
		goto out;
	}
	EXPECT(0xffffffff81000100ULL, "[unknown]", "[unknown]");
	ret = TEST_OK;
out:
	machine__delete(m);
	return ret;
}

static int test__symbol_kallsyms(struct test_suite *t)
{
	char dir[] = "/tmp/textpoke-kallsyms-XXXXXX", path[64];
	FILE *fp;
	int ret;

	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	fp = fopen(path, "w");
	TEST_ASSERT_VAL("write kallsyms", fp);
	fputs(kallsyms_text, fp);
	fclose(fp);
	ret = check_made_up(dir);
	if (!ret)
		ret = check_user_kallsyms(path);
	unlink(path);
	rmdir(dir);
	if (ret)
		return ret;
	return check_running_kernel(t);
}

struct test_suite suite__symbol_kallsyms = {
    .desc = "Kernel symbols: kallsyms types, ends, aliases, modules",
    .func = test__symbol_kallsyms,
};
