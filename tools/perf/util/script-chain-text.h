/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_SCRIPT_CHAIN_TEXT_H
#define __PERF_TEXTPOKE_SCRIPT_CHAIN_TEXT_H

/*
 * perf textpoke script: the lines of a recorded callchain, kept whole.  A
 * profile's samples repeat a few thousand chains; a chain's lines are
 * decided by its addresses, what each resolves by (the maps'
 * generations: thread__chain_gen()) and the event whose fields print it,
 * so a chain met again is one copy.
 */
#include <stddef.h>

#include "machine.h"
#include "types.h"

struct script_chain_key {
	const void *evsel;
	struct chain_gen gen;
	const u64 *ips;
	u64 nr;
	u64 hash; /* script_chain_key__hash()'s */
};

void script_chain_key__hash(struct script_chain_key *k);

struct script_chains;

struct script_chains *script_chains__new(void);
void script_chains__delete(struct script_chains *c);
/* the lines kept for @k, NULL: none */
const char *script_chains__find(struct script_chains *c, const struct script_chain_key *k,
				size_t *len);
/* @k's lines are @text (copied; not kept when too long or out of memory) */
void script_chains__keep(struct script_chains *c, const struct script_chain_key *k,
			 const char *text, size_t len);

#endif /* __PERF_TEXTPOKE_SCRIPT_CHAIN_TEXT_H */
