// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module loaded while recording, as objects with symbols: its kallsyms
 * lines, taken while it was loaded, split between its two allocations.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "debug.h"
#include "dso.h"
#include "input-file.h"
#include "kallsyms.h"
#include "module-dso.h"
#include "symbol.h"

struct module_syms {
	const struct module_load *ml;
	const struct module_range *range;
	struct symbols all;
};

static int module_syms__add(void *arg, const char *name, char type, u64 start, const char *module)
{
	struct module_syms *ms = arg;
	struct symbol *sym;

	if (!module || strcmp(module, ms->ml->name) || !module_range__has(ms->range, start) ||
	    !kallsyms__type_is_symbol(type))
		return 0;
	sym = symbol__new(start - ms->range->addr, 0, kallsyms__binding(type),
			  kallsyms__elf_type(type), name);
	if (!sym || symbols__add(&ms->all, sym)) {
		symbol__delete(sym);
		return -ENOMEM;
	}
	return 0;
}

struct dso *module_load__dso(const struct module_load *ml, const struct module_range *range)
{
	struct module_syms ms = {.ml = ml, .range = range};
	char name[MODULE_NAME_MAX + 2];
	struct dso *dso;
	int err = 0;

	snprintf(name, sizeof(name), "[%s]", ml->name);
	dso = dso__new(name, DSO_KIND__MODULE);
	if (!dso)
		return NULL;
	/* its symbols are these or none: nothing else is to be loaded for it */
	dso->loaded = true;
	if (!ml->kallsyms)
		return dso;
	symbols__init(&ms.all);
	err = kallsyms__parse(ml->kallsyms, &ms, module_syms__add);
	if (err == -ENOMEM) {
		symbols__exit(&ms.all);
		dso__put(dso);
		return NULL;
	}
	if (err < 0)
		pr_warning("%s: %s: module %s has no symbols\n", ml->kallsyms,
			   input_file__strerror(err), ml->name);
	/* ends at the next symbol, the last at the allocation's end */
	symbols__fixup(&ms.all, false);
	for (size_t i = 0; i < ms.all.nr; i++) {
		struct symbol *sym = ms.all.entries[i];

		if (sym->end > range->len || sym->end <= sym->start)
			sym->end = range->len;
		if (symbols__add(&dso->symbols, sym)) {
			/* those not moved yet go with the table */
			memmove(ms.all.entries, ms.all.entries + i, (ms.all.nr - i) * sizeof(sym));
			ms.all.nr -= i;
			symbols__exit(&ms.all);
			dso__put(dso);
			return NULL;
		}
	}
	/* every symbol moved into the dso */
	ms.all.nr = 0;
	symbols__exit(&ms.all);
	symbols__fixup(&dso->symbols, false);
	return dso;
}
