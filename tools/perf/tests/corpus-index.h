/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_TESTS_CORPUS_INDEX_H
#define __PERF_TEXTPOKE_TESTS_CORPUS_INDEX_H

/*
 * Record counts from the public corpus's INDEX.md, made by an independent
 * walker (not this reader): the records of type @type (as INDEX.md spells
 * it: "SAMPLE", "BPF_EVENT", ...) in file @rel, at top level and inside
 * compressed records together.  -1 when INDEX.md has no section for @rel.
 */
long corpus_index__count(const char *rel, const char *type);

#endif /* __PERF_TEXTPOKE_TESTS_CORPUS_INDEX_H */
