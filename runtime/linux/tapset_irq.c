// SPDX-License-Identifier: GPL-2.0
/*
 * The irq tapset's irqflags_str(): an interrupt handler's IRQF_* flags
 * as text, with the values of the headers the runtime is built against.
 */
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include "tap_internal.h"

#define IRQF_NAME(flag) { flag, #flag }

static const struct {
	unsigned long mask;
	const char *name;
} irqf_names[] = {
	IRQF_NAME(IRQF_TRIGGER_RISING),
	IRQF_NAME(IRQF_TRIGGER_FALLING),
	IRQF_NAME(IRQF_TRIGGER_HIGH),
	IRQF_NAME(IRQF_TRIGGER_LOW),
	IRQF_NAME(IRQF_TRIGGER_PROBE),
	IRQF_NAME(IRQF_SHARED),
	IRQF_NAME(IRQF_PROBE_SHARED),
	IRQF_NAME(__IRQF_TIMER),
	IRQF_NAME(IRQF_PERCPU),
	IRQF_NAME(IRQF_NOBALANCING),
	IRQF_NAME(IRQF_IRQPOLL),
	IRQF_NAME(IRQF_ONESHOT),
	IRQF_NAME(IRQF_NO_SUSPEND),
	IRQF_NAME(IRQF_FORCE_RESUME),
	IRQF_NAME(IRQF_NO_THREAD),
	IRQF_NAME(IRQF_EARLY_RESUME),
	IRQF_NAME(IRQF_COND_SUSPEND),
#ifdef IRQF_NO_AUTOEN
	IRQF_NAME(IRQF_NO_AUTOEN),
#endif
#ifdef IRQF_NO_DEBUG
	IRQF_NAME(IRQF_NO_DEBUG),
#endif
};

void tapset_irqflags_str(char *out, long long flags)
{
	unsigned long rest = (unsigned long)flags;
	char hex[24];
	size_t i;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(irqf_names); i++) {
		if (!(rest & irqf_names[i].mask))
			continue;
		rest &= ~irqf_names[i].mask;
		if (out[0])
			strlcat(out, "|", MAXSTRINGLEN);
		strlcat(out, irqf_names[i].name, MAXSTRINGLEN);
	}
	if (rest) {
		snprintf(hex, sizeof(hex), out[0] ? "|0x%lx" : "0x%lx", rest);
		strlcat(out, hex, MAXSTRINGLEN);
	}
}
