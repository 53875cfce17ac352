// SPDX-License-Identifier: GPL-2.0
/*
 * The regular expression matcher: a Pike VM over the programs of
 * src/regcomp.c.  Threads advance together one subject byte at a time;
 * at most one thread sits on each instruction, the one of highest
 * priority, so a match costs O(subject length * program size) time and
 * exactly the state tap_regex_scratch_ints() says, all of it in the
 * caller's scratch area.  The closure over empty transitions uses an
 * explicit stack, never recursion.
 *
 * Which match is reported follows SystemTap's tagged DFA: the first match
 * to end wins (the leftmost start among those ending there); it then
 * grows while a match with the same start ends later.  A thread of
 * higher priority ending at the same place hides the others, as the
 * DFA's one accepting thread per state does.
 */
#include "port.h"
#include "regexec.h"

/* A list of threads: n entries of one instruction index and its slots. */
struct tap_re_list {
	int *t;
	int n;
};

struct tap_re_vm {
	const struct tap_regex *re;
	const unsigned char *s;
	int len;
	int nslots;
	int *mark;		/* per instruction: 1 + the position it was visited at */
	int *stack;		/* closure stack: (slot or -1, value) pairs */
	int *work;		/* the slots of the thread being followed */
	int *best;		/* the slots of the match kept so far */
	int have;		/* best holds a match */
};

static int tap_re_valid(const struct tap_regex *re)
{
	unsigned int i, nconsume = 0;

	if (!re->prog || re->ninsn == 0 || re->nsub == 0)
		return 0;
	for (i = 0; i < re->ninsn; i++) {
		const struct tap_regex_insn *in = &re->prog[i];

		switch (in->op) {
		case TAP_RE_CLASS:
			if (!re->classes || in->arg >= re->nclasses)
				return 0;
			nconsume++;
			break;
		case TAP_RE_CHAR:
			nconsume++;
			break;
		case TAP_RE_SPLIT:
			if (in->y >= re->ninsn)
				return 0;
			break;
		case TAP_RE_SAVE:
			if (in->arg >= 2 * re->nsub)
				return 0;
			break;
		case TAP_RE_JMP:
		case TAP_RE_BOL:
		case TAP_RE_EOL:
			break;
		case TAP_RE_MATCH:
			continue;
		default:
			return 0;
		}
		if (in->x >= re->ninsn)
			return 0;
	}
	return nconsume == re->nconsume;
}

static int tap_re_consumes(const struct tap_regex *re,
			   const struct tap_regex_insn *in, unsigned char ch)
{
	if (in->op == TAP_RE_CHAR)
		return in->arg == ch;
	return (re->classes[in->arg][ch >> 3] >> (ch & 7)) & 1;
}

/* A thread reached the end of the pattern at position q. */
static void tap_re_found(struct tap_re_vm *vm)
{
	int *w = vm->work, *b = vm->best, i;

	if (vm->have && (w[0] != b[0] || w[1] - w[0] <= b[1] - b[0]))
		return;
	for (i = 0; i < vm->nslots; i++)
		b[i] = w[i];
	vm->have = 1;
}

/*
 * Follow the empty transitions from instruction pc at position q, in
 * priority order, adding a thread to @l at each byte-consuming
 * instruction not yet visited at q.  @caps: the slots the thread starts
 * with (NULL: all unset).
 */
static void tap_re_add(struct tap_re_vm *vm, struct tap_re_list *l, int pc,
		       const int *caps, int q)
{
	const struct tap_regex_insn *prog = vm->re->prog;
	int *st = vm->stack, *w = vm->work;
	int sp = 0, gen = q + 1, i;

	for (i = 0; i < vm->nslots; i++)
		w[i] = caps ? caps[i] : -1;
	st[sp++] = -1;
	st[sp++] = pc;
	while (sp > 0) {
		int slot, val;

		sp -= 2;
		slot = st[sp];
		val = st[sp + 1];
		if (slot >= 0) {	/* leaving a SAVE: undo it */
			w[slot] = val;
			continue;
		}
		for (pc = val; pc >= 0 && vm->mark[pc] != gen; ) {
			const struct tap_regex_insn *in = &prog[pc];
			int *t;

			vm->mark[pc] = gen;
			switch (in->op) {
			case TAP_RE_JMP:
				pc = in->x;
				break;
			case TAP_RE_SPLIT:
				st[sp++] = -1;
				st[sp++] = in->y;
				pc = in->x;
				break;
			case TAP_RE_SAVE:
				st[sp++] = in->arg;
				st[sp++] = w[in->arg];
				w[in->arg] = q;
				pc = in->x;
				break;
			case TAP_RE_BOL:
				pc = q == 0 ? (int)in->x : -1;
				break;
			case TAP_RE_EOL:
				pc = q == vm->len ? (int)in->x : -1;
				break;
			case TAP_RE_MATCH:
				tap_re_found(vm);
				pc = -1;
				break;
			default:	/* CHAR, CLASS: wait for the next byte */
				t = l->t + l->n++ * (1 + vm->nslots);
				t[0] = pc;
				for (i = 0; i < vm->nslots; i++)
					t[1 + i] = w[i];
				pc = -1;
				break;
			}
		}
	}
}

/* Carve the state out of the scratch area; 0 if it does not fit. */
static int tap_re_layout(struct tap_re_vm *vm, int *scratch,
			 unsigned long scratch_size, struct tap_re_list *a,
			 struct tap_re_list *b)
{
	const struct tap_regex *re = vm->re;
	unsigned long need = tap_regex_scratch_ints(re->ninsn, re->nconsume,
						    re->nsub);
	unsigned long list = (unsigned long)re->nconsume * (1 + vm->nslots);
	int *p = scratch;

	if (need > scratch_size / sizeof(int))
		return 0;
	vm->mark = p;
	p += re->ninsn;
	vm->stack = p;
	p += 2 * (re->ninsn + 1);
	a->t = p;
	p += list;
	b->t = p;
	p += list;
	vm->work = p;
	p += vm->nslots;
	vm->best = p;
	a->n = b->n = 0;
	return 1;
}

int tap_regex_exec(const struct tap_regex *re, const char *s, int len,
		   int *scratch, unsigned long scratch_size, int *caps)
{
	struct tap_re_vm vm = { .re = re, .s = (const unsigned char *)s };
	struct tap_re_list la, lb, *cl = &la, *nl = &lb, *tmp;
	unsigned int i;
	int p, k;

	if (!tap_re_valid(re))
		return -1;
	vm.nslots = 2 * re->nsub;
	if (!tap_re_layout(&vm, scratch, scratch_size, &la, &lb))
		return -1;
	for (vm.len = 0; vm.len < len && s[vm.len]; vm.len++)
		;
	for (i = 0; i < re->ninsn; i++)
		vm.mark[i] = 0;

	tap_re_add(&vm, cl, 0, NULL, 0);
	for (p = 0; p < vm.len && (cl->n > 0 || !vm.have); p++) {
		nl->n = 0;
		for (k = 0; k < cl->n; k++) {
			int *t = cl->t + k * (1 + vm.nslots);
			const struct tap_regex_insn *in = &re->prog[t[0]];

			/* a later start can no longer be reported */
			if (vm.have && t[1] > vm.best[0])
				continue;
			if (tap_re_consumes(re, in, vm.s[p]))
				tap_re_add(&vm, nl, in->x, t + 1, p + 1);
		}
		if (!vm.have)	/* a new start, of the lowest priority */
			tap_re_add(&vm, nl, 0, NULL, p + 1);
		tmp = cl;
		cl = nl;
		nl = tmp;
	}
	if (!vm.have)
		return 0;
	for (k = 0; k < vm.nslots; k++)
		caps[k] = vm.best[k];
	return 1;
}
