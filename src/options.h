/* The tapc command line: SystemTap's option letters and meanings. */
#ifndef TAPC_OPTIONS_H
#define TAPC_OPTIONS_H

#include <stdbool.h>

#include "privilege.h"

/* The passes this build of tapc has. Options that only matter to a later
 * pass are refused until that pass exists, rather than silently ignored. */
#define TAPC_LAST_PASS 5

/* The kernel's limit on a module name is 55 characters (MODULE_NAME_LEN
 * is 56 with the NUL on 64-bit); /proc/tapc-NAME follows it. */
#define TAPC_MODULE_NAME_MAX 55

struct strlist {
	char **items;
	int count;
};

void strlist_add(struct strlist *l, const char *s);
void strlist_free(struct strlist *l);

/* stap's WHEN of --prologue-searching and --color: auto when not given. */
enum prologue_mode { PROLOGUE_AUTO, PROLOGUE_NEVER, PROLOGUE_ALWAYS };
enum color_mode { COLOR_AUTO, COLOR_NEVER, COLOR_ALWAYS };

enum dump_mode { DUMP_NONE, DUMP_FUNCTIONS, DUMP_PROBE_TYPES, DUMP_PROBE_ALIASES };

struct tapc_options {
	int last_pass;		/* -p N; 5 when not given */
	bool last_pass_given;
	bool dump_ast;		/* --dump-ast: -p1 in tapc's canonical form */
	int verbose;		/* the highest of vp[] */
	int vp[TAPC_LAST_PASS];	/* each pass's verbosity: -v adds 1 to
				 * all, --vp ABCDE digit k to pass k */
	const char *script_text;	/* -e SCRIPT */
	const char *script_file;	/* FILE or "-" */
	struct strlist extra_scripts;	/* -E SCRIPT, each */
	struct strlist include_dirs;	/* -I DIR */
	const char *runtime_dir;	/* -R DIR */
	struct strlist defines;		/* -D NAME[=VALUE] */
	struct strlist globals;		/* -G NAME=VALUE */
	bool guru;		/* -g */
	bool keep_tmpdir;	/* -k */
	char *module_name;	/* -m NAME, checked and trimmed as stap does */
	const char *output_file;	/* -o FILE */
	const char *size_option;	/* -S SIZE[,N], for tapc-run */
	bool flight_recorder;	/* -F: tapc-run -D, in the background */
	long buffer_mb;		/* -s NUM: the output buffer in MiB; 0: not given */
	bool bulk;		/* -b: an output channel per CPU */
	const char *command;	/* -c CMD */
	long target_pid;	/* -x PID; 0 when not given */
	long target_ns_pid;	/* --target-namespaces=PID; 0 when not given */
	const char *release;	/* -r RELEASE|DIR */
	bool timing;		/* -t */
	long timeout_secs;	/* -T SECS; 0 when not given */
	bool suppress_warnings;	/* -w */
	bool warnings_as_errors;	/* -W */
	bool unoptimized;	/* -u */
	bool skip_badvars;	/* --skip-badvars */
	char opt_level;		/* -O: '0' '1' '2' '3' 's'; the default is set
				 * by options_parse (0 for -e, 1 for files) */
	bool opt_level_given;
	bool no_global_var_display;	/* --no-global-var-display */
	bool suppress_handler_errors;	/* --suppress-handler-errors */
	/* --all-modules: SystemTap's "-d" for every loaded module.  What it
	 * asks for, every module's symbols and unwinding, tapc's runtime
	 * always has (kallsyms, the kernel's unwinder): nothing to add to
	 * the module, so it is only recorded. */
	bool all_modules;
	/* -d PATH: symbols and unwind data of these user binaries go into
	 * the module; --ldd: and of every shared library they need. */
	struct strlist user_modules;
	bool ldd;
	const char *list_probes;	/* -l PP */
	const char *list_probes_vars;	/* -L PP */
	int listings_given;		/* -l, -L and --dump-* (stap allows one) */
	char *list_script;	/* -l/-L: "probe PP {}", the script */
	bool disable_cache;	/* --disable-cache */
	bool clean_cache;	/* --clean-cache: trim the module cache, quit */
	bool poison_cache;	/* --poison-cache: rebuild, replacing entries */
	const char *compatible;	/* --compatible=VERSION */
	const char *remote;	/* --remote=vm: build for the test VM */
	enum privilege privilege;	/* --privilege=LEVEL; PRIV_STAPDEV
					 * when not given */
	bool privilege_given;
	enum dump_mode dump;	/* --dump-functions ... : list, then quit */
	struct strlist modinfo;	/* --modinfo NAME=VALUE: MODULE_INFO lines */
	struct strlist kbuild_vars;	/* -B NAME=VALUE: make's command line */
	bool suppress_time_limits;	/* --suppress-time-limits (needs -g) */
	bool check_version;	/* --check-version */
	enum prologue_mode prologue;	/* -P, --prologue-searching[=WHEN] */
	enum color_mode color;	/* --color[=WHEN] */
	int argc;		/* script arguments: $1..$N */
	char **argv;
};

enum options_result {
	OPTIONS_RUN,		/* go on and run the passes */
	OPTIONS_EXIT_OK,	/* --help or --version was handled */
	OPTIONS_EXIT_ERROR,	/* bad command line, already reported */
};

enum options_result options_parse(struct tapc_options *o, int argc, char **argv);
void options_free(struct tapc_options *o);

#endif
