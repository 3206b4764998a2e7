// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF symbols of a user-space object: this test binary, mapped as the
 * kernel maps it (read from /proc/self/maps), must resolve the address of
 * one of its functions to that function, at the offset perf would print.
 * A recorded build-id that differs from the file's must get no symbols,
 * whether it comes from an MMAP2 record or the BUILD_ID feature.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine-records.h"
#include "tests.h"
#include "../util/build-id.h"
#include "../util/header.h"
#include "../util/machine.h"
#include "../util/symbol.h"

struct mapping {
	u64 start, end, pgoff;
	char path[4096];
};

/* the executable mapping of this process that holds @addr */
static int find_mapping(u64 addr, struct mapping *mp)
{
	char line[4600];
	FILE *fp = fopen("/proc/self/maps", "r");
	int ret = -1;

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &pos) < 4 ||
		    !pos)
			continue;
		if (addr < s || addr >= e)
			continue;
		mp->start = s;
		mp->end = e;
		mp->pgoff = off;
		snprintf(mp->path, sizeof(mp->path), "%s", line + pos);
		mp->path[strcspn(mp->path, "\n")] = '\0';
		ret = 0;
		break;
	}
	fclose(fp);
	return ret;
}

static int resolve(struct perf_env *env, const struct mapping *mp, const u8 *bid, u64 ip, char *sym,
		   size_t size, u64 *addr, u64 *sym_start)
{
	struct machine *m = machine__new(env, NULL);
	union record_buf buf;
	struct perf_sample s;
	struct addr_location al;
	s32 pid = getpid();
	int found;

	if (!m)
		return -1;
	machine__process_event(m,
			       record__mmap2(&buf, PERF_RECORD_MISC_USER, pid, pid, mp->start,
					     mp->end - mp->start, mp->pgoff, mp->path, bid),
			       sample__at(&s, 1));
	addr_location__init(&al);
	sample__at(&s, 2);
	s.ip = ip;
	s.pid = s.tid = pid;
	s.cpumode = PERF_RECORD_MISC_USER;
	machine__resolve(m, &al, &s);
	found = al.sym != NULL;
	snprintf(sym, size, "%s", al.sym ? symbol__name(al.sym) : "[unknown]");
	*addr = al.addr;
	*sym_start = al.sym ? al.sym->start : 0;
	if (al.map && map__unmap_ip(al.map, al.addr) != ip)
		found = -1;
	addr_location__exit(&al);
	machine__delete(m);
	return found;
}

/* the function whose address is looked up */
static int __attribute__((noinline)) test__symbol_elf(struct test_suite *t)
{
	struct perf_env env = {.os_release = (char *)"0.0-not-this-kernel"};
	u64 fn = (u64)(uintptr_t)test__symbol_elf, addr, start;
	struct build_id bid = {.size = 0};
	struct build_id_entry entry;
	struct mapping mp;
	u8 wrong[20];
	char sym[256];

	TEST_ASSERT_VAL("mapping of this function", !find_mapping(fn, &mp));
	pr_debug("%s: %#" PRIx64 "-%#" PRIx64 " @ %#" PRIx64 ", function at %#" PRIx64 "\n",
		 mp.path, mp.start, mp.end, mp.pgoff, fn);

	/* no build-id known: the file is taken as it is */
	TEST_ASSERT_EQUAL("resolves",
			  resolve(&env, &mp, NULL, fn + 1, sym, sizeof(sym), &addr, &start), 1);
	TEST_ASSERT_VAL("function name", !strcmp(sym, "test__symbol_elf"));
	TEST_ASSERT_EQUAL("object address is a file offset", addr, fn + 1 - mp.start + mp.pgoff);
	TEST_ASSERT_EQUAL("symbol offset", addr - start, 1);

	if (filename__read_build_id(mp.path, &bid)) {
		test_skip(t, "%s has no build-id note", mp.path);
		return TEST_SKIP;
	}
	/* the right build-id in MMAP2 */
	TEST_ASSERT_EQUAL("matching build-id",
			  resolve(&env, &mp, bid.data, fn, sym, sizeof(sym), &addr, &start), 1);
	/* a wrong one: refused */
	memcpy(wrong, bid.data, sizeof(wrong));
	wrong[0] ^= 0xff;
	TEST_ASSERT_EQUAL("mismatching build-id refused",
			  resolve(&env, &mp, wrong, fn, sym, sizeof(sym), &addr, &start), 0);
	/* a wrong one in the BUILD_ID feature, MMAP2 in the inode form */
	memset(&entry, 0, sizeof(entry));
	memcpy(entry.build_id, wrong, sizeof(wrong));
	entry.size = 20;
	entry.misc = PERF_RECORD_MISC_USER;
	entry.filename = mp.path;
	env.build_ids = &entry;
	env.nr_build_ids = 1;
	TEST_ASSERT_EQUAL("feature build-id refused",
			  resolve(&env, &mp, NULL, fn, sym, sizeof(sym), &addr, &start), 0);
	memcpy(entry.build_id, bid.data, sizeof(wrong));
	TEST_ASSERT_EQUAL("feature build-id accepted",
			  resolve(&env, &mp, NULL, fn, sym, sizeof(sym), &addr, &start), 1);
	TEST_ASSERT_VAL("function name", !strcmp(sym, "test__symbol_elf"));
	return TEST_OK;
}

struct test_suite suite__symbol_elf = {
    .desc = "ELF symbols: a function of this binary, build-id checks",
    .func = test__symbol_elf,
};
