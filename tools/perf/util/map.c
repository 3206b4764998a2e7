// SPDX-License-Identifier: GPL-2.0-only
/*
 * Maps and sorted, non-overlapping map sets.  An array keeps lookups a
 * binary search; inserts move the tail, which stays cheap for the few
 * hundred maps a process has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dso.h"
#include "map.h"

struct map *map__new(u64 start, u64 len, u64 pgoff, struct dso *dso)
{
	struct map *map = calloc(1, sizeof(*map));

	if (!map)
		return NULL;
	map->refcnt = 1;
	map->start = start;
	map->end = start + len;
	if (map->end < start)
		map->end = ~0ULL;
	map->pgoff = pgoff;
	map->dso = dso__get(dso);
	return map;
}

struct map *map__get(struct map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void map__put(struct map *map)
{
	if (!map || --map->refcnt > 0)
		return;
	dso__put(map->dso);
	free(map);
}

struct map *map__clone_range(const struct map *map, u64 start, u64 end)
{
	struct map *clone = map__new(start, end - start, 0, map->dso);

	if (!clone)
		return NULL;
	clone->identity = map->identity;
	clone->prot = map->prot;
	clone->flags = map->flags;
	clone->ino = map->ino;
	/* the piece starts further into the object */
	clone->pgoff = map->pgoff + (start - map->start);
	return clone;
}

u64 map__map_ip(const struct map *map, u64 ip)
{
	if (map->identity)
		return ip;
	return ip - map->start + map->pgoff;
}

u64 map__unmap_ip(const struct map *map, u64 rip)
{
	if (map->identity)
		return rip;
	return rip + map->start - map->pgoff;
}

u64 map__start(const struct map *map)
{
	return map->start;
}

u64 map__end(const struct map *map)
{
	return map->end;
}

const char *map__dso_name_len(const struct map *map, size_t *len)
{
	if (!map || !map->dso) {
		*len = strlen("[unknown]");
		return "[unknown]";
	}
	if (map->dso->print_long_name) {
		*len = map->dso->long_name_len;
		return map->dso->long_name;
	}
	*len = map->dso->name_len;
	return map->dso->name;
}

const char *map__dso_name(const struct map *map)
{
	size_t len;

	return map__dso_name_len(map, &len);
}

const char *map__dso_short(const struct map *map)
{
	if (!map || !map->dso)
		return "[unknown]";
	return map->dso->short_name;
}

/* the last generation given: 0 is none, the generation of no maps */
static u64 maps_gen_last;

void maps__touch(struct maps *maps)
{
	maps->gen = ++maps_gen_last;
}

struct maps *maps__new(void)
{
	struct maps *maps = calloc(1, sizeof(*maps));

	if (maps) {
		maps->refcnt = 1;
		maps__touch(maps);
	}
	return maps;
}

struct maps *maps__get(struct maps *maps)
{
	if (maps)
		maps->refcnt++;
	return maps;
}

void maps__put(struct maps *maps)
{
	size_t i;

	if (!maps || --maps->refcnt > 0)
		return;
	for (i = 0; i < maps->nr; i++)
		map__put(maps->entries[i]);
	free(maps->entries);
	free(maps);
}

static int maps__reserve(struct maps *maps, size_t more)
{
	size_t alloc;
	struct map **entries;

	if (maps->nr + more <= maps->alloc)
		return 0;
	alloc = maps->alloc ? maps->alloc * 2 : 16;
	while (alloc < maps->nr + more)
		alloc *= 2;
	entries = realloc(maps->entries, alloc * sizeof(*entries));
	if (!entries)
		return -ENOMEM;
	maps->entries = entries;
	maps->alloc = alloc;
	return 0;
}

struct maps *maps__clone(const struct maps *maps)
{
	struct maps *clone = maps__new();
	size_t i;

	if (!clone)
		return NULL;
	if (maps__reserve(clone, maps->nr)) {
		maps__put(clone);
		return NULL;
	}
	for (i = 0; i < maps->nr; i++)
		clone->entries[i] = map__get(maps->entries[i]);
	clone->nr = maps->nr;
	return clone;
}

/* index of the first map whose end is above @addr */
static size_t maps__first_ending_after(const struct maps *maps, u64 addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *maps__find(struct maps *maps, u64 addr)
{
	struct map *last = maps->last;
	size_t i;

	/* the maps are disjoint: inside the last one found, it is the answer */
	if (last && last->start <= addr && addr < last->end)
		return last;
	i = maps__first_ending_after(maps, addr);
	if (i < maps->nr && maps->entries[i]->start <= addr)
		return maps->last = maps->entries[i];
	return NULL;
}

int maps__insert(struct maps *maps, struct map *map)
{
	size_t first = maps__first_ending_after(maps, map->start), last, i;
	struct map *head = NULL, *tail = NULL;
	size_t nr_new, nr_old;

	maps->last = NULL;
	maps__touch(maps);
	/* maps [first, last) overlap the new one */
	for (last = first; last < maps->nr && maps->entries[last]->start < map->end; last++)
		;
	if (last > first) {
		struct map *lo = maps->entries[first], *hi = maps->entries[last - 1];

		if (lo->start < map->start) {
			head = map__clone_range(lo, lo->start, map->start);
			if (!head)
				return -ENOMEM;
		}
		if (hi->end > map->end) {
			tail = map__clone_range(hi, map->end, hi->end);
			if (!tail) {
				map__put(head);
				return -ENOMEM;
			}
		}
	}
	nr_old = last - first;
	nr_new = 1 + !!head + !!tail;
	if (nr_new > nr_old && maps__reserve(maps, nr_new - nr_old)) {
		map__put(head);
		map__put(tail);
		return -ENOMEM;
	}
	for (i = first; i < last; i++)
		map__put(maps->entries[i]);
	memmove(&maps->entries[first + nr_new], &maps->entries[last],
		(maps->nr - last) * sizeof(maps->entries[0]));
	maps->nr = maps->nr - nr_old + nr_new;
	i = first;
	if (head)
		maps->entries[i++] = head;
	maps->entries[i++] = map__get(map);
	if (tail)
		maps->entries[i++] = tail;
	return 0;
}

void maps__remove(struct maps *maps, struct map *map)
{
	size_t i;

	maps->last = NULL;
	maps__touch(maps);
	for (i = 0; i < maps->nr; i++) {
		if (maps->entries[i] != map)
			continue;
		memmove(&maps->entries[i], &maps->entries[i + 1],
			(maps->nr - i - 1) * sizeof(maps->entries[0]));
		maps->nr--;
		map__put(map);
		return;
	}
}
