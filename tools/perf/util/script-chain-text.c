// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lines of recorded callchains, kept whole (script-chain-text.h): a
 * table of pairs of slots, a pair per hash, a new chain taking the slot
 * of its pair that was not found last.  Each slot owns a copy of its
 * chain's addresses and lines in one allocation; the table and the
 * lines kept are bounded (SLOTS, TEXT_MAX), whatever the recording.
 *
 * The hash leaves the event's address out (it is compared all the
 * same): with it, which chains shared a slot, and so the share of
 * chains found, moved with where the heap put things (3% of a run's
 * instructions, between two builds that only differed elsewhere).
 */
#include <stdlib.h>
#include <string.h>

#include "script-chain-text.h"

#define SLOTS 4096
/* a chain's lines at most: most chains' are well under; longer ones are printed each time */
#define TEXT_MAX 1536

struct chain_slot {
	const void *evsel;
	struct chain_gen gen;
	u64 hash, nr;
	size_t len;
	u64 *ips; /* nr addresses, then len bytes of lines; NULL: empty */
};

struct script_chains {
	struct chain_slot slots[SLOTS];
	/* per pair: which of its two slots was found last */
	unsigned char recent[SLOTS / 2];
};

void script_chain_key__hash(struct script_chain_key *k)
{
	u64 h = (k->gen.user * 0x9e3779b97f4a7c15ULL ^ k->gen.kernel * 0xc4ceb9fe1a85ec53ULL ^
		 k->gen.spans ^ k->nr) *
		0xff51afd7ed558ccdULL;

	for (u64 i = 0; i < k->nr; i++)
		h = (h ^ k->ips[i]) * 0x100000001b3ULL;
	k->hash = h ^ (h >> 29);
}

struct script_chains *script_chains__new(void)
{
	return calloc(1, sizeof(struct script_chains));
}

void script_chains__delete(struct script_chains *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < SLOTS; i++)
		free(c->slots[i].ips);
	free(c);
}

static bool slot__is(const struct chain_slot *s, const struct script_chain_key *k)
{
	return s->ips && s->hash == k->hash && s->nr == k->nr && s->evsel == k->evsel &&
	       s->gen.user == k->gen.user && s->gen.kernel == k->gen.kernel &&
	       s->gen.spans == k->gen.spans && !memcmp(s->ips, k->ips, k->nr * sizeof(*k->ips));
}

const char *script_chains__find(struct script_chains *c, const struct script_chain_key *k,
				size_t *len)
{
	size_t pair = k->hash & (SLOTS / 2 - 1);
	struct chain_slot *s = &c->slots[2 * pair];

	if (!slot__is(s, k) && !slot__is(++s, k))
		return NULL;
	c->recent[pair] = s - &c->slots[2 * pair];
	*len = s->len;
	return (const char *)(s->ips + s->nr);
}

void script_chains__keep(struct script_chains *c, const struct script_chain_key *k,
			 const char *text, size_t len)
{
	size_t pair = k->hash & (SLOTS / 2 - 1);
	struct chain_slot *s = &c->slots[2 * pair + !c->recent[pair]];
	u64 *ips;

	if (len > TEXT_MAX || k->nr > TEXT_MAX)
		return;
	ips = malloc(k->nr * sizeof(*ips) + len + 1);
	if (!ips)
		return;
	memcpy(ips, k->ips, k->nr * sizeof(*ips));
	memcpy(ips + k->nr, text, len);
	free(s->ips);
	*s = (struct chain_slot){
	    .evsel = k->evsel,
	    .gen = k->gen,
	    .hash = k->hash,
	    .nr = k->nr,
	    .len = len,
	    .ips = ips,
	};
	c->recent[pair] = s - &c->slots[2 * pair];
}
