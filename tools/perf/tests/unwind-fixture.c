// SPDX-License-Identifier: GPL-2.0-only
/*
 * The setup the hostile-stack unwinder tests share (unwind-fixture.h):
 * kept in one place so that the test and the fuzz target cannot drift
 * apart in how they map this binary or guard the dump.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "machine-records.h"
#include "unwind-fixture.h"
#include "../util/debug.h"
#include "../util/machine.h"
#include "../util/unwind.h"

/* the file mapping of this process that holds @addr: start, len, pgoff, path */
static int self_text_map(u64 addr, u64 *start, u64 *len, u64 *pgoff, char *path, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &n) < 4 ||
		    !n)
			continue;
		if (addr < s || addr >= e)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (line[n] != '/' || strlen(line + n) >= size)
			break;
		*start = s;
		*len = e - s;
		*pgoff = off;
		strcpy(path, line + n);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

int unwind_fixture__init(struct unwind_fixture *f, pid_t pid, const char *comm, u64 code)
{
	union record_buf buf;
	struct perf_sample s;
	char path[4096];
	u64 pgoff = 0;
	int err;

	memset(f, 0, sizeof(*f));
	f->env.os_release = (char *)"0.0-not-this-kernel";
	f->page_size = sysconf(_SC_PAGESIZE);
	f->page = mmap(NULL, 2 * f->page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (f->page == MAP_FAILED) {
		f->page = NULL;
		return -errno;
	}
	if (mprotect(f->page + f->page_size, f->page_size, PROT_NONE))
		return -errno;
	err = self_text_map(code, &f->text_start, &f->text_len, &pgoff, path, sizeof(path));
	if (err)
		return err;
	f->machine = machine__new(&f->env, NULL);
	if (!f->machine)
		return -ENOMEM;
	err = machine__process_event(f->machine, record__comm(&buf, pid, pid, comm, true),
				     sample__at(&s, 1));
	if (!err)
		err = machine__process_event(f->machine,
					     record__mmap2(&buf, PERF_RECORD_MISC_USER, pid, pid,
							   f->text_start, f->text_len, pgoff, path,
							   NULL),
					     sample__at(&s, 2));
	if (err) {
		pr_debug("unwind fixture: the comm or mmap2 record was refused: %d\n", err);
		return err < 0 ? err : -EINVAL;
	}
	f->thread = machine__findnew_thread(f->machine, pid, pid);
	if (!f->thread)
		return -ENOMEM;
	f->uw = unwinder__new();
	return f->uw ? 0 : -ENOMEM;
}

void unwind_fixture__exit(struct unwind_fixture *f)
{
	if (f->uw)
		unwinder__delete(f->uw);
	if (f->thread)
		thread__put(f->thread);
	if (f->machine)
		machine__delete(f->machine);
	if (f->page)
		munmap(f->page, 2 * f->page_size);
	memset(f, 0, sizeof(*f));
}
