/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctime(): seconds since the epoch as SystemTap's 24-character date,
 * "Wed Jun 30 21:49:08 1993", always GMT.  Portable: builds in the
 * kernel and in user space.
 */
#ifndef TAPC_RUNTIME_TAPSET_CTIME_H
#define TAPC_RUNTIME_TAPSET_CTIME_H

#include "port.h"

/* SystemTap's errors for times a 32-bit time_t cannot hold. */
#define TAP_CTIME_ERR_FUTURE	"Time too far in the future to be converted"
#define TAP_CTIME_ERR_PAST	"Time too far in the past to be converted"

/**
 * tap_ctime() - the date of @secs into @out (@size bytes, 25 needed).
 *
 * Only -2^31 <= @secs < 2^31 are converted, as SystemTap does.
 *
 * Return: NULL, or TAP_CTIME_ERR_FUTURE or TAP_CTIME_ERR_PAST (@out is
 * then "").  A @size below 25 cuts the date to @size - 1 bytes.
 */
const char *tap_ctime(char *out, size_t size, s64 secs);

#endif /* TAPC_RUNTIME_TAPSET_CTIME_H */
