// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf keeps a DSO's symbols in a red-black tree and looks addresses up by
 * walking it.  Where symbols overlap (PLT entries added over an _init that
 * symbols__fixup_end() stretched across .plt) the symbol it returns depends
 * on the shape of that tree, so to print what perf prints the tree is
 * rebuilt here with the same insertions and erasures in the same order.
 * The algorithms are the textbook ones (successor replacement on erase),
 * which lib/rbtree.c implements too, so the shapes agree.
 */
#include <errno.h>
#include <stdlib.h>

#include "symbol.h"

#define NIL (-1)

struct symtree_node {
	struct symbol *sym;
	int left, right, parent;
	bool red;
};

struct symtree {
	struct symtree_node *n;
	size_t nr, alloc;
	int root;
};

struct symtree *symtree__new(void)
{
	struct symtree *t = calloc(1, sizeof(*t));

	if (t)
		t->root = NIL;
	return t;
}

void symtree__delete(struct symtree *t)
{
	if (t) {
		free(t->n);
		free(t);
	}
}

static bool is_red(const struct symtree *t, int i)
{
	return i != NIL && t->n[i].red;
}

static void rotate_left(struct symtree *t, int x)
{
	struct symtree_node *n = t->n;
	int y = n[x].right;

	n[x].right = n[y].left;
	if (n[y].left != NIL)
		n[n[y].left].parent = x;
	n[y].parent = n[x].parent;
	if (n[x].parent == NIL)
		t->root = y;
	else if (n[n[x].parent].left == x)
		n[n[x].parent].left = y;
	else
		n[n[x].parent].right = y;
	n[y].left = x;
	n[x].parent = y;
}

static void rotate_right(struct symtree *t, int x)
{
	struct symtree_node *n = t->n;
	int y = n[x].left;

	n[x].left = n[y].right;
	if (n[y].right != NIL)
		n[n[y].right].parent = x;
	n[y].parent = n[x].parent;
	if (n[x].parent == NIL)
		t->root = y;
	else if (n[n[x].parent].right == x)
		n[n[x].parent].right = y;
	else
		n[n[x].parent].left = y;
	n[y].right = x;
	n[x].parent = y;
}

int symtree__insert(struct symtree *t, struct symbol *sym)
{
	struct symtree_node *n;
	int z, p = NIL, cur;

	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256;
		struct symtree_node *nn = realloc(t->n, alloc * sizeof(*nn));

		if (!nn)
			return -ENOMEM;
		t->n = nn;
		t->alloc = alloc;
	}
	n = t->n;
	z = t->nr++;
	/* equal starts go right, as in perf's __symbols__insert() */
	for (cur = t->root; cur != NIL;) {
		p = cur;
		cur = sym->start < n[cur].sym->start ? n[cur].left : n[cur].right;
	}
	n[z] =
	    (struct symtree_node){.sym = sym, .left = NIL, .right = NIL, .parent = p, .red = true};
	if (p == NIL)
		t->root = z;
	else if (sym->start < n[p].sym->start)
		n[p].left = z;
	else
		n[p].right = z;

	while (is_red(t, n[z].parent)) {
		int zp = n[z].parent, g = n[zp].parent, u;

		if (zp == n[g].left) {
			u = n[g].right;
			if (is_red(t, u)) {
				n[zp].red = n[u].red = false;
				n[g].red = true;
				z = g;
				continue;
			}
			if (z == n[zp].right) {
				z = zp;
				rotate_left(t, z);
				zp = n[z].parent;
			}
			n[zp].red = false;
			n[g].red = true;
			rotate_right(t, g);
		} else {
			u = n[g].left;
			if (is_red(t, u)) {
				n[zp].red = n[u].red = false;
				n[g].red = true;
				z = g;
				continue;
			}
			if (z == n[zp].left) {
				z = zp;
				rotate_right(t, z);
				zp = n[z].parent;
			}
			n[zp].red = false;
			n[g].red = true;
			rotate_left(t, g);
		}
	}
	n[t->root].red = false;
	return (int)(t->nr - 1);
}

static void transplant(struct symtree *t, int u, int v)
{
	struct symtree_node *n = t->n;

	if (n[u].parent == NIL)
		t->root = v;
	else if (u == n[n[u].parent].left)
		n[n[u].parent].left = v;
	else
		n[n[u].parent].right = v;
	if (v != NIL)
		n[v].parent = n[u].parent;
}

static void erase_fixup(struct symtree *t, int x, int xp)
{
	struct symtree_node *n = t->n;

	while (x != t->root && !is_red(t, x)) {
		int w;

		if (x == n[xp].left) {
			w = n[xp].right;
			if (is_red(t, w)) {
				n[w].red = false;
				n[xp].red = true;
				rotate_left(t, xp);
				w = n[xp].right;
			}
			if (!is_red(t, n[w].left) && !is_red(t, n[w].right)) {
				n[w].red = true;
				x = xp;
				xp = n[x].parent;
				continue;
			}
			if (!is_red(t, n[w].right)) {
				n[n[w].left].red = false;
				n[w].red = true;
				rotate_right(t, w);
				w = n[xp].right;
			}
			n[w].red = n[xp].red;
			n[xp].red = false;
			if (n[w].right != NIL)
				n[n[w].right].red = false;
			rotate_left(t, xp);
		} else {
			w = n[xp].left;
			if (is_red(t, w)) {
				n[w].red = false;
				n[xp].red = true;
				rotate_right(t, xp);
				w = n[xp].left;
			}
			if (!is_red(t, n[w].left) && !is_red(t, n[w].right)) {
				n[w].red = true;
				x = xp;
				xp = n[x].parent;
				continue;
			}
			if (!is_red(t, n[w].left)) {
				n[n[w].right].red = false;
				n[w].red = true;
				rotate_left(t, w);
				w = n[xp].left;
			}
			n[w].red = n[xp].red;
			n[xp].red = false;
			if (n[w].left != NIL)
				n[n[w].left].red = false;
			rotate_right(t, xp);
		}
		x = t->root;
		break;
	}
	if (x != NIL)
		n[x].red = false;
}

void symtree__erase(struct symtree *t, int z)
{
	struct symtree_node *n = t->n;
	bool removed_red = n[z].red;
	int x, xp;

	if (n[z].left == NIL) {
		x = n[z].right;
		xp = n[z].parent;
		transplant(t, z, x);
	} else if (n[z].right == NIL) {
		x = n[z].left;
		xp = n[z].parent;
		transplant(t, z, x);
	} else {
		int y = n[z].right;

		while (n[y].left != NIL)
			y = n[y].left;
		removed_red = n[y].red;
		x = n[y].right;
		if (n[y].parent == z) {
			xp = y;
		} else {
			xp = n[y].parent;
			transplant(t, y, x);
			n[y].right = n[z].right;
			n[n[y].right].parent = y;
		}
		transplant(t, z, y);
		n[y].left = n[z].left;
		n[n[y].left].parent = y;
		n[y].red = n[z].red;
	}
	n[z].left = n[z].right = n[z].parent = NIL;
	n[z].sym = NULL;
	if (!removed_red)
		erase_fixup(t, x, xp);
}

/* node indices in order (ascending start, equal starts in insertion order) */
size_t symtree__inorder(const struct symtree *t, int *out)
{
	int stack[128]; /* a red-black tree is at most 2 log2(n + 1) high */
	size_t nr = 0, depth = 0;
	int cur = t->root;

	while (cur != NIL || depth) {
		while (cur != NIL && depth < ARRAY_SIZE(stack)) {
			stack[depth++] = cur;
			cur = t->n[cur].left;
		}
		cur = stack[--depth];
		out[nr++] = cur;
		cur = t->n[cur].right;
	}
	return nr;
}

/* perf's symbols__find(): the first node on the search path holding @addr */
struct symbol *symtree__find(const struct symtree *t, u64 addr)
{
	int cur = t->root;

	while (cur != NIL) {
		const struct symbol *s = t->n[cur].sym;

		if (addr < s->start)
			cur = t->n[cur].left;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			cur = t->n[cur].right;
		else
			return t->n[cur].sym;
	}
	return NULL;
}

/* black height of the subtree at @i, or -1 when a red-black rule is broken */
static int symtree__check_node(const struct symtree *t, int i, int parent)
{
	const struct symtree_node *c;
	int lh, rh;

	if (i == NIL)
		return 1;
	c = &t->n[i];
	if (c->parent != parent)
		return -1;
	if (c->red && (is_red(t, c->left) || is_red(t, c->right)))
		return -1;
	if (c->left != NIL && t->n[c->left].sym->start > c->sym->start)
		return -1;
	if (c->right != NIL && t->n[c->right].sym->start < c->sym->start)
		return -1;
	lh = symtree__check_node(t, c->left, i);
	rh = symtree__check_node(t, c->right, i);
	if (lh < 0 || lh != rh)
		return -1;
	return lh + !c->red;
}

int symtree__check(const struct symtree *t)
{
	if (is_red(t, t->root))
		return -1;
	return symtree__check_node(t, t->root, NIL);
}
