/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MAP_H
#define __PERF_TEXTPOKE_MAP_H

#include "machine.h"
#include "types.h"

struct dso;

/*
 * An address range of a process or of the kernel backed by an object.
 * map_ip() turns a runtime address into the object's address space:
 * start..end maps to pgoff.. (a file offset, the space user DSO symbols are
 * kept in), or to itself for identity maps (the kernel, anon memory).
 */
struct map {
	int refcnt;
	u64 start;
	u64 end; /* exclusive */
	u64 pgoff;
	bool identity;
	u32 prot;
	u32 flags;
	u64 ino;	 /* MMAP2's inode (0: MMAP, or MMAP2 with a build-id) */
	struct dso *dso; /* a reference */
};

struct map *map__new(u64 start, u64 len, u64 pgoff, struct dso *dso);
struct map *map__get(struct map *map);
void map__put(struct map *map);
/* a copy of @map covering [start, end) of it */
struct map *map__clone_range(const struct map *map, u64 start, u64 end);

/*
 * The maps of one process (shared by its threads), or the kernel's: sorted
 * by start, never overlapping.  Refcounted because threads share them.
 */
struct maps {
	int refcnt;
	struct map **entries;
	size_t nr;
	size_t alloc;
	/*
	 * what maps__find() found last, until the next insert or remove:
	 * most frames of a callchain are in the map of the frame before
	 */
	struct map *last;
	/*
	 * changed by every insert and remove, unique across all maps ever
	 * made: what was found in a maps of this generation is found again
	 */
	u64 gen;
};

struct maps *maps__new(void);
struct maps *maps__get(struct maps *maps);
void maps__put(struct maps *maps);
/* a new maps holding references to the same map objects (fork) */
struct maps *maps__clone(const struct maps *maps);

/*
 * Insert @map (a reference is taken).  What it overlaps is cut away: an
 * older map partly covered keeps its uncovered head and tail, as the
 * kernel's own mmap() does to the older mapping.
 */
int maps__insert(struct maps *maps, struct map *map);
void maps__remove(struct maps *maps, struct map *map);
/* borrowed pointer to the map holding @addr, or NULL */
struct map *maps__find(struct maps *maps, u64 addr);
/*
 * @maps' generation (see struct maps); maps__touch() gives it a new one
 * when what its lookups answer changes otherwise (the kernel's KSYMBOL
 * objects, kept beside its maps)
 */
static inline u64 maps__gen(const struct maps *maps)
{
	return maps ? maps->gen : 0;
}
void maps__touch(struct maps *maps);

#endif /* __PERF_TEXTPOKE_MAP_H */
