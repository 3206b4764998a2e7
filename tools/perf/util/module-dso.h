/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __PERF_TEXTPOKE_MODULE_DSO_H
#define __PERF_TEXTPOKE_MODULE_DSO_H

#include "module-events.h"

struct dso;

/*
 * One allocation @range (core or init) of a module loaded while
 * recording, as the object samples and pokes there resolve to: named
 * "[name]" as perf names modules, with the symbols of its kallsyms lines
 * that lie in @range, kept relative to @range->addr (the map's start, as
 * the machine keeps every module's).  A reference the caller puts, NULL
 * on -ENOMEM.  No kallsyms lines: an object without symbols.
 */
struct dso *module_load__dso(const struct module_load *ml, const struct module_range *range);

#endif /* __PERF_TEXTPOKE_MODULE_DSO_H */
