/* Command-line parsing for tapc. The letters and their meanings follow
 * stap(1); errors are one line plus a hint, exit status 1. */
#define _GNU_SOURCE	/* strverscmp */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "rtlimits.h"
#include "util.h"
#include "version.h"

static const char usage_text[] =
"Usage: tapc [OPTIONS] FILE [ARGS...]          run a script file\n"
"   or: tapc [OPTIONS] - [ARGS...]             run a script read from stdin\n"
"   or: tapc [OPTIONS] -e SCRIPT [ARGS...]     run a script given inline\n"
"\n"
"ARGS fill $1..$N (as tokens) and @1..@N (as strings); $# and @# count them.\n"
"\n"
"Options:\n"
"  -p NUM         stop after pass NUM: 1 parse, 2 elaborate, 3 translate\n"
"                 (prints the C), 4 build (prints the module's path), 5 run\n"
"  -v             more verbose in every pass; once prints one timing line\n"
"                 per pass\n"
"  --vp ABCDE     add verbosity per pass: digit k to pass k (--vp 0002: pass\n"
"                 4 only, as -vv would)\n"
"  -e SCRIPT      run SCRIPT given on the command line\n"
"  -E SCRIPT      run SCRIPT in addition to the main script\n"
"  -I DIR         look in DIR for additional tapset scripts\n"
"  -R DIR         look in DIR for the runtime\n"
"  -D NAME[=VAL]  pass a -D definition to the module build (limits such as\n"
"                 MAXMAPENTRIES, checked against what the runtime can hold:\n"
"                 see LIMITS in tapc(1))\n"
"  -G NAME=VALUE  set the initial value of global NAME when the module loads\n"
"  -g             guru mode: allow embedded C (%{ %}) in the script\n"
"  -k             keep the temporary build directory\n"
"  -m NAME        name the module NAME (a-z, 0-9, '_')\n"
"  -o FILE        send the script's output to FILE\n"
"  -S SIZE[,N]    with -o: FILE.0, FILE.1, ...: the next file past SIZE MiB,\n"
"                 only the last N kept\n"
"  -F             flight recorder: with -o, once the module runs, tapc-run\n"
"                 goes on in the background and its pid is printed (SIGUSR2\n"
"                 starts the next file, SIGTERM stops the script); without,\n"
"                 the module is left running, keeping its latest output,\n"
"                 until 'tapc-run -A MODULE' attaches (Ctrl-C there stops it)\n"
"  -s NUM         the output buffer is NUM MiB (1-1024; default 256 KiB),\n"
"                 each CPU's with -b\n"
"  -b             bulk mode: an output buffer per CPU, written with -o FILE\n"
"                 to FILE_0, FILE_1, ... (one per CPU; numbered, with -S\n"
"                 or once switched, FILE_cpu0.0, FILE_cpu0.1, ...), without\n"
"                 -o to stpd_cpu0, stpd_cpu1, ... in the current directory\n"
"  -c CMD         run CMD and stop when it exits; target() is its pid\n"
"  -x PID         set target() to PID\n"
"  -r RELEASE|DIR build for kernel RELEASE, or the kernel build tree DIR\n"
"  -t             report hits and cycles per probe at exit\n"
"  -T SECS        stop the script after SECS seconds\n"
"  -w             suppress warnings\n"
"  -W             treat warnings as errors\n"
"  -u             unoptimized: keep unused functions, variables and probes\n"
"  -O LEVEL       optimisation of the generated code: 0, 1, 2, 3 or s\n"
"                 (default 0 for -e scripts, 1 for script files; 0 is -Og\n"
"                 for a script with top-level embedded C)\n"
"  -l PP          list probe points matching PP\n"
"  -L PP          list probe points matching PP with their variables\n"
"  --dump-ast     with -p1: print tapc's canonical syntax tree (it parses\n"
"                 back to itself) instead of SystemTap's parse tree dump\n"
"  --dump-functions  list the tapset library's functions, then quit\n"
"  --dump-probe-types  list the probe point patterns tapc knows, then quit\n"
"  --dump-probe-aliases  list the tapset library's probe aliases, then quit\n"
"  -d PATH        add the symbols and unwind data of user binary PATH (an\n"
"                 executable or shared library) to the module, for user\n"
"                 backtraces and symbols (ubacktrace(), usymname(), ...)\n"
"  --ldd          with -d PATH (and the programs of process(\"PATH\") probes\n"
"                 and -c), also every shared library they need\n"
"  --no-global-var-display  do not print the script's globals at exit\n"
"  --suppress-handler-errors  a probe hit's run-time error ends that hit\n"
"                 quietly; errors and skipped probes are counted (and\n"
"                 reported at exit) but never stop the script\n"
"  --all-modules  symbols and stacks of every loaded kernel module (as\n"
"                 SystemTap's): tapc's modules always have them, from the\n"
"                 running kernel's kallsyms and unwinder\n"
"  --disable-cache  build the module even if the module cache has it, and\n"
"                 do not store it there\n"
"  --poison-cache build the module again and replace its cache entry\n"
"  --clean-cache  trim the module cache to its size limit, then quit\n"
"  --remote=vm    build for the test VM's kernel and run there (see\n"
"                 tapc-vm(1)): in its persistent guest if one runs, else in\n"
"                 a one-shot guest\n"
"  --target-namespaces=PID, --target-namespace=PID  the ns_*() and\n"
"                 task_ns_*() functions answer in\n"
"                 process PID's pid and user namespaces (default: those of\n"
"                 tapc-run, which loads the module)\n"
"  --privilege=stapusr|stapsys|stapdev  check that the script only uses\n"
"                 what users of that level may run (tapc-run(8)); the\n"
"                 module records the level (default stapdev)\n"
"  --unprivileged same as --privilege=stapusr\n"
"  --skip-badvars  a target variable that does not resolve is the number 0,\n"
"                 with a warning, instead of an error (as SystemTap's)\n"
"  --compatible=VERSION  SystemTap language version for systemtap_v\n"
"                 (default " TAPC_COMPAT_VERSION ")\n"
"  -a ARCH        the architecture to build for: only this machine's (x86_64)\n"
"  -B NAME=VALUE  pass NAME=VALUE to kbuild's make (forces a kbuild build;\n"
"                 VALUE of letters, digits and _.,:/+=@- only)\n"
"  --modinfo NAME=VALUE  add MODULE_INFO(NAME, \"VALUE\") to the module\n"
"  --tmpdir=DIR   make the build directory in DIR (as TMPDIR=DIR)\n"
"  --suppress-time-limits  with -g: no MAXACTION budget, MAXTRYLOCK at its\n"
"                 largest (SystemTap's)\n"
"  --check-version  warn of each global, function, alias and probe used\n"
"                 that depends on the language version (a systemtap_v\n"
"                 condition)\n"
"  --color[=WHEN], --colour[=WHEN]  colour diagnostics: never, always (no\n"
"                 WHEN) or auto (the default: when stderr is a terminal);\n"
"                 SYSTEMTAP_COLORS chooses the colours\n"
"  -P, --prologue-searching[=WHEN]  place user-space function probes past\n"
"                 the prologue: always (-P), never, or auto (the default:\n"
"                 in unoptimised code)\n"
"  --runtime=kernel  the only runtime tapc has\n"
"  -h, --help     show this help and exit\n"
"  -V, --version  show the version and exit\n"
"\n"
"Environment: TAPC_TAPSET (main tapset directory), TAPC_RUNTIME (runtime\n"
"directory), TMPDIR (where the build directory goes), XDG_CACHE_HOME (the\n"
"compiled runtime and built modules are cached in $XDG_CACHE_HOME/tapc, else\n"
"~/.cache/tapc, used only when nobody else can write there: see tapc(1)),\n"
"TAPC_RUNTIME_CACHE=0 (compile the runtime into every module\n"
"instead), TAPC_CACHE_MB (the module cache's size limit, default 256),\n"
"TAPC_KBUILD=1 (always build with kbuild, not by replaying its commands),\n"
"SYSTEMTAP_COLORS (--color's colours, as SystemTap's).\n"
"\n"
"SystemTap's -i, -q, --bpf, --runtime=bpf|dyninst, --use-server and the\n"
"other compile-server options, --monitor, --sysroot, --sysenv,\n"
"--save-uprobes, --download-debuginfo, --remote-prefix and --rlimit-* are\n"
"refused by name.\n";

void strlist_add(struct strlist *l, const char *s)
{
	l->items = xrealloc(l->items, sizeof(char *) * (size_t)(l->count + 1));
	l->items[l->count++] = xstrdup(s);
}

void strlist_free(struct strlist *l)
{
	for (int i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->count = 0;
}

static void bad_usage(const char *fmt, const char *arg)
{
	fputs("tapc: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'tapc --help' for more information.\n", stderr);
}

/* A whole decimal number in [min, max], or -1 with errno set. */
static long parse_number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < min || v > max) {
		errno = EINVAL;
		return -1;
	}
	return v;
}

/* NAME or NAME=..., NAME an identifier (C's and the script language's
 * are the same). */
static bool valid_define(const char *d)
{
	const char *p = d;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return *p == '\0' || *p == '=';
}

/* A control character (a newline above all) would end the line of the
 * Kbuild file or module parameter a value goes into. */
static bool has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* Refuse a value with a control character, naming the option (what:
 * "-D definition") and NAME only: the value itself would garble the
 * message. */
static bool control_char_free(const char *what, const char *def)
{
	if (!has_control_char(def))
		return true;
	fprintf(stderr, "tapc: invalid %s of %.*s: its value has a control "
		"character\nTry 'tapc --help' for more information.\n", what,
		(int)strcspn(def, "="), def);
	return false;
}

/* Numbers joined by dots: "4.8", "1.0". */
static bool version_like(const char *v)
{
	if (!isdigit((unsigned char)*v))
		return false;
	for (; *v; v++)
		if (!isdigit((unsigned char)*v) && !(*v == '.' && isdigit((unsigned char)v[1])))
			return false;
	return true;
}

/* --compatible=VERSION: stap refuses a version after its own; tapc also
 * refuses what is not a version at all. */
static bool valid_compatible(const char *v)
{
	if (strverscmp(v, TAPC_COMPAT_VERSION) > 0) {
		fprintf(stderr, "ERROR: systemtap version %s cannot be compatible with "
			"future version %s\n", TAPC_COMPAT_VERSION, v);
		return false;
	}
	if (!version_like(v)) {
		bad_usage("invalid --compatible version '%s' (a SystemTap version such as "
			  TAPC_COMPAT_VERSION ")", v);
		return false;
	}
	return true;
}

/* -m NAME as stap takes it: a trailing ".ko" is dropped, only a-z, 0-9
 * and '_' are allowed, and a name too long for the kernel is cut. */
static bool take_module_name(struct tapc_options *o, const char *arg)
{
	size_t len = strlen(arg);
	char *name;

	if (len > 3 && strcmp(arg + len - 3, ".ko") == 0) {
		len -= 3;
		fprintf(stderr, "Truncating module name to '%.*s'\n", (int)len, arg);
	}
	if (len == 0) {
		fputs("Module name cannot be empty.\n", stderr);
		return false;
	}
	if (strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_") < len) {
		bad_usage("invalid module name '%s' (-m NAME: only a-z, 0-9 and '_')", arg);
		return false;
	}
	if (len > TAPC_MODULE_NAME_MAX) {
		len = TAPC_MODULE_NAME_MAX;
		fprintf(stderr, "Truncating module name to '%.*s'\n", (int)len, arg);
	}
	name = xstrndup(arg, len);
	free(o->module_name);
	o->module_name = name;
	return true;
}

/* -G NAME=VALUE: NAME an identifier, VALUE without spaces or quotes (a
 * module parameter travels in one space-separated string). */
static bool valid_global_setting(const char *g)
{
	const char *eq = strchr(g, '=');

	return eq && eq != g && valid_define(g) &&
	       strpbrk(eq + 1, " \t\n\"") == NULL;
}

/* --privilege=LEVEL and --unprivileged, as stap takes them: a level may be
 * given more than once, but always the same. */
static bool take_privilege(struct tapc_options *o, enum privilege p,
			   const char *arg)
{
	if (p == PRIV_NONE) {
		fprintf(stderr, "Invalid argument '%s' for --privilege.\n", arg);
		return false;
	}
	if (o->privilege_given && o->privilege != p) {
		fputs("Privilege level may be set only once.\n", stderr);
		return false;
	}
	o->privilege = p;
	o->privilege_given = true;
	return true;
}

/*
 * Below stapdev, what the level allows is decided by tapc's own checks on
 * the script, its tapsets and its runtime, so nothing may replace them:
 * no -g, and none of the options and variables SystemTap refuses for such
 * builds (-D, -I, -R; its SYSTEMTAP_TAPSET and SYSTEMTAP_RUNTIME are our
 * TAPC_TAPSET and TAPC_RUNTIME).
 */
static bool privilege_allows(const struct tapc_options *o)
{
	const char *level = privilege_name(o->privilege);
	const char *vars[] = { "TAPC_TAPSET", "TAPC_RUNTIME" };
	char refused[40] = "";

	if (o->privilege == PRIV_STAPDEV)
		return true;
	if (o->guru) {
		fprintf(stderr, "You can't specify -g and --privilege=%s together.\n", level);
		return false;
	}
	if (o->defines.count)
		strcat(refused, "-D");
	if (o->include_dirs.count)
		strcat(refused, *refused ? ", -I" : "-I");
	if (o->runtime_dir)
		strcat(refused, *refused ? ", -R" : "-R");
	if (o->kbuild_vars.count)
		strcat(refused, *refused ? ", -B" : "-B");
	if (o->modinfo.count)
		strcat(refused, *refused ? ", --modinfo" : "--modinfo");
	if (*refused) {
		fprintf(stderr, "You can't specify %s when --privilege=%s is specified.\n",
			refused, level);
		return false;
	}
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (getenv(vars[i])) {
			fprintf(stderr, "You can't set %s when --privilege=%s is specified.\n",
				vars[i], level);
			return false;
		}
	}
	return true;
}

enum { OPT_HELP = 256, OPT_VERSION, OPT_COMPATIBLE, OPT_REMOTE,
       OPT_NO_GLOBAL_VAR_DISPLAY, OPT_DISABLE_CACHE, OPT_CLEAN_CACHE,
       OPT_POISON_CACHE, OPT_PRIVILEGE, OPT_UNPRIVILEGED, OPT_ALL_MODULES,
       OPT_LDD, OPT_TARGET_NAMESPACES, OPT_SKIP_BADVARS,
       OPT_SUPPRESS_HANDLER_ERRORS, OPT_VP,
       OPT_DUMP_FUNCTIONS, OPT_DUMP_PROBE_TYPES, OPT_DUMP_PROBE_ALIASES, OPT_DUMP_AST,
       OPT_MODINFO, OPT_TMPDIR, OPT_SUPPRESS_TIME_LIMITS, OPT_CHECK_VERSION,
       OPT_COLOR, OPT_PROLOGUE, OPT_RUNTIME, OPT_UNSUPPORTED };

static const struct option long_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "compatible", required_argument, NULL, OPT_COMPATIBLE },
	{ "remote", required_argument, NULL, OPT_REMOTE },
	{ "target-namespaces", required_argument, NULL, OPT_TARGET_NAMESPACES },
	{ "no-global-var-display", no_argument, NULL, OPT_NO_GLOBAL_VAR_DISPLAY },
	{ "suppress-handler-errors", no_argument, NULL, OPT_SUPPRESS_HANDLER_ERRORS },
	{ "disable-cache", no_argument, NULL, OPT_DISABLE_CACHE },
	{ "clean-cache", no_argument, NULL, OPT_CLEAN_CACHE },
	{ "poison-cache", no_argument, NULL, OPT_POISON_CACHE },
	{ "privilege", required_argument, NULL, OPT_PRIVILEGE },
	{ "unprivileged", no_argument, NULL, OPT_UNPRIVILEGED },
	{ "all-modules", no_argument, NULL, OPT_ALL_MODULES },
	{ "ldd", no_argument, NULL, OPT_LDD },
	{ "skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS },
	{ "vp", required_argument, NULL, OPT_VP },
	{ "target-namespace", required_argument, NULL, OPT_TARGET_NAMESPACES },
	{ "modinfo", required_argument, NULL, OPT_MODINFO },
	{ "tmpdir", required_argument, NULL, OPT_TMPDIR },
	{ "suppress-time-limits", no_argument, NULL, OPT_SUPPRESS_TIME_LIMITS },
	{ "check-version", no_argument, NULL, OPT_CHECK_VERSION },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ "prologue-searching", optional_argument, NULL, OPT_PROLOGUE },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	/* stap's, which tapc refuses by name (unsupported_reason) */
	{ "bpf", no_argument, NULL, OPT_UNSUPPORTED },
	{ "use-server", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "use-server-on-error", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "list-servers", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "trust-servers", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "remote-prefix", no_argument, NULL, OPT_UNSUPPORTED },
	{ "monitor", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "interactive", no_argument, NULL, OPT_UNSUPPORTED },
	{ "sysroot", required_argument, NULL, OPT_UNSUPPORTED },
	{ "sysenv", required_argument, NULL, OPT_UNSUPPORTED },
	{ "save-uprobes", no_argument, NULL, OPT_UNSUPPORTED },
	{ "download-debuginfo", optional_argument, NULL, OPT_UNSUPPORTED },
	{ "rlimit-as", required_argument, NULL, OPT_UNSUPPORTED },
	{ "rlimit-cpu", required_argument, NULL, OPT_UNSUPPORTED },
	{ "rlimit-nproc", required_argument, NULL, OPT_UNSUPPORTED },
	{ "rlimit-stack", required_argument, NULL, OPT_UNSUPPORTED },
	{ "rlimit-fsize", required_argument, NULL, OPT_UNSUPPORTED },
	{ "dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS },
	{ "dump-ast", no_argument, NULL, OPT_DUMP_AST },
	{ "dump-probe-types", no_argument, NULL, OPT_DUMP_PROBE_TYPES },
	{ "dump-probe-aliases", no_argument, NULL, OPT_DUMP_PROBE_ALIASES },
	{ NULL, 0, NULL, 0 },
};

/* -S SIZE[,N], as SystemTap checks it: digits, then maybe a comma and
 * digits (tapc-run checks that -o comes with it, as staprun does). */
static bool valid_size_option(const char *arg)
{
	size_t n = strspn(arg, "0123456789");

	if (n == 0 || n > 12)
		return false;
	if (arg[n] == '\0')
		return true;
	if (arg[n] != ',')
		return false;
	arg += n + 1;
	n = strspn(arg, "0123456789");
	return n > 0 && n <= 7 && arg[n] == '\0';
}

/* --vp ABCDE: digit k adds to pass k's verbosity (stap's wording). */
static bool take_vp(struct tapc_options *o, const char *arg)
{
	size_t n = strlen(arg);

	if (n < 1 || n > TAPC_LAST_PASS || strspn(arg, "0123456789") != n) {
		fputs("Invalid --vp argument: it takes 1 to 5 digits.\n", stderr);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		o->vp[i] += arg[i] - '0';
	return true;
}

/*
 * Options of stap's that tapc has no counterpart for: named in a clear
 * error, not taken for typing mistakes ("invalid option").  name is the
 * option as given ("--bpf", "-F").
 */
static const struct {
	const char *name;
	const char *why;
} unsupported[] = {
	{ "--bpf", "SystemTap's BPF runtime; tapc builds kernel modules" },
	{ "--runtime=bpf", "SystemTap's BPF runtime; tapc builds kernel modules" },
	{ "--runtime=dyninst", "SystemTap's Dyninst runtime; tapc builds kernel modules" },
	{ "--use-server", "compile servers; tapc builds on this machine" },
	{ "--use-server-on-error", "compile servers; tapc builds on this machine" },
	{ "--list-servers", "compile servers; tapc builds on this machine" },
	{ "--trust-servers", "compile servers; tapc builds on this machine" },
	{ "--remote-prefix", "remote hosts; tapc's one remote is --remote=vm" },
	{ "--monitor", "the monitor mode's status window" },
	{ "--interactive", "the interactive mode" },
	{ "-i", "the interactive mode" },
	{ "--sysroot", "building for another system root" },
	{ "--sysenv", "building for another system root" },
	{ "--save-uprobes", "tapc's user probes use the kernel's uprobes, no uprobes.ko" },
	{ "--download-debuginfo", "downloading debuginfo; see scripts/install-debuginfo" },
	{ "--rlimit-as", "resource limits on the translator" },
	{ "--rlimit-cpu", "resource limits on the translator" },
	{ "--rlimit-nproc", "resource limits on the translator" },
	{ "--rlimit-stack", "resource limits on the translator" },
	{ "--rlimit-fsize", "resource limits on the translator" },
	{ "-q", "the tapset coverage report" },
};

/*
 * -F: SystemTap's flight recorder.  With -o, its file mode: tapc-run -D
 * goes on in the background.  Without, in memory: tapc-run -L leaves the
 * module running, keeping its latest output, for tapc-run -A.
 */
static bool flight_recorder_check(const struct tapc_options *o)
{
	if (!o->flight_recorder)
		return true;
	if (o->command) {
		bad_usage("%s", "You can't specify -c and -F options together.");
		return false;
	}
	return true;
}

static bool refuse_unsupported(const char *name)
{
	const char *why = "SystemTap's";

	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (strcmp(unsupported[i].name, name) == 0)
			why = unsupported[i].why;
	fprintf(stderr, "tapc: option '%s' is not supported by tapc (%s)\n"
		"Try 'tapc --help' for more information.\n", name, why);
	return false;
}

/* --runtime=MODE: the kernel's is tapc's only one. */
static bool take_runtime(const char *arg)
{
	char name[64];

	if (strcmp(arg, "kernel") == 0)
		return true;
	if (strcmp(arg, "bpf") == 0 || strcmp(arg, "dyninst") == 0) {
		snprintf(name, sizeof(name), "--runtime=%s", arg);
		return refuse_unsupported(name);
	}
	/* stap's message */
	fprintf(stderr, "Invalid argument '%s' for --runtime.\n", arg);
	return false;
}

/* -a ARCH: tapc builds for the machine it runs on, as stap does without
 * -a; naming that architecture is fine, another one is cross-compiling. */
static bool take_arch(const char *arg)
{
	struct utsname u;

	if (uname(&u) == 0 && strcmp(arg, u.machine) == 0)
		return true;
	fprintf(stderr, "tapc: -a %s: tapc builds only for this machine's "
		"architecture, %s (no cross-compiling)\nTry 'tapc --help' for more "
		"information.\n", arg, uname(&u) == 0 ? u.machine : "?");
	return false;
}

/* NAME of NAME=VALUE matching [first][rest]* up to the '='; the VALUE,
 * or NULL. */
static const char *name_value(const char *arg, const char *first, const char *rest)
{
	size_t n = strspn(arg, rest);

	if (!arg[0] || !strchr(first, arg[0]) || arg[n] != '=')
		return NULL;
	return arg + n + 1;
}

#define LOWER "abcdefghijklmnopqrstuvwxyz"
#define UPPER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define DIGITS "0123456789"

/*
 * --modinfo NAME=VALUE: stap's pattern, ^[a-z_][a-z0-9_]*=.+$.  VALUE
 * goes into the generated C as a string, so tapc also keeps it to
 * printable characters besides '"' and '\'; and NAME may not be one
 * tapc-run reads from the module (name, parmtype).
 */
static bool take_modinfo(struct tapc_options *o, const char *arg)
{
	const char *val = name_value(arg, LOWER "_", LOWER DIGITS "_");
	int name_len = val ? (int)(val - 1 - arg) : 0;

	if (!val || !*val) {
		fprintf(stderr, "ERROR: Safety pattern mismatch for --modinfo parameter "
			"('%s' vs. '^[a-z_][a-z0-9_]*=.+$')\n", arg);
		return false;
	}
	for (const char *p = val; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e ||
		    *p == '"' || *p == '\\') {
			fprintf(stderr, "tapc: invalid --modinfo value of %.*s: only "
				"printable characters other than '\"' and '\\' (it "
				"becomes a C string)\n", name_len, arg);
			return false;
		}
	}
	if ((name_len == 4 && !strncmp(arg, "name", 4)) ||
	    (name_len == 8 && !strncmp(arg, "parmtype", 8))) {
		fprintf(stderr, "tapc: --modinfo %.*s=...: tapc-run reads that entry "
			"of the module; it cannot be set\n", name_len, arg);
		return false;
	}
	strlist_add(&o->modinfo, arg);
	return true;
}

/*
 * -B NAME=VALUE: one argument of make's command line (never through a
 * shell), where make takes it as a variable assignment.  VALUE may not
 * hold what make would expand or split: letters, digits and _ . , : / + =
 * @ - only (CROSS_COMPILE=x86_64-linux-gnu-, CONFIG_DEBUG_INFO=y).
 */
static bool take_kbuild_var(struct tapc_options *o, const char *arg)
{
	const char *val = name_value(arg, UPPER LOWER "_", UPPER LOWER DIGITS "_");

	if (!val || val[strspn(val, UPPER LOWER DIGITS "_.,:/+=@-")] != '\0') {
		bad_usage("invalid -B '%s' (expected NAME=VALUE, NAME an identifier, "
			  "VALUE of letters, digits and _.,:/+=@- only)", arg);
		return false;
	}
	strlist_add(&o->kbuild_vars, arg);
	return true;
}

/* stap's WHEN: never, always or auto; no WHEN is always. */
static int take_when(const char *arg, const char *option)
{
	if (!arg || strcmp(arg, "always") == 0)
		return 2;
	if (strcmp(arg, "never") == 0)
		return 1;
	if (strcmp(arg, "auto") == 0)
		return 0;
	fprintf(stderr, "Invalid argument '%s' for --%s.\n", arg, option);
	return -1;
}

static bool take_prologue(struct tapc_options *o, const char *arg)
{
	static const enum prologue_mode mode[] = { PROLOGUE_AUTO, PROLOGUE_NEVER,
						    PROLOGUE_ALWAYS };
	int w = take_when(arg, "prologue-searching");

	if (w < 0)
		return false;
	o->prologue = mode[w];
	return true;
}

static bool take_color(struct tapc_options *o, const char *arg)
{
	static const enum color_mode mode[] = { COLOR_AUTO, COLOR_NEVER, COLOR_ALWAYS };
	int w = take_when(arg, "color");

	if (w < 0)
		return false;
	o->color = mode[w];
	return true;
}

/* --tmpdir=DIR: the build directory goes there, as with TMPDIR=DIR (and
 * so through the same checks: made with mkdtemp, a path kbuild takes). */
static bool take_tmpdir(const char *arg)
{
	if (!*arg) {
		bad_usage("%s", "--tmpdir needs a directory");
		return false;
	}
	setenv("TMPDIR", arg, 1);
	return true;
}

/*
 * -s NUM: stap takes 1 to 4095 MiB (its message); tapc's output channel
 * is allocated whole when the module loads (each CPU's in bulk mode),
 * so TAP_BUFFER_SIZE's limit, 1 GiB, bounds it.
 */
#define TAPC_BUFFER_MB_MAX 1024

static bool take_buffer_size(struct tapc_options *o, const char *arg)
{
	long mb = parse_number(arg, 1, 4095);

	if (mb < 0) {
		fputs("Invalid buffer size (should be 1-4095).\n", stderr);
		return false;
	}
	if (mb > TAPC_BUFFER_MB_MAX) {
		fprintf(stderr, "tapc: -s %ld: tapc's output buffer is at most %d MiB "
			"(TAP_BUFFER_SIZE, see LIMITS in tapc(1))\n", mb,
			TAPC_BUFFER_MB_MAX);
		return false;
	}
	o->buffer_mb = mb;
	return true;
}

/* -s, -b and --suppress-time-limits are -D settings of the runtime's; put first, so that an
 * explicit -D TAP_BUFFER_SIZE or TAP_BULK still wins (the last wins). */
static void add_transport_defines(struct tapc_options *o)
{
	struct strlist l = { 0 };
	char def[64];

	if (o->buffer_mb) {
		snprintf(def, sizeof(def), "TAP_BUFFER_SIZE=%ld", o->buffer_mb << 20);
		strlist_add(&l, def);
	}
	if (o->bulk)
		strlist_add(&l, "TAP_BULK=1");
	/* --suppress-time-limits: stap's turns off its action and overload
	 * limits and MAXTRYLOCK; tapc's are these, set to their largest */
	if (o->suppress_time_limits) {
		strlist_add(&l, "MAXACTION=9223372036854775807");
		strlist_add(&l, "MAXACTION_INTERRUPTIBLE=9223372036854775807");
		strlist_add(&l, "MAXTRYLOCK=4294967294");
	}
	for (int i = 0; i < o->defines.count; i++)
		strlist_add(&l, o->defines.items[i]);
	strlist_free(&o->defines);
	o->defines = l;
}

/* Handle one option letter; false after reporting an error. */
/* As stap, a second -l, -L or --dump-* is refused (not the last kept). */
static bool one_listing(struct tapc_options *o)
{
	if (o->listings_given++ == 0)
		return true;
	fputs("ERROR: only one of the -l/-L/--dump-* switches may be specified\n", stderr);
	return false;
}

static bool take_option(struct tapc_options *o, int c, const char *arg,
			int bad_letter)
{
	switch (c) {
	case 'p':
		o->last_pass = (int)parse_number(arg, 1, 5);
		if (o->last_pass < 0) {
			bad_usage("invalid pass number '%s' (should be 1-5)", arg);
			return false;
		}
		o->last_pass_given = true;
		return true;
	case 'v':
		for (int i = 0; i < TAPC_LAST_PASS; i++)
			o->vp[i]++;
		return true;
	case OPT_VP: return take_vp(o, arg);
	case OPT_DUMP_FUNCTIONS: o->dump = DUMP_FUNCTIONS; return one_listing(o);
	case OPT_DUMP_AST: o->dump_ast = true; return true;
	case OPT_DUMP_PROBE_TYPES: o->dump = DUMP_PROBE_TYPES; return one_listing(o);
	case OPT_DUMP_PROBE_ALIASES: o->dump = DUMP_PROBE_ALIASES; return one_listing(o);
	case 'e':
		if (o->script_text) {
			bad_usage("%s", "only one -e SCRIPT may be given (use -E for more)");
			return false;
		}
		o->script_text = arg;
		return true;
	case 'E': strlist_add(&o->extra_scripts, arg); return true;
	case 'I': strlist_add(&o->include_dirs, arg); return true;
	case 'R': o->runtime_dir = arg; return true;
	case 'D':
		if (!valid_define(arg)) {
			bad_usage("invalid -D definition '%s' (expected NAME or NAME=VALUE)", arg);
			return false;
		}
		if (!control_char_free("-D definition", arg))
			return false;
		strlist_add(&o->defines, arg);
		return true;
	case 'G':
		if (valid_define(arg) && !control_char_free("-G setting", arg))
			return false;
		if (!valid_global_setting(arg)) {
			bad_usage("invalid -G setting '%s' (expected NAME=VALUE, the value without spaces or quotes)", arg);
			return false;
		}
		strlist_add(&o->globals, arg);
		return true;
	case 'g': o->guru = true; return true;
	case 'k': o->keep_tmpdir = true; return true;
	case 'm': return take_module_name(o, arg);
	case 'o': o->output_file = arg; return true;
	case 'S':
		if (!valid_size_option(arg)) {
			bad_usage("invalid -S '%s' (expected SIZE[,N]: the file size in MiB, the number of files)", arg);
			return false;
		}
		o->size_option = arg;
		return true;
	case 's': return take_buffer_size(o, arg);
	case 'a': return take_arch(arg);
	case 'B': return take_kbuild_var(o, arg);
	case 'P': o->prologue = PROLOGUE_ALWAYS; return true;
	case 'q': return refuse_unsupported("-q");
	case 'i': return refuse_unsupported("-i");
	case 'F': o->flight_recorder = true; return true;
	case OPT_MODINFO: return take_modinfo(o, arg);
	case OPT_TMPDIR: return take_tmpdir(arg);
	case OPT_SUPPRESS_TIME_LIMITS: o->suppress_time_limits = true; return true;
	case OPT_CHECK_VERSION: o->check_version = true; return true;
	case OPT_COLOR: return take_color(o, arg);
	case OPT_PROLOGUE: return take_prologue(o, arg);
	case OPT_RUNTIME: return take_runtime(arg);
	case 'b': o->bulk = true; return true;
	case 'c': o->command = arg; return true;
	case 'x':
		o->target_pid = parse_number(arg, 1, 0x7fffffffL);
		if (o->target_pid < 0) {
			bad_usage("invalid process id '%s' for -x", arg);
			return false;
		}
		return true;
	case 'r': o->release = arg; return true;
	case 't': o->timing = true; return true;
	case 'T':
		o->timeout_secs = parse_number(arg, 1, 0x7fffffffL);
		if (o->timeout_secs < 0) {
			bad_usage("invalid timeout '%s' for -T (whole seconds, at least 1)", arg);
			return false;
		}
		return true;
	case 'w': o->suppress_warnings = true; return true;
	case 'W': o->warnings_as_errors = true; return true;
	case 'u': o->unoptimized = true; return true;
	case 'O':
		if (strlen(arg) != 1 || !strchr("0123s", arg[0])) {
			bad_usage("invalid optimisation level '%s' (should be 0, 1, 2, 3 or s)", arg);
			return false;
		}
		o->opt_level = arg[0];
		o->opt_level_given = true;
		return true;
	case 'l': o->list_probes = arg; return one_listing(o);
	case 'L': o->list_probes_vars = arg; return one_listing(o);
	case OPT_COMPATIBLE:
		o->compatible = arg;
		return valid_compatible(arg);
	case OPT_NO_GLOBAL_VAR_DISPLAY: o->no_global_var_display = true; return true;
	case OPT_SUPPRESS_HANDLER_ERRORS: o->suppress_handler_errors = true; return true;
	case OPT_ALL_MODULES: o->all_modules = true; return true;
	case 'd': strlist_add(&o->user_modules, arg); return true;
	case OPT_LDD: o->ldd = true; return true;
	case OPT_SKIP_BADVARS: o->skip_badvars = true; return true;
	case OPT_DISABLE_CACHE: o->disable_cache = true; return true;
	case OPT_CLEAN_CACHE: o->clean_cache = true; return true;
	case OPT_POISON_CACHE: o->poison_cache = true; return true;
	case OPT_PRIVILEGE:
		return take_privilege(o, privilege_by_name(arg), arg);
	case OPT_UNPRIVILEGED:
		return take_privilege(o, PRIV_STAPUSR, "stapusr");
	case OPT_REMOTE:
		if (strcmp(arg, "vm") != 0) {
			bad_usage("unsupported remote '%s' (tapc knows --remote=vm, the test VM)", arg);
			return false;
		}
		o->remote = arg;
		return true;
	case OPT_TARGET_NAMESPACES:
		o->target_ns_pid = parse_number(arg, 1, 0x7fffffffL);
		if (o->target_ns_pid < 0) {
			/* SystemTap's message */
			fputs("Invalid process ID number for target namespaces.\n", stderr);
			return false;
		}
		return true;
	case ':': {
		char opt[3] = { '-', (char)bad_letter, '\0' };

		bad_usage("option '%s' requires an argument", opt);
		return false;
	}
	default: {
		char opt[3] = { '-', (char)bad_letter, '\0' };

		bad_usage("invalid option '%s'", opt);
		return false;
	}
	}
}

/* -l/-L PATTERN: elaborate "probe PATTERN {}" and list what it matched.
 * Pass 2 keeps every local (the aliases' variables) and says nothing of
 * unused ones. */
static void setup_listing(struct tapc_options *o)
{
	const char *pattern = o->list_probes_vars ? o->list_probes_vars : o->list_probes;

	o->list_script = xasprintf("probe %s {}", pattern);
	o->script_text = o->list_script;
	o->script_file = NULL;
	o->last_pass = 2;
	o->unoptimized = true;
	o->suppress_warnings = true;
}

enum options_result options_parse(struct tapc_options *o, int argc, char **argv)
{
	int c, first_arg, longindex;

	memset(o, 0, sizeof(*o));
	o->last_pass = 5;
	o->privilege = PRIV_STAPDEV;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVp:vbs:a:B:PqiFe:E:I:R:D:G:gkm:o:S:c:x:r:tT:wWuO:l:L:d:",
				long_options, &longindex)) != -1) {
		if (c == OPT_HELP || c == 'h') {
			fputs(usage_text, stdout);
			return OPTIONS_EXIT_OK;
		}
		if (c == OPT_VERSION || c == 'V') {
			printf("tapc %s (SystemTap language %s)\n", TAPC_VERSION,
			       TAPC_COMPAT_VERSION);
			return OPTIONS_EXIT_OK;
		}
		if (c == OPT_UNSUPPORTED) {
			char name[64];

			snprintf(name, sizeof(name), "--%s", long_options[longindex].name);
			refuse_unsupported(name);
			return OPTIONS_EXIT_ERROR;
		}
		if (c == '?' && optopt == 0) {
			/* an unknown long option: getopt_long has stepped past it */
			bad_usage("invalid option '%s'", argv[optind - 1]);
			return OPTIONS_EXIT_ERROR;
		}
		if (!take_option(o, c, optarg, optopt))
			return OPTIONS_EXIT_ERROR;
	}

	/* what is not tied to one pass speaks up if any pass is verbose */
	for (int i = 0; i < TAPC_LAST_PASS; i++)
		if (o->vp[i] > o->verbose)
			o->verbose = o->vp[i];
	first_arg = optind;
	if ((o->dump || o->list_probes || o->list_probes_vars) && o->script_text) {
		/* stap's words; its listing takes no script, only arguments */
		fputs("Cannot specify a script with -l/-L/--dump-* switches.\n"
		      "Try 'tapc --help' for more information.\n", stderr);
		return OPTIONS_EXIT_ERROR;
	}
	if (o->dump) {
		/* the whole tapset library is the script (main.c) */
		o->script_text = "probe never {}";
		o->script_file = NULL;
		o->last_pass = 1;
	} else if (o->list_probes || o->list_probes_vars) {
		/* -l/-L take the place of the script. */
	} else if (o->clean_cache) {
		return OPTIONS_RUN;	/* it quits: no script needed */
	} else if (!o->script_text) {
		if (first_arg >= argc) {
			bad_usage("%s", "no script given: name a FILE, '-' for stdin, or use -e SCRIPT");
			return OPTIONS_EXIT_ERROR;
		}
		o->script_file = argv[first_arg++];
	}
	if (o->remote && o->release) {
		bad_usage("%s", "--remote=vm and -r cannot be combined: the test VM decides the release");
		return OPTIONS_EXIT_ERROR;
	}
	if (o->command && o->target_pid) {
		bad_usage("%s", "You can't specify -c and -x options together.");
		return OPTIONS_EXIT_ERROR;
	}
	if (!flight_recorder_check(o))
		return OPTIONS_EXIT_ERROR;
	if (o->suppress_time_limits && !o->guru) {
		/* stap's words */
		fputs("ERROR --suppress-time-limits requires guru mode (-g)\n", stderr);
		return OPTIONS_EXIT_ERROR;
	}
	if (!privilege_allows(o)) {
		fputs("Try 'tapc --help' for more information.\n", stderr);
		return OPTIONS_EXIT_ERROR;
	}
	/* after the privilege check: -s and -b are open to every level */
	add_transport_defines(o);
	if (!limits_check(&o->defines))
		return OPTIONS_EXIT_ERROR;
	/* Quick to build for one-liners, quick to run for script files. */
	if (!o->opt_level_given)
		o->opt_level = o->script_text ? '0' : '1';
	o->argc = argc - first_arg;
	o->argv = argv + first_arg;
	if (o->list_probes || o->list_probes_vars)
		setup_listing(o);
	return OPTIONS_RUN;
}

void options_free(struct tapc_options *o)
{
	strlist_free(&o->extra_scripts);
	strlist_free(&o->include_dirs);
	strlist_free(&o->defines);
	strlist_free(&o->globals);
	strlist_free(&o->user_modules);
	strlist_free(&o->modinfo);
	strlist_free(&o->kbuild_vars);
	free(o->module_name);
	o->module_name = NULL;
	free(o->list_script);
	o->list_script = NULL;
}
