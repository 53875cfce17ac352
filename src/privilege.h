/* Privilege levels, as SystemTap's: what a module may do and who may load
 * it.  The numbers are SystemTap's bits and are recorded in every module
 * (the .tapc_privilege section, read by tapc-run; runtime/tapc_runtime.h
 * has the same numbers as TAP_PR_*), so they never change.
 *
 *   stapusr  begin/end/error/never, timer.*, process.begin/end of the
 *            user's own processes, tapset functions marked unprivileged
 *            or myproc-unprivileged; no embedded C, no -g
 *   stapsys  every probe point and tapset function; no embedded C of the
 *            script's own, no -g
 *   stapdev  anything (the default)
 *
 * A user's credentials are a set of these bits: stapdev membership holds
 * all three, stapsys holds stapsys and stapusr. */
#ifndef TAPC_PRIVILEGE_H
#define TAPC_PRIVILEGE_H

#include <stdbool.h>
#include <string.h>

enum privilege {
	PRIV_NONE = 0,
	PRIV_STAPUSR = 0x2,
	PRIV_STAPSYS = 0x4,
	PRIV_STAPDEV = 0x8,
	PRIV_ALL = PRIV_STAPUSR | PRIV_STAPSYS | PRIV_STAPDEV,
};

/* "stapusr", "stapsys", "stapdev": the highest level in p. */
static inline const char *privilege_name(unsigned p)
{
	if (p & PRIV_STAPDEV)
		return "stapdev";
	if (p & PRIV_STAPSYS)
		return "stapsys";
	if (p & PRIV_STAPUSR)
		return "stapusr";
	return "none";
}

/* The level named name, or PRIV_NONE. */
static inline enum privilege privilege_by_name(const char *name)
{
	if (!strcmp(name, "stapusr"))
		return PRIV_STAPUSR;
	if (!strcmp(name, "stapsys"))
		return PRIV_STAPSYS;
	if (!strcmp(name, "stapdev"))
		return PRIV_STAPDEV;
	return PRIV_NONE;
}

/* Whether credentials have includes every bit of required. */
static inline bool privilege_contains(unsigned have, unsigned required)
{
	return (have & required) == required;
}

/* A module or script at level p is restricted to the user's own
 * processes and the unprivileged tapset functions (stapusr only). */
static inline bool privilege_is_stapusr(unsigned p)
{
	return !(p & (PRIV_STAPDEV | PRIV_STAPSYS));
}

#endif
