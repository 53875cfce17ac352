/* libFuzzer target for pass 1: lexer, preprocessor and parser.
 *
 * The input is split at its first NUL byte: the part before it is the
 * script, the part after it (if any) is one script argument, so that $1/@1
 * substitution is fuzzed too. Diagnostics go to /dev/null; the fuzzer only
 * looks for crashes, hangs, leaks and undefined behaviour. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "parse.h"

static const char *fake_config(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "CONFIG_SMP") == 0 ? "y" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	const char *nul = memchr(data, '\0', size);
	size_t script_len = nul ? (size_t)(nul - (const char *)data) : size;
	char *arg = NULL;
	char *argv[1];
	struct pass1_env env = {
		.kernel_vr = "6.1.0-57-amd64", .kernel_v = "6.1.0",
		.arch = "x86_64", .runtime = "kernel", .systemtap_v = "4.8",
		.config = fake_config,
	};
	struct diag d;
	struct srcfile *f;
	struct script *sc;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (nul) {
		size_t alen = size - script_len - 1;

		arg = strndup(nul + 1, alen);
		argv[0] = arg;
		env.argc = 1;
		env.argv = argv;
	}
	diag_init(&d);
	d.stream = devnull;
	f = srcfile_new("fuzz.stp", (const char *)data, script_len);
	/* Half of the inputs run privileged, so embedded C is reached too. */
	f->privileged = script_len & 1;
	sc = parse_script(f, &env, &d);
	if (sc)
		script_free(sc);
	srcfile_free(f);
	free(arg);
	return 0;
}
