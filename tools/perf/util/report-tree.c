// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call-graph trees of perf textpoke report, built as perf report 6.1
 * --stdio builds them (report-tree-print.c prints them).
 *
 * Storage: every node of every tree in one array, every frame in
 * another, linked by index.  The frame array holds the gathered chains
 * (each distinct one once); a node's frames are a range of it: a new
 * branch is the rest of the chain that made it, and a split cuts a range
 * in two, so nothing is copied or moved.  An entry's tree is a root
 * node without frames, found by (histogram, entry) in a per-histogram
 * index.
 *
 *   root ── [main level1] ─┬─ [level3]       a node: its frames, hit
 *                          └─ [level2]       (chains ending in it) and
 *                                            children_hit (going on)
 *
 * perf keeps a node's children in a binary tree ordered by its frame
 * comparison (the object first, by its address in memory, then the
 * symbol's start or the address), greater keys first in order.  Its
 * objects' addresses follow the order it made them in; here the objects'
 * serial numbers (struct dso's serial), which are that order in every
 * process, a worker's too, where addresses are not.  Here a
 * list in that order, which is the order ties keep when the children are
 * sorted by their period for printing; a child index finds the child
 * that goes on with a frame without walking the list.  Samples are not
 * added one by one: report_trees__end() gathers equal chains into one,
 * added once by report_trees__flush().  Names are copied once, when a
 * chain is first gathered: the model's symbols may go before the tree is
 * printed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dso-inline.h"
#include "dso.h"
#include "machine.h"
#include "map.h"
#include "report-tree-internal.h"
#include "symbol.h"

#define NAME_HASH_MIN 256

void report_tree_opts__init(struct report_tree_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = REPORT_TREE_GRAPH;
	o->caller = true;
	o->min_percent = 0.5;
	o->value = REPORT_TREE_PERCENT;
}

/* perf takes any prefix of a word (the empty one excepted), trying words in its order */
static bool word_prefix(const char *tok, const char *word)
{
	size_t len = strlen(tok);

	return len && len <= strlen(word) && !strncmp(tok, word, len);
}

int report_tree_opts__parse(struct report_tree_opts *o, const char *arg, const char **err,
			    size_t *err_len)
{
	static const struct {
		const char *word;
		int what, v;
	} words[] = {
	    /* what: 0 mode, 1 order, 2 key, 3 value; in perf's order of trying */
	    {"graph", 0, REPORT_TREE_GRAPH},
	    {"flat", 0, REPORT_TREE_FLAT},
	    {"fractal", 0, REPORT_TREE_FRACTAL},
	    {"folded", 0, REPORT_TREE_FOLDED},
	    {"caller", 1, 1},
	    {"callee", 1, 0},
	    {"function", 2, 0},
	    {"address", 2, 1},
	    {"percent", 3, REPORT_TREE_PERCENT},
	    {"period", 3, REPORT_TREE_PERIOD},
	    {"count", 3, REPORT_TREE_COUNT},
	};
	bool have_percent = false;
	const char *p = arg;

	o->set = true;
	while (*p) {
		size_t len = strcspn(p, ",");
		char tok[64], *end;
		size_t i;

		if (!len) {
			p++;
			continue;
		}
		*err = p;
		*err_len = len;
		if (len >= sizeof(tok))
			return -EINVAL;
		memcpy(tok, p, len);
		tok[len] = 0;
		p += len;
		/* "none" ends the parse: perf returns at once */
		if (word_prefix(tok, "none")) {
			o->mode = REPORT_TREE_NONE;
			return 0;
		}
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (word_prefix(tok, words[i].word))
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			switch (words[i].what) {
			case 0:
				o->mode = words[i].v;
				break;
			case 1:
				o->caller = words[i].v;
				o->order_set = true;
				break;
			case 2:
				o->address = words[i].v;
				break;
			case 3:
				o->value = words[i].v;
				break;
			default:
				break;
			}
			continue;
		}
		/* perf reads a number's start (strtod, strtoul) and ignores what follows */
		if (!have_percent) {
			o->min_percent = strtod(tok, &end);
			have_percent = true;
		} else {
			o->print_limit = strtoul(tok, &end, 0);
		}
		if (end == tok)
			return -EINVAL;
	}
	return 0;
}

struct report_trees *report_trees__new(const struct report_tree_opts *o)
{
	struct report_trees *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->opts = *o;
	t->nodes = calloc(64, sizeof(*t->nodes));
	if (!t->nodes) {
		free(t);
		return NULL;
	}
	t->alloc_nodes = 64;
	t->nr_nodes = 1;
	return t;
}

static void chains__free(struct chains *g)
{
	free(g->recs);
	free(g->entries);
	free(g->table);
	memset(g, 0, sizeof(*g));
}

void report_trees__delete(struct report_trees *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_index; i++) {
		free(t->index[i].root);
		free(t->index[i].max_depth);
	}
	for (i = 0; i < t->names_size; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	free(t->fid);
	free(t->fids);
	free(t->index);
	free(t->nodes);
	free(t->frames);
	free(t->chain);
	free(t->list);
	free(t->objs);
	chains__free(&t->gather);
	free(t);
}

static u64 name_hash(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (u8)*s) * 0x100000001b3ULL;
	return h;
}

const char *trees__intern(struct report_trees *t, const char *s)
{
	size_t j;

	if ((t->nr_names + 1) * 2 > t->names_size) {
		size_t size = t->names_size ? 2 * t->names_size : NAME_HASH_MIN, i;
		char **n = calloc(size, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < t->names_size; i++) {
			if (!t->names[i])
				continue;
			for (j = name_hash(t->names[i]) & (size - 1); n[j];
			     j = (j + 1) & (size - 1))
				;
			n[j] = t->names[i];
		}
		free(t->names);
		t->names = n;
		t->names_size = size;
	}
	for (j = name_hash(s) & (t->names_size - 1); t->names[j]; j = (j + 1) & (t->names_size - 1))
		if (!strcmp(t->names[j], s))
			return t->names[j];
	t->names[j] = strdup(s);
	if (t->names[j])
		t->nr_names++;
	return t->names[j];
}

void report_trees__begin(struct report_trees *t, int hist, u32 entry)
{
	t->hist = hist;
	t->entry = entry;
	t->nr_chain = 0;
}

/*
 * perf's callchain_srcline() for the address key: the line of the frame's
 * address in its object, else (no line, or the kernel, whose lines perf
 * finds no DWARF for here) the offset in the symbol, "+12", or without
 * one "dso[addr]"; nothing for a frame outside every map.  Interned: a
 * frame's line is kept only when it makes a node, but then for good.
 */
static int frame__srcline(struct report_trees *t, const struct callchain_frame *frame,
			  struct sample_frame *sf)
{
	struct dso *dso = frame->al.map ? frame->al.map->dso : NULL;
	u64 addr = callchain_frame__addr(frame);
	const char *line = NULL;

	if (!dso)
		return 0;
	/* an unwound frame split at inlined calls: each part's line, the call site's outward */
	if (dso->kind == DSO_KIND__USER && frame->inline_srcline)
		line = frame->inline_srcline;
	else if (dso->kind == DSO_KIND__USER)
		line = dso__srcline(dso, addr);
	if (line) {
		sf->f.srcline = line;
		return 0;
	}
	if (frame->al.sym)
		snprintf(t->srcline_buf, sizeof(t->srcline_buf), "+%llu",
			 (unsigned long long)(addr - frame->al.sym->start));
	else
		snprintf(t->srcline_buf, sizeof(t->srcline_buf), "%s[%llx]", dso->short_name,
			 (unsigned long long)addr);
	sf->f.srcline = trees__intern(t, t->srcline_buf);
	return sf->f.srcline ? 0 : -ENOMEM;
}

/* room in t->chain for @nr frames */
int trees__chain_room(struct report_trees *t, size_t nr)
{
	size_t alloc = t->alloc_chain ? t->alloc_chain : 128;
	struct sample_frame *c;

	if (nr <= t->alloc_chain)
		return 0;
	while (alloc < nr)
		alloc *= 2;
	c = realloc(t->chain, alloc * sizeof(*c));
	if (!c)
		return -ENOMEM;
	t->chain = c;
	t->alloc_chain = alloc;
	return 0;
}

int report_trees__frame(struct report_trees *t, const struct callchain_frame *frame, long entry)
{
	struct sample_frame *sf;

	if (trees__chain_room(t, t->nr_chain + 1))
		return -ENOMEM;
	sf = &t->chain[t->nr_chain++];
	memset(sf, 0, sizeof(*sf));
	sf->entry = entry;
	sf->f.ip = frame->ip;
	sf->dso = frame->al.map ? frame->al.map->dso : NULL;
	sf->f.obj = sf->dso ? sf->dso->serial : 0;
	sf->f.cls = FRAME_IP;
	sf->f.key = frame->ip;
	if (frame->al.sym) {
		sf->f.start = frame->al.sym->start;
		sf->f.inlined = frame->inlined;
		sf->f.name = frame->inlined ? frame->inline_name : symbol__name(frame->al.sym);
		if (sf->f.name && !t->opts.address) {
			sf->f.cls = frame->inlined ? FRAME_INLINED : FRAME_SYM;
			sf->f.key = frame->al.sym->start;
		}
	}
	if (t->opts.address)
		return frame__srcline(t, frame, sf);
	return 0;
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/*
 * perf's match_chain() with the function key, @a the tree's frame, @b
 * the sample's: inlined functions by name, other symbols by object and
 * start, frames without a symbol by object and address
 */
static int frame__cmp_slow(const struct report_trees *t, const struct tree_frame *a,
			   const struct tree_frame *b)
{
	/* the address key: frames are one at one address of one object only */
	if (a->name && b->name && !t->opts.address) {
		if (a->inlined || b->inlined) {
			int c = strcmp(a->name, b->name);

			return c < 0 ? -1 : c > 0;
		}
		if (a->obj != b->obj)
			return a->obj < b->obj ? -1 : 1;
		return cmp_u64(a->start, b->start);
	}
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return cmp_u64(a->ip, b->ip);
}

/* frame__cmp_slow()'s answer, the common case without its branches */
static inline int frame__cmp(const struct report_trees *t, const struct tree_frame *a,
			     const struct tree_frame *b)
{
	if (a->cls == b->cls && a->cls != FRAME_INLINED) {
		if (a->obj != b->obj)
			return a->obj < b->obj ? -1 : 1;
		return cmp_u64(a->key, b->key);
	}
	return frame__cmp_slow(t, a, b);
}

/* the object and the class in one word */
static inline uintptr_t frame__obj(const struct tree_frame *f)
{
	return (uintptr_t)f->obj << 2 | f->cls;
}

static inline u32 fid__cls(u32 fid)
{
	return fid & 3;
}

/* frames @a and @b of t->frames one, for the trees */
static inline bool frames__same(const struct report_trees *t, u32 a, u32 b)
{
	u32 x = t->fid[a], y = t->fid[b];

	if (x == y)
		return true;
	if (fid__cls(x) == fid__cls(y))
		return false;
	return !frame__cmp_slow(t, &t->frames[a], &t->frames[b]);
}

static size_t fid__hash(uintptr_t obj, u64 key, size_t size)
{
	u64 h = (key ^ obj * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;

	h ^= h >> 29;
	return h & (size - 1);
}

/* the identity of frame @f, its name interned: see struct report_trees' fid */
static int frame__fid(struct report_trees *t, const struct tree_frame *f, u32 *fid)
{
	/* inlined functions are one by name alone, whatever their object */
	uintptr_t obj = f->cls == FRAME_INLINED ? FRAME_INLINED : frame__obj(f);
	u64 key = f->cls == FRAME_INLINED ? (uintptr_t)f->name : f->key;
	size_t j;

	if ((t->nr_fids + 1) * 2 > t->fids_size) {
		size_t size = t->fids_size ? 2 * t->fids_size : 1024, i;
		struct fid_slot *n = calloc(size, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (i = 0; i < t->fids_size; i++) {
			const struct fid_slot *o = &t->fids[i];

			if (!o->fid)
				continue;
			for (j = fid__hash(o->obj, o->key, size); n[j].fid;
			     j = (j + 1) & (size - 1))
				;
			n[j] = *o;
		}
		free(t->fids);
		t->fids = n;
		t->fids_size = size;
	}
	for (j = fid__hash(obj, key, t->fids_size); t->fids[j].fid;
	     j = (j + 1) & (t->fids_size - 1))
		if (t->fids[j].obj == obj && t->fids[j].key == key) {
			*fid = t->fids[j].fid;
			return 0;
		}
	if (t->nr_fids + 1 >= 1U << 30)
		return -ENOMEM;
	t->fids[j] = (struct fid_slot){obj, key, (u32)(t->nr_fids + 1) << 2 | f->cls};
	t->nr_fids++;
	*fid = t->fids[j].fid;
	return 0;
}

static size_t slot__hash(u32 kids, u32 fid, size_t size)
{
	u64 h = ((u64)kids << 32 | fid) * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 29;
	return h & (size - 1);
}

/* @child, the first of set @kids whose first frame is @fid */
static int slots__add(struct report_trees *t, u32 kids, u32 fid, u32 child)
{
	size_t j;

	if (fid__cls(fid) == FRAME_INLINED)
		return 0;
	if ((t->nr_slots + 1) * 2 > t->slots_size) {
		size_t size = t->slots_size ? 2 * t->slots_size : 1024, i;
		struct child_slot *n = calloc(size, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (i = 0; i < t->slots_size; i++) {
			const struct child_slot *o = &t->slots[i];

			if (!o->child)
				continue;
			for (j = slot__hash(o->kids, o->fid, size); n[j].child;
			     j = (j + 1) & (size - 1))
				;
			n[j] = *o;
		}
		free(t->slots);
		t->slots = n;
		t->slots_size = size;
	}
	for (j = slot__hash(kids, fid, t->slots_size); t->slots[j].child;
	     j = (j + 1) & (t->slots_size - 1))
		;
	t->slots[j] = (struct child_slot){kids, child, fid};
	t->nr_slots++;
	return 0;
}

/* the child of set @kids whose first frame is @fid, 0: none */
static u32 slots__find(const struct report_trees *t, u32 kids, u32 fid)
{
	size_t j;

	if (!t->slots_size)
		return 0;
	for (j = slot__hash(kids, fid, t->slots_size); t->slots[j].child;
	     j = (j + 1) & (t->slots_size - 1)) {
		const struct child_slot *s = &t->slots[j];

		if (s->kids == kids && s->fid == fid)
			return s->child;
	}
	return 0;
}

static long node__new(struct report_trees *t)
{
	if (t->nr_nodes >= UINT32_MAX)
		return -ENOMEM;
	if (t->nr_nodes == t->alloc_nodes) {
		size_t alloc = 2 * t->alloc_nodes;
		struct tree_node *n = realloc(t->nodes, alloc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->nodes = n;
		t->alloc_nodes = alloc;
	}
	memset(&t->nodes[t->nr_nodes], 0, sizeof(*t->nodes));
	t->nodes[t->nr_nodes].kids = t->nr_nodes;
	return t->nr_nodes++;
}

/* the sample's chain (in the order the tree is built), from frame @pos to its end */
struct cursor {
	const struct tree_frame *f; /* in t->frames, from frame @base on */
	const long *entry;	    /* each frame's entry, -1: none */
	size_t nr;
	u32 base;
	u32 count; /* the samples that gave it */
};

/* two sorted lists of children merged into one, greater keys first */
static u32 children__merge(struct report_trees *t, u32 a, u32 b)
{
	u32 head = 0, *link = &head;

	while (a && b) {
		u32 *from = frame__cmp(t, &t->frames[t->nodes[a].frame],
				       &t->frames[t->nodes[b].frame]) >= 0 ?
				&a :
				&b;

		*link = *from;
		link = &t->nodes[*from].next;
		*from = *link;
	}
	*link = a ?: b;
	return head;
}

/*
 * @n's children in key order, greater first, as inserting each in turn
 * would have left them: they are all of one class other than
 * FRAME_INLINED, whose keys are a total order with no two equal (equal
 * ones are one child), so any sort gives that order.  A merge sort of
 * the list, bottom up: runs of 1, 2, 4... merged in a small stack.
 */
static void children__sort(struct report_trees *t, u32 n)
{
	u32 runs[32] = {0}, ch = t->nodes[n].child, carry;
	size_t i;

	t->nodes[n].unsorted = false;
	while (ch) {
		carry = ch;
		ch = t->nodes[ch].next;
		t->nodes[carry].next = 0;
		for (i = 0; i < ARRAY_SIZE(runs) - 1 && runs[i]; i++) {
			carry = children__merge(t, runs[i], carry);
			runs[i] = 0;
		}
		runs[i] = i == ARRAY_SIZE(runs) - 1 ? children__merge(t, runs[i], carry) : carry;
	}
	for (carry = 0, i = 0; i < ARRAY_SIZE(runs); i++)
		if (runs[i])
			carry = carry ? children__merge(t, runs[i], carry) : runs[i];
	t->nodes[n].child = carry;
}

/*
 * A new child of @parent holding the cursor's frames from @pos on, in
 * the key order.  Kept in order by insertion, a node with thousands of
 * children (a busy system's syscall entry, whose callees are all sorts)
 * walked its list for each new one; while they are all of one class,
 * and not inlined functions, they are listed as they come and put in
 * order once, when something needs the order (an inlined frame, whose
 * comparison is by name, a child of another class, or the flush's end).
 */
static long node__add_child(struct report_trees *t, u32 parent, const struct cursor *c, size_t pos,
			    u64 period)
{
	long n = node__new(t);
	u8 cls = c->f[pos].cls;
	u32 *link;

	if (n < 0)
		return n;
	/* the chain's frames are the tree's already: the node is the range of them */
	t->nodes[n].frame = c->base + pos;
	t->nodes[n].nr_frames = c->nr - pos;
	t->nodes[n].parent = parent;
	t->nodes[n].hit = period;
	t->nodes[n].count = c->count;
	if (slots__add(t, t->nodes[parent].kids, t->fid[c->base + pos], n))
		return -ENOMEM;
	if (cls != FRAME_INLINED && !(t->nodes[parent].child_cls & ~(1U << cls))) {
		t->nodes[parent].child_cls |= 1U << cls;
		t->nodes[n].next = t->nodes[parent].child;
		t->nodes[parent].child = n;
		t->nodes[parent].unsorted = t->nodes[n].next != 0;
		return n;
	}
	if (t->nodes[parent].unsorted)
		children__sort(t, parent);
	t->nodes[parent].child_cls |= 1U << cls;
	/* greater keys first: before the first child whose key is smaller */
	for (link = &t->nodes[parent].child; *link; link = &t->nodes[*link].next)
		if (frame__cmp(t, &t->frames[t->nodes[*link].frame], &c->f[pos]) < 0)
			break;
	t->nodes[n].next = *link;
	*link = n;
	return n;
}

static int node__append_children(struct report_trees *t, u32 node, const struct cursor *c,
				 size_t pos, u64 period);

/*
 * The chain from @pos matches @n's first frame: it ends in it, goes on
 * below it, or parts from it inside its frames, which splits it
 */
static int node__append(struct report_trees *t, u32 n, const struct cursor *c, size_t pos,
			u64 period)
{
	struct tree_node *nd = &t->nodes[n];
	u32 j = 1, ch;
	long tail;

	while (j < nd->nr_frames && pos + j < c->nr &&
	       frames__same(t, nd->frame + j, c->base + pos + j))
		j++;
	if (j == nd->nr_frames) {
		if (pos + j == c->nr) {
			nd->hit += period;
			nd->count += c->count;
			return 0;
		}
		return node__append_children(t, n, c, pos + j, period);
	}
	/* the tail of the node's frames becomes its only child, with its counts */
	tail = node__new(t);
	if (tail < 0)
		return tail;
	nd = &t->nodes[n];
	t->nodes[tail] = (struct tree_node){
	    .frame = nd->frame + j,
	    .nr_frames = nd->nr_frames - j,
	    .parent = n,
	    .child = nd->child,
	    .count = nd->count,
	    .children_count = nd->children_count,
	    .hit = nd->hit,
	    .children_hit = nd->children_hit,
	    .kids = nd->kids,
	    .child_cls = nd->child_cls,
	    .unsorted = nd->unsorted,
	};
	for (ch = nd->child; ch; ch = t->nodes[ch].next)
		t->nodes[ch].parent = tail;
	nd->nr_frames = j;
	nd->child = tail;
	nd->unsorted = false;
	/* the tail's own number, never a set's yet, names the node's new set */
	nd->kids = tail;
	nd->child_cls = 1U << t->frames[nd->frame + j].cls;
	if (slots__add(t, tail, t->fid[nd->frame + j], tail))
		return -ENOMEM;
	nd = &t->nodes[n];
	nd->children_hit = nd->hit + t->nodes[tail].children_hit;
	nd->children_count = nd->count + t->nodes[tail].children_count;
	if (pos + j == c->nr) {
		nd->hit = period;
		nd->count = c->count;
		return 0;
	}
	nd->hit = 0;
	nd->count = 0;
	if (node__add_child(t, n, c, pos + j, period) < 0)
		return -ENOMEM;
	nd = &t->nodes[n];
	nd->children_hit += period;
	nd->children_count += c->count;
	return 0;
}

static int node__append_children(struct report_trees *t, u32 node, const struct cursor *c,
				 size_t pos, u64 period)
{
	const struct tree_frame *f = &c->f[pos];
	u32 ch;
	int err;

	if (f->cls != FRAME_INLINED && !(t->nodes[node].child_cls & (1U << FRAME_INLINED))) {
		/* no names to compare: the index finds the equal one */
		ch = slots__find(t, t->nodes[node].kids, t->fid[c->base + pos]);
	} else {
		if (t->nodes[node].unsorted)
			children__sort(t, node);
		/* the children in key order, greater first: look no further than a smaller one */
		for (ch = t->nodes[node].child; ch; ch = t->nodes[ch].next) {
			int m = frame__cmp(t, &t->frames[t->nodes[ch].frame], f);

			if (m <= 0)
				break;
		}
		if (ch && !frames__same(t, t->nodes[ch].frame, c->base + pos))
			ch = 0;
	}
	if (ch)
		err = node__append(t, ch, c, pos, period);
	else
		err = node__add_child(t, node, c, pos, period) < 0 ? -ENOMEM : 0;
	if (err)
		return err;
	t->nodes[node].children_hit += period;
	t->nodes[node].children_count += c->count;
	return 0;
}

/* the root of entry @entry of histogram @hist, made when missing */
static long trees__root(struct report_trees *t, int hist, u32 entry)
{
	struct tree_index *ix;
	long n;

	if (hist < 0)
		return -EINVAL;
	if ((size_t)hist >= t->nr_index) {
		struct tree_index *i = realloc(t->index, (hist + 1) * sizeof(*i));

		if (!i)
			return -ENOMEM;
		memset(i + t->nr_index, 0, (hist + 1 - t->nr_index) * sizeof(*i));
		t->index = i;
		t->nr_index = hist + 1;
	}
	ix = &t->index[hist];
	if (entry >= ix->nr) {
		size_t nr = ix->nr ? ix->nr : 64;
		u32 *r, *d;

		while (nr <= entry)
			nr *= 2;
		r = realloc(ix->root, nr * sizeof(*r));
		if (!r)
			return -ENOMEM;
		ix->root = r;
		d = realloc(ix->max_depth, nr * sizeof(*d));
		if (!d)
			return -ENOMEM;
		ix->max_depth = d;
		memset(r + ix->nr, 0, (nr - ix->nr) * sizeof(*r));
		memset(d + ix->nr, 0, (nr - ix->nr) * sizeof(*d));
		ix->nr = nr;
	}
	if (ix->root[entry])
		return ix->root[entry];
	n = node__new(t);
	if (n > 0)
		t->index[hist].root[entry] = n;
	return n;
}

static int trees__append(struct report_trees *t, u32 entry, const struct cursor *c, size_t pos,
			 u64 period)
{
	long root;

	if (pos >= c->nr)
		return 0;
	root = trees__root(t, t->hist, entry);
	if (root < 0)
		return root;
	if (c->nr - pos > t->index[t->hist].max_depth[entry])
		t->index[t->hist].max_depth[entry] = c->nr - pos;
	return node__append_children(t, root, c, pos, period);
}

/* an append of a gathered chain, from frame @pos on, to the tree of (hist, entry) */
struct append {
	int hist;
	u32 entry;
	u32 rec, pos;
};

/*
 * @a sorted by tree, (hist, entry), keeping the order of each tree's:
 * two stable counting sorts, by entry then by hist, in linear time (a
 * million-sample report makes most of a million appends)
 */
static int appends__sort(struct append *a, size_t nr)
{
	struct append *tmp;
	size_t *cnt, max = 0, i, sum;

	for (i = 0; i < nr; i++) {
		if (a[i].hist < 0)
			return -EINVAL;
		if (a[i].entry > max)
			max = a[i].entry;
		if ((size_t)a[i].hist > max)
			max = a[i].hist;
	}
	tmp = malloc(nr * sizeof(*tmp) + 1);
	cnt = calloc(max + 1, sizeof(*cnt));
	if (!tmp || !cnt) {
		free(tmp);
		free(cnt);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++)
		cnt[a[i].entry]++;
	for (i = 0, sum = 0; i <= max; i++) {
		size_t n = cnt[i];

		cnt[i] = sum;
		sum += n;
	}
	for (i = 0; i < nr; i++)
		tmp[cnt[a[i].entry]++] = a[i];
	memset(cnt, 0, (max + 1) * sizeof(*cnt));
	for (i = 0; i < nr; i++)
		cnt[tmp[i].hist]++;
	for (i = 0, sum = 0; i <= max; i++) {
		size_t n = cnt[i];

		cnt[i] = sum;
		sum += n;
	}
	for (i = 0; i < nr; i++)
		a[cnt[tmp[i].hist]++] = tmp[i];
	free(tmp);
	free(cnt);
	return 0;
}

/* the appends a gathered chain makes, at @a; their number */
static size_t chain__appends(const struct report_trees *t, u32 r, struct append *a)
{
	const struct chain_rec *rec = &t->gather.recs[r];
	const long *entry = t->gather.entries + rec->first;
	size_t i, j, n = 0;

	if (!rec->nr)
		return 0;
	a[n++] = (struct append){rec->hist, rec->entry, r, 0};
	if (!rec->children)
		return n;
	/*
	 * perf's cumulative entries: each entry of the chain once, at its
	 * first frame in the order the tree is built, and not the sample's
	 * own entry, which has the whole chain
	 */
	for (i = 0; i < rec->nr; i++) {
		long e = entry[i];

		if (e < 0 || (u32)e == rec->entry)
			continue;
		for (j = 0; j < i; j++)
			if (entry[j] == e)
				break;
		if (j == i)
			a[n++] = (struct append){rec->hist, e, r, i};
	}
	return n;
}

static u64 chain__hash(int hist, u32 entry, bool children, const struct sample_frame *f, size_t nr)
{
	u64 h = ((u64)(u32)hist << 33 | (u64)entry << 1 | children) * 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		h = (h ^ frame__obj(&f[i].f)) * 0xff51afd7ed558ccdULL;
		h = (h ^ f[i].f.key) * 0xc4ceb9fe1a85ec53ULL;
		h = (h ^ (u64)f[i].entry) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 31;
	}
	return h;
}

/*
 * Equal for the trees: every frame one with the other's (frame__cmp(),
 * by the same rule for every pair, inlined names by their text) and of
 * the same entry
 */
static bool chain__equal(const struct tree_frame *a, const long *entry,
			 const struct sample_frame *b, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (frame__obj(&a[i]) != frame__obj(&b[i].f) || a[i].key != b[i].f.key ||
		    entry[i] != b[i].entry)
			return false;
		if (a[i].cls == FRAME_INLINED && a[i].name != b[i].f.name &&
		    strcmp(a[i].name, b[i].f.name))
			return false;
	}
	return true;
}

static int chains__grow_table(struct chains *g)
{
	size_t size = g->table_size ? 2 * g->table_size : 1024, i, j;
	u32 *n = calloc(size, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i < g->table_size; i++) {
		u32 r = g->table[i];

		if (!r)
			continue;
		for (j = g->recs[r - 1].hash & (size - 1); n[j]; j = (j + 1) & (size - 1))
			;
		n[j] = r;
	}
	free(g->table);
	g->table = n;
	g->table_size = size;
	return 0;
}

/* a parallel run's worker keeps the object of each serial its frames name */
static int trees__keep_obj(struct report_trees *t, const struct dso *dso)
{
	if (dso->serial >= t->nr_objs) {
		size_t nr = t->nr_objs ? t->nr_objs : 256;
		const struct dso **o;

		while (nr <= dso->serial)
			nr *= 2;
		o = realloc(t->objs, nr * sizeof(*o));
		if (!o)
			return -ENOMEM;
		memset(o + t->nr_objs, 0, (nr - t->nr_objs) * sizeof(*o));
		t->objs = o;
		t->nr_objs = nr;
	}
	t->objs[dso->serial] = dso;
	return 0;
}

/* a new gathered chain, t->chain's frames with their names interned */
static int chains__add(struct report_trees *t, u64 hash, u64 period, u32 count, bool children,
		       size_t slot)
{
	struct chains *g = &t->gather;
	struct chain_rec *rec;
	size_t i;

	if (g->nr_recs == g->alloc_recs) {
		size_t alloc = g->alloc_recs ? 2 * g->alloc_recs : 1024;
		struct chain_rec *r = realloc(g->recs, alloc * sizeof(*r));

		if (!r)
			return -ENOMEM;
		g->recs = r;
		g->alloc_recs = alloc;
	}
	if (t->nr_frames + t->nr_chain > UINT32_MAX)
		return -ENOMEM;
	if (t->nr_frames + t->nr_chain > t->alloc_frames) {
		size_t alloc = t->alloc_frames ? 2 * t->alloc_frames : 4096;
		struct tree_frame *f;
		long *e;
		u32 *id;

		while (alloc < t->nr_frames + t->nr_chain)
			alloc *= 2;
		f = realloc(t->frames, alloc * sizeof(*f));
		if (!f)
			return -ENOMEM;
		t->frames = f;
		e = realloc(g->entries, alloc * sizeof(*e));
		if (!e)
			return -ENOMEM;
		g->entries = e;
		id = realloc(t->fid, alloc * sizeof(*id));
		if (!id)
			return -ENOMEM;
		t->fid = id;
		t->alloc_frames = alloc;
	}
	for (i = 0; i < t->nr_chain; i++) {
		struct tree_frame *f = &t->frames[t->nr_frames + i];

		*f = t->chain[i].f;
		g->entries[t->nr_frames + i] = t->chain[i].entry;
		if (f->name && !(f->name = trees__intern(t, f->name)))
			return -ENOMEM;
		if (f->srcline && !(f->srcline = trees__intern(t, f->srcline)))
			return -ENOMEM;
		if (frame__fid(t, f, &t->fid[t->nr_frames + i]))
			return -ENOMEM;
		if (t->keep_objs && t->chain[i].dso && trees__keep_obj(t, t->chain[i].dso))
			return -ENOMEM;
	}
	rec = &g->recs[g->nr_recs++];
	*rec = (struct chain_rec){
	    .hash = hash,
	    .period = period,
	    .first = t->nr_frames,
	    .nr = t->nr_chain,
	    .count = count,
	    .hist = t->hist,
	    .entry = t->entry,
	    .children = children,
	    .first_time = t->place_time,
	    .first_off = t->place_off,
	};
	t->nr_frames += t->nr_chain;
	g->table[slot] = g->nr_recs;
	return 0;
}

/*
 * A sample's chain is gathered, not yet added: the samples of one chain
 * (most of a profile's) make one pass through the trees at
 * report_trees__flush(), which builds the trees that adding each would
 * have built, since a tree's shape is that of the set of its chains and
 * its counts are sums.  The chains keep the order they first came in, so
 * that a node keeps the frames of the first sample that made it.
 */
int report_trees__end(struct report_trees *t, u64 period, bool children)
{
	size_t i, j;

	/* the walk gave the frames callee first */
	if (t->opts.caller) {
		for (i = 0, j = t->nr_chain; i + 1 < j; i++, j--) {
			struct sample_frame tmp = t->chain[i];

			t->chain[i] = t->chain[j - 1];
			t->chain[j - 1] = tmp;
		}
	}
	return trees__gather(t, period, 1, children, false);
}

/* t->chain came before the first sample of @rec: its frames are @rec's now */
static int chain__take_place(struct report_trees *t, struct chain_rec *rec)
{
	for (u32 i = 0; i < rec->nr; i++) {
		struct tree_frame *f = &t->frames[rec->first + i];

		*f = t->chain[i].f;
		if (f->name && !(f->name = trees__intern(t, f->name)))
			return -ENOMEM;
		if (f->srcline && !(f->srcline = trees__intern(t, f->srcline)))
			return -ENOMEM;
	}
	rec->first_time = t->place_time;
	rec->first_off = t->place_off;
	return 0;
}

int trees__gather(struct report_trees *t, u64 period, u32 count, bool children, bool merge)
{
	struct chains *g = &t->gather;
	size_t j;
	u64 hash;

	if ((g->nr_recs + 1) * 2 > g->table_size && chains__grow_table(g))
		return -ENOMEM;
	hash = chain__hash(t->hist, t->entry, children, t->chain, t->nr_chain);
	for (j = hash & (g->table_size - 1); g->table[j]; j = (j + 1) & (g->table_size - 1)) {
		struct chain_rec *rec = &g->recs[g->table[j] - 1];

		if (rec->hash == hash && rec->hist == t->hist && rec->entry == t->entry &&
		    rec->nr == t->nr_chain && rec->children == children &&
		    chain__equal(t->frames + rec->first, g->entries + rec->first, t->chain,
				 t->nr_chain)) {
			rec->period += period;
			rec->count += count;
			t->last_rec = rec - g->recs;
			/* another worker's chain, met first there */
			if (merge &&
			    (t->place_time < rec->first_time ||
			     (t->place_time == rec->first_time && t->place_off < rec->first_off)))
				return chain__take_place(t, rec);
			return 0;
		}
	}
	t->last_rec = g->nr_recs;
	return chains__add(t, hash, period, count, children, j);
}

void report_trees__set_place(struct report_trees *t, u64 time, u64 off)
{
	t->place_time = time;
	t->place_off = off;
}

u32 report_trees__last_chain(const struct report_trees *t)
{
	return t->last_rec;
}

void report_trees__add_chain(struct report_trees *t, u32 chain, u64 period)
{
	struct chain_rec *rec;

	if (chain >= t->gather.nr_recs)
		return;
	rec = &t->gather.recs[chain];
	rec->period += period;
	rec->count++;
}

/*
 * The gathered chains into the trees, one tree after the other (the
 * appends sorted by tree, each tree's in the order its chains came), so
 * that a tree's nodes are made together and stay near each other in
 * memory while it is built; the trees are separate, so their order
 * changes nothing in them
 */
int report_trees__flush(struct report_trees *t)
{
	struct chains *g = &t->gather;
	struct append *a;
	size_t i, nr = 0;
	int err = 0;

	/* a chain appends at most once per frame and once more */
	a = malloc((t->nr_frames + g->nr_recs + 1) * sizeof(*a));
	if (!a) {
		chains__free(g);
		return -ENOMEM;
	}
	for (i = 0; i < g->nr_recs; i++)
		nr += chain__appends(t, i, a + nr);
	err = appends__sort(a, nr);
	for (i = 0; i < nr && !err; i++) {
		const struct chain_rec *rec = &g->recs[a[i].rec];
		struct cursor c = {t->frames + rec->first, g->entries + rec->first, rec->nr,
				   rec->first, rec->count};

		t->hist = a[i].hist;
		err = trees__append(t, a[i].entry, &c, a[i].pos, rec->period);
	}
	/* the lists left as they came, in key order for the printing */
	for (i = 1; i < t->nr_nodes && !err; i++)
		if (t->nodes[i].unsorted)
			children__sort(t, i);
	free(a);
	chains__free(g);
	return err;
}

u32 report_trees__max_depth(const struct report_trees *t, int hist, u32 entry)
{
	if (hist < 0 || (size_t)hist >= t->nr_index || entry >= t->index[hist].nr)
		return 0;
	return t->index[hist].max_depth[entry];
}

bool report_trees__caller(const struct report_trees *t)
{
	return t->opts.caller;
}
