// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading jitdump files (jitdump.h).  The file is mapped read-only and
 * every field read through rd32()/rd64(), which swap when the header's
 * magic says the writer had the other byte order and which do not care
 * about alignment (a record's size need not be a multiple of 8).  Every
 * size is checked against what is left of its record, and every record
 * against what is left of the file, before anything is read: a cut or
 * hostile file gives a message and stops, never a read past the end or
 * an allocation larger than the file.
 */
#include <byteswap.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "jitdump.h"

#define JITDUMP_HEADER_SIZE 40
#define JITDUMP_PREFIX_SIZE 16
/* fixed parts after the prefix */
#define JITDUMP_LOAD_FIXED 40
#define JITDUMP_MOVE_FIXED 48
#define JITDUMP_DEBUG_FIXED 16
#define JITDUMP_DEBUG_ENTRY 16 /* before the entry's file name */
#define JITDUMP_UNWIND_FIXED 24

struct jitdump_reader {
	const char *path;
	const u8 *base;
	size_t size;
	bool swapped;
	struct jitdump_debug debug;
	size_t debug_alloc;
	struct jitdump_unwind unwind;
	bool warned_unknown;
};

static u32 rd32(const struct jitdump_reader *r, const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return r->swapped ? bswap_32(v) : v;
}

static u64 rd64(const struct jitdump_reader *r, const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return r->swapped ? bswap_64(v) : v;
}

static const char *const record_names[] = {
    [JITDUMP_CODE_LOAD] = "JIT_CODE_LOAD",
    [JITDUMP_CODE_MOVE] = "JIT_CODE_MOVE",
    [JITDUMP_CODE_DEBUG_INFO] = "JIT_CODE_DEBUG_INFO",
    [JITDUMP_CODE_CLOSE] = "JIT_CODE_CLOSE",
    [JITDUMP_CODE_UNWINDING_INFO] = "JIT_CODE_UNWINDING_INFO",
};

static const char *record_name(u32 id)
{
	return id < sizeof(record_names) / sizeof(record_names[0]) ? record_names[id] : "unknown";
}

bool jitdump__is_marker(const char *filename, u32 pid)
{
	const char *p = strrchr(filename, '/');
	unsigned long n = 0;
	bool big = false;

	if (!p || strncmp(p, "/jit-", 5))
		return false;
	p += 5;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		n = n * 10 + (*p - '0');
		if (n > UINT32_MAX)
			big = true;
	}
	if (pid && (big || n != pid))
		return false;
	return !strcmp(p, ".dump");
}

/*
 * A DEBUG_INFO at @rec (@size bytes): its lines, checked one by one, into
 * the pending table.  False (with a warning) when it does not hold them.
 */
static bool jitdump__debug_info(struct jitdump_reader *r, const u8 *rec, u32 size, u64 off)
{
	const u8 *p = rec + JITDUMP_PREFIX_SIZE, *end = rec + size;
	u64 nr, i;

	if (size < JITDUMP_PREFIX_SIZE + JITDUMP_DEBUG_FIXED) {
		pr_warning("%s: JIT_CODE_DEBUG_INFO at offset %#" PRIx64 ": %u bytes do not hold "
			   "its fields: left out\n",
			   r->path, off, size);
		return false;
	}
	nr = rd64(r, p + 8);
	/* each line takes at least its fixed part and a NUL */
	if (nr > (u64)(end - p - JITDUMP_DEBUG_FIXED) / (JITDUMP_DEBUG_ENTRY + 1)) {
		pr_warning("%s: JIT_CODE_DEBUG_INFO at offset %#" PRIx64 ": %" PRIu64
			   " lines do not fit in its %u bytes: left out\n",
			   r->path, off, nr, size);
		return false;
	}
	if (nr > r->debug_alloc) {
		struct jitdump_line *l = realloc(r->debug.lines, nr * sizeof(*l));

		if (!l)
			return false;
		r->debug.lines = l;
		r->debug_alloc = nr;
	}
	r->debug.code_addr = rd64(r, p);
	p += JITDUMP_DEBUG_FIXED;
	for (i = 0; i < nr; i++) {
		struct jitdump_line *l = &r->debug.lines[i];
		const u8 *nul;

		if (end - p < JITDUMP_DEBUG_ENTRY + 1 ||
		    !(nul = memchr(p + JITDUMP_DEBUG_ENTRY, 0, end - p - JITDUMP_DEBUG_ENTRY))) {
			pr_warning("%s: JIT_CODE_DEBUG_INFO at offset %#" PRIx64 ": line %" PRIu64
				   " at offset %#" PRIx64 " runs past the record: left out\n",
				   r->path, off, i, off + (u64)(p - rec));
			r->debug.nr = 0;
			return false;
		}
		l->addr = rd64(r, p);
		l->line = (s32)rd32(r, p + 8);
		l->discrim = (s32)rd32(r, p + 12);
		l->file = (const char *)p + JITDUMP_DEBUG_ENTRY;
		p = nul + 1;
	}
	r->debug.nr = nr;
	return true;
}

static bool jitdump__unwinding_info(struct jitdump_reader *r, const u8 *rec, u32 size, u64 off)
{
	const u8 *p = rec + JITDUMP_PREFIX_SIZE;
	u64 usize, hsize, avail;

	if (size < JITDUMP_PREFIX_SIZE + JITDUMP_UNWIND_FIXED) {
		pr_warning("%s: JIT_CODE_UNWINDING_INFO at offset %#" PRIx64 ": %u bytes do not "
			   "hold its fields: left out\n",
			   r->path, off, size);
		return false;
	}
	usize = rd64(r, p);
	hsize = rd64(r, p + 8);
	avail = size - JITDUMP_PREFIX_SIZE - JITDUMP_UNWIND_FIXED;
	if (usize > avail || hsize > usize) {
		pr_warning("%s: JIT_CODE_UNWINDING_INFO at offset %#" PRIx64 ": %" PRIu64
			   " bytes of unwinding data (%" PRIu64 " of .eh_frame_hdr) in a record "
			   "holding %" PRIu64 ": left out\n",
			   r->path, off, usize, hsize, avail);
		return false;
	}
	r->unwind.data = p + JITDUMP_UNWIND_FIXED;
	r->unwind.size = usize;
	r->unwind.hdr_size = hsize;
	r->unwind.mapped_size = rd64(r, p + 16);
	return true;
}

static int jitdump__load(struct jitdump_reader *r, const struct jitdump_ops *ops, void *arg,
			 const u8 *rec, u32 size, u64 off)
{
	const u8 *p = rec + JITDUMP_PREFIX_SIZE, *name;
	struct jitdump_load l = {.offset = off};
	u64 room;
	int ret = 0;

	if (size < JITDUMP_PREFIX_SIZE + JITDUMP_LOAD_FIXED + 1) {
		pr_warning("%s: JIT_CODE_LOAD at offset %#" PRIx64 ": %u bytes do not hold its "
			   "fields: left out\n",
			   r->path, off, size);
		goto out;
	}
	l.time = rd64(r, rec + 8);
	l.pid = rd32(r, p);
	l.tid = rd32(r, p + 4);
	l.vma = rd64(r, p + 8);
	l.code_addr = rd64(r, p + 16);
	l.code_size = rd64(r, p + 24);
	l.code_index = rd64(r, p + 32);
	name = p + JITDUMP_LOAD_FIXED;
	room = size - JITDUMP_PREFIX_SIZE - JITDUMP_LOAD_FIXED;
	/* the code is the record's last code_size bytes, the name before it */
	if (l.code_size >= room || !memchr(name, 0, room - l.code_size)) {
		pr_warning("%s: JIT_CODE_LOAD at offset %#" PRIx64 " (code index %" PRIu64
			   "): %" PRIu64 " bytes of code and a name do not fit in its %u bytes: "
			   "left out\n",
			   r->path, off, l.code_index, l.code_size, size);
		goto out;
	}
	l.name = (const char *)name;
	l.code = rec + size - l.code_size;
	ret = ops->load(arg, &l, &r->debug, r->unwind.data ? &r->unwind : NULL);
out:
	/* the load takes them, as perf's does, even one left out */
	r->debug.nr = 0;
	memset(&r->unwind, 0, sizeof(r->unwind));
	return ret;
}

static int jitdump__move(struct jitdump_reader *r, const struct jitdump_ops *ops, void *arg,
			 const u8 *rec, u32 size, u64 off)
{
	const u8 *p = rec + JITDUMP_PREFIX_SIZE;
	struct jitdump_move m = {.offset = off};

	if (size < JITDUMP_PREFIX_SIZE + JITDUMP_MOVE_FIXED) {
		pr_warning("%s: JIT_CODE_MOVE at offset %#" PRIx64 ": %u bytes do not hold its "
			   "fields: left out\n",
			   r->path, off, size);
		return 0;
	}
	m.time = rd64(r, rec + 8);
	m.pid = rd32(r, p);
	m.tid = rd32(r, p + 4);
	m.vma = rd64(r, p + 8);
	m.old_code_addr = rd64(r, p + 16);
	m.new_code_addr = rd64(r, p + 24);
	m.code_size = rd64(r, p + 32);
	m.code_index = rd64(r, p + 40);
	return ops->move(arg, &m, r->unwind.data ? r->unwind.mapped_size : 0);
}

static int jitdump__records(struct jitdump_reader *r, const struct jitdump_ops *ops, void *arg,
			    u64 off)
{
	int ret = 0;

	while (!ret && off < r->size) {
		const u8 *rec = r->base + off;
		u64 left = r->size - off;
		u32 id, size;

		if (left < JITDUMP_PREFIX_SIZE) {
			pr_warning("%s: cut at offset %#" PRIx64 ": %" PRIu64 " bytes, not a whole "
				   "record prefix; the records before it are used\n",
				   r->path, off, left);
			break;
		}
		id = rd32(r, rec);
		size = rd32(r, rec + 4);
		if (size < JITDUMP_PREFIX_SIZE) {
			pr_warning("%s: %s record at offset %#" PRIx64 ": size %u, less than its "
				   "prefix; the records before it are used\n",
				   r->path, record_name(id), off, size);
			break;
		}
		if (size > left) {
			pr_warning("%s: %s record at offset %#" PRIx64
				   ": %u bytes, past the end of "
				   "the file (%" PRIu64 " left): cut; the records before it are "
				   "used\n",
				   r->path, record_name(id), off, size, left);
			break;
		}
		switch (id) {
		case JITDUMP_CODE_LOAD:
			ret = jitdump__load(r, ops, arg, rec, size, off);
			break;
		case JITDUMP_CODE_MOVE:
			ret = jitdump__move(r, ops, arg, rec, size, off);
			break;
		case JITDUMP_CODE_DEBUG_INFO:
			jitdump__debug_info(r, rec, size, off);
			break;
		case JITDUMP_CODE_UNWINDING_INFO:
			jitdump__unwinding_info(r, rec, size, off);
			break;
		case JITDUMP_CODE_CLOSE:
			/* the writer is done; perf reads on, and so do we */
			break;
		default:
			if (!r->warned_unknown)
				pr_warning("%s: record of unknown type %u at offset %#" PRIx64
					   ": skipped (and any others)\n",
					   r->path, id, off);
			r->warned_unknown = true;
			break;
		}
		off += size;
	}
	return ret;
}

int jitdump__walk(const char *path, const struct jitdump_ops *ops, void *arg,
		  int (*check_header)(void *arg, const struct jitdump_header *hdr),
		  struct jitdump_header *hdrp)
{
	struct jitdump_reader r = {.path = path};
	struct jitdump_header hdr = {0};
	struct stat st;
	void *map = NULL;
	u32 magic, total;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		pr_warning("%s: %s\n", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < JITDUMP_HEADER_SIZE) {
		pr_warning("%s: %s\n", path,
			   S_ISREG(st.st_mode) ? "shorter than a jitdump header (40 bytes)" :
						 "not a regular file");
		ret = -EINVAL;
		goto out;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		map = NULL;
		ret = -errno;
		pr_warning("%s: %s\n", path, strerror(errno));
		goto out;
	}
	r.base = map;
	r.size = st.st_size;
	memcpy(&magic, r.base, sizeof(magic));
	if (magic != JITDUMP_MAGIC && magic != JITDUMP_MAGIC_SWAPPED) {
		pr_warning(
		    "%s: offset 0: magic %#x is not a jitdump's (%#x in either byte order)\n", path,
		    magic, JITDUMP_MAGIC);
		ret = -EINVAL;
		goto out;
	}
	r.swapped = magic == JITDUMP_MAGIC_SWAPPED;
	hdr.swapped = r.swapped;
	hdr.version = rd32(&r, r.base + 4);
	total = rd32(&r, r.base + 8);
	hdr.elf_mach = rd32(&r, r.base + 12);
	hdr.pid = rd32(&r, r.base + 20);
	hdr.timestamp = rd64(&r, r.base + 24);
	hdr.flags = rd64(&r, r.base + 32);
	if (hdrp)
		*hdrp = hdr;
	if (hdr.version > JITDUMP_VERSION) {
		pr_warning("%s: offset 4: version %u, newer than the %u perf 6.1 reads\n", path,
			   hdr.version, JITDUMP_VERSION);
		ret = -EINVAL;
		goto out;
	}
	if (total < JITDUMP_HEADER_SIZE || total > r.size) {
		pr_warning("%s: offset 8: header size %u, not between 40 and the file's %zu "
			   "bytes\n",
			   path, total, r.size);
		ret = -EINVAL;
		goto out;
	}
	if (hdr.flags & ~JITDUMP_FLAGS_ARCH_TIMESTAMP) {
		pr_warning("%s: offset 32: flags %#" PRIx64 " that perf 6.1 does not know\n", path,
			   hdr.flags & ~JITDUMP_FLAGS_ARCH_TIMESTAMP);
		ret = -EINVAL;
		goto out;
	}
	ret = check_header ? check_header(arg, &hdr) : 0;
	if (!ret)
		ret = jitdump__records(&r, ops, arg, total);
out:
	if (map)
		munmap(map, st.st_size);
	if (fd >= 0)
		close(fd);
	free(r.debug.lines);
	return ret;
}
