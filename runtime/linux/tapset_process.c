// SPDX-License-Identifier: GPL-2.0
/*
 * The current process's command line and environment (cmdline_str(),
 * cmdline_args(), env_var()), its CPU times, and the load average.  The
 * strings live in the process's memory between mm->arg_start and
 * arg_end (env_start, env_end), NUL-separated; they are read with the
 * no-fault user copy, a piece at a time, so that an argument longer than
 * a string is skipped correctly, and a page the process has not faulted
 * in reads as the end, never sleeps.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sched/loadavg.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "tap_internal.h"

/* Bytes read from user memory at a time: from the per-CPU scratch. */
#define PIECE 256

/*
 * Call @byte for each byte of [@start, @end) of the current process's
 * memory, and once with -1 at the end, until it returns false.  Return:
 * false when the memory could not be read (nothing more is called).
 */
static bool walk_user(unsigned long start, unsigned long end,
		      bool (*byte)(void *arg, int ch), void *arg)
{
	char piece[PIECE];
	unsigned long at;

	for (at = start; at < end; at += PIECE) {
		size_t n = min_t(unsigned long, end - at, PIECE), i;

		if (copy_from_user_nofault(piece, (const void __user *)at, n))
			return false;
		for (i = 0; i < n; i++)
			if (!byte(arg, (unsigned char)piece[i]))
				return true;
	}
	byte(arg, -1);
	return true;
}

/* cmdline_args(): arguments @first..@last (all from @first when @last <
 * @first) joined with @delim. */
struct args_walk {
	char *out;
	size_t len;
	long long index, first, last;
	const char *delim;
	bool in_arg;		/* a byte of the current argument was seen */
};

static void args_append(struct args_walk *w, const char *s, size_t n)
{
	size_t room = MAXSTRINGLEN - 1 - w->len;

	n = min(n, room);
	memcpy(w->out + w->len, s, n);
	w->len += n;
	w->out[w->len] = '\0';
}

static bool args_byte(void *arg, int ch)
{
	struct args_walk *w = arg;
	bool all = w->last < w->first;
	bool wanted = w->index >= w->first && (all || w->index <= w->last);

	if (ch < 0)		/* the end of the area */
		return false;
	if (!w->in_arg) {	/* an argument begins, maybe an empty one */
		w->in_arg = true;
		if (wanted && w->index > w->first)
			args_append(w, w->delim, strlen(w->delim));
	}
	if (ch == 0) {
		w->in_arg = false;
		w->index++;
		return all || w->index <= w->last;
	}
	if (wanted) {
		char c = ch;

		args_append(w, &c, 1);
	}
	return true;
}

void tapset_cmdline_args(char *out, long long first, long long last,
			 const char *delim)
{
	struct mm_struct *mm = current->mm;
	struct args_walk w = {
		.out = out, .first = first, .last = last, .delim = delim,
	};

	out[0] = '\0';
	if (!mm || (current->flags & PF_KTHREAD) || first < 0)
		return;
	if (!walk_user(mm->arg_start, mm->arg_end, args_byte, &w))
		out[0] = '\0';
}

/* env_var(): the value of the first NAME=VALUE entry. */
struct env_walk {
	char *out;
	const char *name;
	size_t name_len, pos, len;
	enum { ENV_NAME, ENV_VALUE, ENV_SKIP } state;
};

static bool env_byte(void *arg, int ch)
{
	struct env_walk *w = arg;

	if (ch <= 0) {
		if (w->state == ENV_VALUE)
			return false;
		w->state = ENV_NAME;
		w->pos = 0;
		return ch == 0;
	}
	switch (w->state) {
	case ENV_NAME:
		if (w->pos == w->name_len && ch == '=')
			w->state = ENV_VALUE;
		else if (w->pos < w->name_len && ch == w->name[w->pos])
			w->pos++;
		else
			w->state = ENV_SKIP;
		break;
	case ENV_VALUE:
		if (w->len < MAXSTRINGLEN - 1) {
			w->out[w->len++] = ch;
			w->out[w->len] = '\0';
		}
		break;
	case ENV_SKIP:
		break;
	}
	return true;
}

void tapset_env_var(char *out, const char *name)
{
	struct mm_struct *mm = current->mm;
	struct env_walk w = { .out = out, .name = name };

	out[0] = '\0';
	w.name_len = strlen(name);
	if (!mm || (current->flags & PF_KTHREAD) || !w.name_len)
		return;
	if (!walk_user(mm->env_start, mm->env_end, env_byte, &w))
		out[0] = '\0';
}

/* The load average in the kernel's fixed point, rounded as /proc/loadavg. */
static unsigned long loadavg_rounded(int index)
{
	return avenrun[index] + FIXED_1 / 200;
}

long long tapset_loadavg_index(struct tap_context *c, long long index)
{
	if (index < 0 || index > 2) {
		tap_errorf(c, "Invalid loadavg index %lld specified.", index);
		return 0;
	}
	return LOAD_INT(loadavg_rounded(index));
}

void tapset_sprint_loadavg(char *out)
{
	unsigned long a = loadavg_rounded(0), b = loadavg_rounded(1),
		      c = loadavg_rounded(2);

	snprintf(out, MAXSTRINGLEN, "%lu.%02lu %lu.%02lu %lu.%02lu\n",
		 LOAD_INT(a), LOAD_FRAC(a), LOAD_INT(b), LOAD_FRAC(b),
		 LOAD_INT(c), LOAD_FRAC(c));
}
