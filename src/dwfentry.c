/* The -mfentry retry of location-list lookups (dwfentry.h). */
#include "dwfentry.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The length of x86-64's "call __fentry__" that gcc puts first. */
#define FENTRY_CALL_LEN 5

/* What was learnt of the last unit asked about: -L and $$vars ask
 * about many variables of one function in a row. */
struct unit_facts {
	Dwarf *dbg;
	Dwarf_Off cu_off;
	bool mfentry;
	bool have_entries;
	Dwarf_Addr *entries;	/* the entry pcs of the unit's functions */
	size_t n_entries;
};

static struct unit_facts last_unit;

/* Whether a unit's DW_AT_producer says gcc ("GNU <lang> <version> ...")
 * built it with -mfentry; only gcc's record of its options can tell. */
static bool producer_mfentry(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *p = dwarf_formstring(dwarf_attr_integrate(cu, DW_AT_producer, &attr));
	const char *lang, *version;
	size_t vlen;

	if (!p || strncmp(p, "GNU ", 4) != 0)
		return false;
	lang = p + 4;
	version = strchr(lang, ' ');
	if (!version)
		return false;
	version++;
	vlen = strcspn(version, " ");
	if (vlen == 0 || strspn(version, ".0123456789") < vlen)
		return false;
	return strstr(p, "-mfentry") != NULL;
}

bool dwfentry_function_entry(Dwarf_Die *func, Dwarf_Addr *entry)
{
	Dwarf_Addr base, end;

	if (dwarf_entrypc(func, entry) == 0)
		return true;
	return dwarf_ranges(func, 0, &base, entry, &end) > 0;
}

static void collect_entries(struct unit_facts *u, Dwarf_Die *cu)
{
	Dwarf_Die child;
	size_t cap = 0;

	u->have_entries = true;
	if (dwarf_child(cu, &child) != 0)
		return;
	do {
		Dwarf_Addr entry;

		if (dwarf_tag(&child) != DW_TAG_subprogram || !dwfentry_function_entry(&child, &entry))
			continue;
		if (u->n_entries == cap) {
			cap = cap ? 2 * cap : 64;
			u->entries = xrealloc(u->entries, cap * sizeof(*u->entries));
		}
		u->entries[u->n_entries++] = entry;
	} while (dwarf_siblingof(&child, &child) == 0);
}

static struct unit_facts *facts_of(Dwarf_Die *cu)
{
	struct unit_facts *u = &last_unit;
	Dwarf *dbg = dwarf_cu_getdwarf(cu->cu);
	Dwarf_Off off = dwarf_dieoffset(cu);

	if (u->dbg == dbg && u->cu_off == off && dbg)
		return u;
	free(u->entries);
	memset(u, 0, sizeof(*u));
	u->dbg = dbg;
	u->cu_off = off;
	u->mfentry = getenv("PR15123_ASSUME_MFENTRY") || producer_mfentry(cu);
	return u;
}

/* Whether pc is the entry of func (the common case: a function's own
 * probe) or of another function of the unit (a statement or an inline
 * instance at some function's first byte, which SystemTap treats alike). */
static bool at_function_entry(struct unit_facts *u, Dwarf_Die *cu, Dwarf_Die *func,
			      Dwarf_Addr pc)
{
	Dwarf_Addr entry;

	if (dwarf_tag(func) == DW_TAG_subprogram && dwfentry_function_entry(func, &entry) && entry == pc)
		return true;
	if (!u->have_entries)
		collect_entries(u, cu);
	for (size_t i = 0; i < u->n_entries; i++)
		if (u->entries[i] == pc)
			return true;
	return false;
}

int dwfentry_getlocation(Dwarf_Die *func, Dwarf_Attribute *attr, Dwarf_Addr *pc,
			 Dwarf_Op **ops, size_t *n)
{
	Dwarf_Die cu;
	struct unit_facts *u;
	int r = dwarf_getlocation_addr(attr, *pc, ops, n, 1);

	if (r != 0 || getenv("PR15123_DISABLE") ||
	    !dwarf_diecu(func, &cu, NULL, NULL))
		return r;
	u = facts_of(&cu);
	if (!u->mfentry || !at_function_entry(u, &cu, func, *pc))
		return r;
	*pc += FENTRY_CALL_LEN;
	return dwarf_getlocation_addr(attr, *pc, ops, n, 1);
}
