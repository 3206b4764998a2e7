// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small JIT for inject-jitdump.sh: it copies a hot x86-64 loop into
 * executable memory and says so in DIR/jit-PID.dump, writing the record
 * types V8 does not: besides two JIT_CODE_LOADs, a JIT_CODE_DEBUG_INFO
 * (source lines of the first load), a JIT_CODE_UNWINDING_INFO (its
 * .eh_frame and .eh_frame_hdr), a JIT_CODE_MOVE (the first load's code
 * copied to another page and run there) and a JIT_CODE_CLOSE.  Times are
 * CLOCK_MONOTONIC, for perf record -k mono.
 *
 *   jitdump-workload DIR SECONDS   run each of the three phases SECONDS
 *   jitdump-workload --swap FILE   rewrite FILE in the other byte order
 *
 * The jitdump's own mapping (PROT_EXEC, as the agents map it) is the
 * marker perf record sees; the code pages are anonymous.
 */
#include <byteswap.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define JIT_MAGIC 0x4A695444U

enum { CODE_LOAD, CODE_MOVE, CODE_DEBUG_INFO, CODE_CLOSE, CODE_UNWINDING_INFO };

struct prefix {
	uint32_t id, total_size;
	uint64_t timestamp;
};

/* loop: ecx = n; eax = 0; do { eax += ecx; eax *= 3; } while (--ecx); ret */
static const uint8_t loop_code[] = {
    0x89, 0xf9,	      /* 0: mov %edi,%ecx */
    0x31, 0xc0,	      /* 2: xor %eax,%eax */
    0x01, 0xc8,	      /* 4: add %ecx,%eax */
    0x6b, 0xc0, 0x03, /* 6: imul $3,%eax,%eax */
    0xff, 0xc9,	      /* 9: dec %ecx */
    0x75, 0xf7,	      /* 11: jne 4 */
    0xc3,	      /* 13: ret */
};

static int out_fd;

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void put(const void *p, size_t n)
{
	if (write(out_fd, p, n) != (ssize_t)n) {
		perror("jitdump write");
		exit(1);
	}
}

static void put_prefix(uint32_t id, size_t size)
{
	struct prefix p = {id, (uint32_t)size, now()};

	put(&p, sizeof(p));
}

static void put_u32(uint32_t v)
{
	put(&v, 4);
}

static void put_u64(uint64_t v)
{
	put(&v, 8);
}

static void code_load(const char *name, uint64_t addr, uint64_t index)
{
	size_t nlen = strlen(name) + 1;

	put_prefix(CODE_LOAD, 16 + 40 + nlen + sizeof(loop_code));
	put_u32(getpid());
	put_u32(getpid());
	put_u64(addr);
	put_u64(addr);
	put_u64(sizeof(loop_code));
	put_u64(index);
	put(name, nlen);
	put(loop_code, sizeof(loop_code));
}

/* source lines of the loop at @addr: two files, lines going back and forth */
static void debug_info(uint64_t addr)
{
	static const struct {
		uint32_t off, line;
		const char *file;
	} e[] = {
	    {0, 10, "/src/jit/loop.js"}, {4, 11, "/src/jit/loop.js"},  {6, 40, "/src/jit/mul.js"},
	    {9, 12, "/src/jit/loop.js"}, {13, 13, "/src/jit/loop.js"},
	};
	size_t i, size = 16 + 16;

	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		size += 16 + strlen(e[i].file) + 1;
	put_prefix(CODE_DEBUG_INFO, size);
	put_u64(addr);
	put_u64(sizeof(e) / sizeof(e[0]));
	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		put_u64(addr + e[i].off);
		put_u32(e[i].line);
		put_u32(0);
		put(e[i].file, strlen(e[i].file) + 1);
	}
}

/*
 * An .eh_frame (a CIE and one FDE over the loop, no instructions) and an
 * .eh_frame_hdr pointing at it, as an agent would hand them over
 */
static void unwinding_info(void)
{
	uint8_t eh[64] = {0}, hdr[12] = {0};
	size_t n = 0, data, pad;
	uint32_t v;

	/* CIE: length, id 0, version 1, "zR", code align 1, data align -8, ra 16 */
	v = 20;
	memcpy(eh + n, &v, 4);
	n += 8;
	eh[n++] = 1;
	eh[n++] = 'z';
	eh[n++] = 'R';
	eh[n++] = 0;
	eh[n++] = 1;
	eh[n++] = 0x78;
	eh[n++] = 16;
	eh[n++] = 1;
	eh[n++] = 0x1b; /* pcrel sdata4 */
	n = 24;
	/* FDE: length, CIE pointer, pc begin, pc range, no augmentation data */
	v = 16;
	memcpy(eh + n, &v, 4);
	v = n + 4;
	memcpy(eh + n + 4, &v, 4);
	v = sizeof(loop_code);
	memcpy(eh + n + 12, &v, 4);
	n += 20;
	/* hdr: version 1, eh_frame_ptr pcrel sdata4, no table */
	hdr[0] = 1;
	hdr[1] = 0x1b;
	hdr[2] = 0xff;
	hdr[3] = 0xff;
	data = n + sizeof(hdr);
	pad = (8 - data % 8) % 8;
	put_prefix(CODE_UNWINDING_INFO, 16 + 24 + data + pad);
	put_u64(data);
	put_u64(sizeof(hdr));
	put_u64(0x40); /* mapped_size: what follows the code in memory */
	put(eh, n);
	put(hdr, sizeof(hdr));
	put("\0\0\0\0\0\0\0", pad);
}

static uint64_t spin(uint8_t *code, double seconds)
{
	int (*fn)(int) = (int (*)(int))(uintptr_t)code;
	uint64_t end = now() + (uint64_t)(seconds * 1e9), sum = 0;

	while (now() < end)
		sum += fn(5000);
	return sum;
}

/* --swap: every field the header and records define, in the other order */
static int swap_file(const char *path)
{
	FILE *f = fopen(path, "r+b");
	uint8_t *buf;
	long size, off;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 40) {
		perror(path);
		return 1;
	}
	buf = malloc(size);
	rewind(f);
	if (!buf || fread(buf, 1, size, f) != (size_t)size)
		return 1;
#define S32(o) (*(uint32_t *)(buf + (o)) = bswap_32(*(uint32_t *)(buf + (o))))
#define S64(o) (*(uint64_t *)(buf + (o)) = bswap_64(*(uint64_t *)(buf + (o))))
	off = ((uint32_t *)buf)[2];
	S32(0), S32(4), S32(8), S32(12), S32(20), S64(24), S64(32);
	while (off + 16 <= size) {
		uint32_t id = *(uint32_t *)(buf + off), len = *(uint32_t *)(buf + off + 4);
		long b = off + 16, i, nr, e;

		if (len < 16 || off + len > size)
			return 1;
		switch (id) {
		case CODE_LOAD:
			S32(b), S32(b + 4), S64(b + 8), S64(b + 16), S64(b + 24), S64(b + 32);
			break;
		case CODE_MOVE:
			S32(b), S32(b + 4);
			for (i = 8; i < 48; i += 8)
				S64(b + i);
			break;
		case CODE_DEBUG_INFO:
			nr = *(uint64_t *)(buf + b + 8);
			S64(b), S64(b + 8);
			for (e = b + 16, i = 0; i < nr; i++) {
				S64(e), S32(e + 8), S32(e + 12);
				e += 16 + strlen((char *)buf + e + 16) + 1;
			}
			break;
		case CODE_UNWINDING_INFO:
			S64(b), S64(b + 8), S64(b + 16);
			break;
		}
		S32(off), S32(off + 4), S64(off + 8);
		off += len;
	}
	rewind(f);
	if (fwrite(buf, 1, size, f) != (size_t)size || fclose(f))
		return 1;
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	uint8_t *a, *b;
	void *marker;
	double secs;
	long page = sysconf(_SC_PAGESIZE);

	if (argc == 3 && !strcmp(argv[1], "--swap"))
		return swap_file(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR SECONDS | --swap FILE\n", argv[0]);
		return 2;
	}
	secs = atof(argv[2]);
	snprintf(path, sizeof(path), "%s/jit-%d.dump", argv[1], getpid());
	out_fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (out_fd < 0) {
		perror(path);
		return 1;
	}
	/* header: magic, version 1, size, EM_X86_64, pad, pid, time, flags */
	put_u32(JIT_MAGIC);
	put_u32(1);
	put_u32(40);
	put_u32(62);
	put_u32(0);
	put_u32(getpid());
	put_u64(now());
	put_u64(0);
	marker = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, out_fd, 0);
	a = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (marker == MAP_FAILED || a == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	b = a + page + 0x40;
	memcpy(a, loop_code, sizeof(loop_code));
	debug_info((uintptr_t)a);
	unwinding_info();
	code_load("jit_loop_a", (uintptr_t)a, 1);
	spin(a, secs);

	memcpy(b, loop_code, sizeof(loop_code));
	put_prefix(CODE_MOVE, 16 + 48);
	put_u32(getpid());
	put_u32(getpid());
	put_u64((uintptr_t)b);
	put_u64((uintptr_t)a);
	put_u64((uintptr_t)b);
	put_u64(sizeof(loop_code));
	put_u64(1);
	memset(a, 0xcc, sizeof(loop_code));
	spin(b, secs);

	memcpy(a + 0x100, loop_code, sizeof(loop_code));
	code_load("jit_loop_b", (uintptr_t)a + 0x100, 2);
	spin(a + 0x100, secs);

	put_prefix(CODE_CLOSE, 16);
	munmap(marker, page);
	close(out_fd);
	return 0;
}
