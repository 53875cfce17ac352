/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tapc_regex.h - regular expressions (=~, !~, matched()) as generated code
 * sees them.  Included by tapc_runtime.h; no kernel headers.
 *
 * tapc compiles each regular expression literal in user space (pass 3,
 * src/regcomp.c) into a program it emits as constant C data; the matcher
 * (runtime/core/regexec.c) runs that program in the kernel in time linear
 * in the subject and with memory fixed at compile time: no recursion, no
 * allocation.  The program is a Pike VM: a thread is a position in the
 * program plus the capture offsets it has seen, and every thread moves
 * one subject byte at a time, in priority order.
 */
#ifndef TAPC_REGEX_H
#define TAPC_REGEX_H

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif

/* Capture groups kept for matched(): group 0 is the whole match. */
#define TAP_REGEX_MAXSUB 32

/*
 * Bytes of matching state per CPU (in struct tap_regmatch).  tapc refuses
 * a regular expression whose program needs more; a module built with a
 * smaller -DTAP_REGEX_SCRATCH raises an error when such a match runs.
 */
#ifndef TAP_REGEX_SCRATCH
#define TAP_REGEX_SCRATCH 16384
#endif

/* The instructions of a compiled program. */
enum tap_regex_op {
	TAP_RE_CHAR = 1,	/* the byte arg, then go to x */
	TAP_RE_CLASS = 2,	/* a byte in class arg, then go to x */
	TAP_RE_SPLIT = 3,	/* go to x, and at lower priority to y */
	TAP_RE_JMP = 4,		/* go to x */
	TAP_RE_SAVE = 5,	/* capture slot arg = position, go to x */
	TAP_RE_BOL = 6,		/* only at the start of the subject; go to x */
	TAP_RE_EOL = 7,		/* only at its end; go to x */
	TAP_RE_MATCH = 8,	/* a match ends here */
};

struct tap_regex_insn {
	unsigned short op;	/* enum tap_regex_op */
	unsigned short arg;	/* byte, class index or capture slot */
	unsigned int x, y;	/* targets */
};

/* A compiled regular expression, emitted by the translator as data. */
struct tap_regex {
	const char *pattern;			/* the literal, for messages */
	const struct tap_regex_insn *prog;	/* starts at prog[0] */
	unsigned int ninsn;
	const unsigned char (*classes)[32];	/* 256-bit byte sets */
	unsigned int nclasses;
	unsigned int nsub;		/* groups, group 0 included */
	unsigned int nconsume;		/* CHAR and CLASS instructions */
	unsigned int scratch;		/* bytes of state a match needs */
};

/*
 * The state a match needs, in ints: a visit mark per instruction, the
 * closure's stack (two ints an entry, one entry per SPLIT or SAVE plus
 * the first), two thread lists (an instruction and its capture slots per
 * consuming instruction), and the working and best capture slots.  The
 * compiler and the matcher both size it here.
 */
static inline unsigned long tap_regex_scratch_ints(unsigned long ninsn,
						   unsigned long nconsume,
						   unsigned long nsub)
{
	unsigned long nslots = 2 * nsub;

	return ninsn + 2 * (ninsn + 1) + 2 * nconsume * (1 + nslots) +
	       2 * nslots;
}

/*
 * The last =~ / !~ of this CPU, for matched().  As in SystemTap it lives
 * in the probe context and is not reset between hits: a failed match
 * clears valid but keeps nsub of the last successful one.
 */
struct tap_regmatch {
	int valid;			/* the last match succeeded */
	int nsub;			/* groups of the last successful match */
	int caps[2 * TAP_REGEX_MAXSUB];	/* start, end of each group; -1 unset */
	char subject[MAXSTRINGLEN];	/* a copy of the matched string */
	/* the matcher's state (ints, aligned) */
	int scratch[TAP_REGEX_SCRATCH / sizeof(int)];
};

struct tap_context;

/*
 * subject =~ re: 1 on a match, else 0.  Records the subject and the group
 * offsets in c->regmatch for matched().  Raises an error (and returns 0)
 * only if the program needs more state than TAP_REGEX_SCRATCH.
 */
int tap_regex_match(struct tap_context *c, const struct tap_regex *re,
		    const char *subject);

/*
 * matched(n): group @n of the last successful match into @out
 * (MAXSTRINGLEN bytes; "" for a group that did not take part).  Raises
 * SystemTap's errors ("Attempted to get nonexistent subexpression N",
 * "Attempted to get subexpression N from failed match") and returns
 * nonzero after one.
 */
int tap_regex_matched(struct tap_context *c, long long n, char *out);

/*
 * ngroups(): the groups of the last successful match, group 0 included;
 * raises "Attempted to get subexpression count from failed match" if the
 * last match failed.
 */
long long tap_regex_ngroups(struct tap_context *c);

#endif /* TAPC_REGEX_H */
