/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perf.c (the events of every CPU) and perf_task.c (the events of
 * each task of a program: TAP_PERF_TASK) share.
 */
#ifndef TAP_PERF_H
#define TAP_PERF_H

#include <linux/path.h>
#include <linux/perf_event.h>

/* One perf probe: its events on every CPU (NULL when offline), or, with
 * TAP_PERF_TASK, the program whose tasks get one each (perf_task.c). */
struct tap_perf_probe {
	const struct tap_probe *probe;
	struct perf_event **events;
	struct path path;		/* TAP_PERF_TASK: .target's inode */
	bool has_path;			/* false: no such file, no task */
};

void tap_perf_attr(const struct tap_probe *p, struct perf_event_attr *a);
void tap_perf_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs);
/* SystemTap's registration error; the session ends before it begins. */
void tap_perf_fail(const struct tap_probe *p, int ret);

/* The probes of @tps[0..@n) with TAP_PERF_TASK: 0 or -ENOMEM (other
 * failures are reported with tap_perf_fail). */
int tap_perf_task_init(struct tap_perf_probe *tps, unsigned int n);
void tap_perf_task_stop(void);
/* The value of @tp's event in the current task, 0 if it has none;
 * interrupts off. */
u64 tap_perf_task_read(const struct tap_perf_probe *tp);
/* The value of @event, counting on this CPU or in the current task;
 * interrupts off. */
u64 tap_perf_value(struct perf_event *event);

#endif
