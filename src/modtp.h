/* Which kernel modules define which tracepoints.
 *
 * A module's tracepoints are named in its "__tracepoints_strings" section
 * (one NUL-terminated name per tracepoint); that is cheap to read from
 * every module of a release, where loading each module's BTF is not.
 * Pass 2 reads it when a kernel.trace pattern may match module events,
 * and loads the BTF of the modules whose events match (kinfo.h).
 */
#ifndef TAPC_MODTP_H
#define TAPC_MODTP_H

#include <stddef.h>

struct modtp_event {
	const char *event;	/* rpc_task_begin */
	const char *module;	/* sunrpc */
};

struct modtp_index;

/* The tracepoints of the modules NAMES[i] in files DIR/PATHS[i] (N of
 * them; .ko, or compressed as kimage reads them).  A file that cannot be
 * read adds nothing. */
struct modtp_index *modtp_scan(const char *dir, const char *const *names,
			       const char *const *paths, size_t n);
void modtp_free(struct modtp_index *idx);
size_t modtp_count(const struct modtp_index *idx);
/* Sorted by event name. */
const struct modtp_event *modtp_at(const struct modtp_index *idx, size_t i);

#endif
