/* tapc: the SystemTap-compatible probe compiler driver. */
#include <stdio.h>

#include "elaborate.h"
#include "options.h"
#include "passtime.h"
#include "session.h"

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Pass 2: elaborate; -p2 prints the result. False after errors. */
static bool run_pass2(struct session *s, const struct tapc_options *opts)
{
	struct elab_options eo = {
		.unoptimized = opts->unoptimized,
		.guru = opts->guru,
	};
	struct pass_clock clock;
	struct program *prog;

	pass_clock_start(&clock);
	prog = elaborate(s->user, s->n_user, s->library, s->n_library, &eo,
			 &s->diag);
	if (!prog) {
		fputs("Pass 2: analysis failed.\n", stderr);
		return false;
	}
	if (opts->verbose) {
		char figures[160];
		size_t np = prog->probes.n, nf = prog->functions.n;
		size_t ne = prog->embeds.n, ng = prog->globals.n;

		pass_clock_format(&clock, figures, sizeof(figures));
		fprintf(stderr, "Pass 2: analyzed script: %zu %s, %zu %s, "
			"%zu %s, %zu %s %s\n",
			np, plural(np, "probe", "probes"),
			nf, plural(nf, "function", "functions"),
			ne, plural(ne, "embed", "embeds"),
			ng, plural(ng, "global", "globals"), figures);
	}
	if (opts->last_pass == 2)
		program_print(stdout, prog);
	program_free(prog);
	return true;
}

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
	if (opts.last_pass == 1) {
		session_print_pass1(&s, stdout);
	} else if (!run_pass2(&s, &opts)) {
		goto out;
	}
	status = fflush(stdout) == 0 ? 0 : 1;
out:
	session_free(&s);
out_opts:
	options_free(&opts);
	return status;
}
