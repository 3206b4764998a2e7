/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_KCORE_COPY_H
#define __PERF_TEXTPOKE_KCORE_COPY_H

/*
 * The starting image of a recording: <dir>/kcore_dir/{kallsyms,modules}
 * copied from /proc, taken after the side-band is enabled so that a poke
 * already present in the copy shows as pre-applied.  Stock perf reads
 * kcore_dir/kallsyms for kernel symbols.
 *
 * Copying kernel text needs /proc/kcore; where it is missing, and for now
 * also where it exists, only the symbols are copied and a one-line notice
 * says so: the text then comes from the pokes alone.
 */
int kcore_dir__write(const char *dir, bool quiet);

#endif /* __PERF_TEXTPOKE_KCORE_COPY_H */
