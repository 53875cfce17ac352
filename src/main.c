/* tapc: the SystemTap-compatible probe compiler driver. */
#include <stdio.h>

#include "options.h"
#include "passtime.h"
#include "session.h"

int main(int argc, char **argv)
{
	struct tapc_options opts;
	struct session s;
	struct pass_clock clock;
	int status = 1;

	switch (options_parse(&opts, argc, argv)) {
	case OPTIONS_EXIT_OK:
		options_free(&opts);
		return 0;
	case OPTIONS_EXIT_ERROR:
		options_free(&opts);
		return 1;
	case OPTIONS_RUN:
		break;
	}
	if (!session_init(&s, &opts))
		goto out_opts;

	pass_clock_start(&clock);
	if (session_pass1(&s) > 0) {
		fputs("Pass 1: parse failed.\n", stderr);
		goto out;
	}
	if (opts.verbose) {
		char figures[160];

		pass_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 1: parsed user script and %d library "
			"script%s %s\n", s.n_library,
			s.n_library == 1 ? "" : "s", figures);
	}
	if (opts.last_pass == 1)
		session_print_pass1(&s, stdout);
	status = fflush(stdout) == 0 ? 0 : 1;
out:
	session_free(&s);
out_opts:
	options_free(&opts);
	return status;
}
