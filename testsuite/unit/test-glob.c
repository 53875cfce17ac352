/* Unit tests for src/glob.c: SystemTap's wildcards, csh braces first,
 * then fnmatch(3)'s '*', '?', "[...]" and '\' escapes.  One matcher
 * serves every family, so kernel.trace("{a,b}") matches as
 * kprobe.function("{a,b}") does.
 *
 * Prints one line per failed check and ends with "N passed, N failed". */
#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "glob.h"

static void expect(const char *pat, const char *name, bool want)
{
	CHECK(glob_match(pat, name) == want, "glob_match(\"%s\", \"%s\") is %s", pat, name,
	      want ? "false" : "true");
}

int main(void)
{
	/* plain names and fnmatch's wildcards */
	expect("vfs_read", "vfs_read", true);
	expect("vfs_read", "vfs_readv", false);
	expect("vfs_*", "vfs_read", true);
	expect("vfs_*", "vfs_", true);
	expect("vfs_*", "sys_read", false);
	expect("sys_**", "sys_read", true);
	expect("vfs_rea?", "vfs_read", true);
	expect("vfs_rea?", "vfs_readv", false);
	expect("sched_switc[h]", "sched_switch", true);
	expect("sched_switc[!h]", "sched_switch", false);
	expect("[a-c]x", "bx", true);
	expect("[a-c]x", "dx", false);
	expect("a\\*", "a*", true);
	expect("a\\*", "ab", false);

	/* csh braces */
	expect("{sched_switch,sched_wakeup}", "sched_switch", true);
	expect("{sched_switch,sched_wakeup}", "sched_wakeup", true);
	expect("{sched_switch,sched_wakeup}", "sched_waking", false);
	expect("sched_{switch,wak*}", "sched_waking", true);
	expect("sched_{switch,wak*}", "sched_stat_wait", false);
	expect("{vfs,sys}_{read,write}", "sys_write", true);
	expect("{vfs,sys}_{read,write}", "sys_open", false);
	expect("{a,{b,c}d}", "cd", true);
	expect("{a,{b,c}d}", "c", false);
	expect("{a}", "a", true);
	expect("x{,y}", "x", true);
	expect("x{,y}", "xy", true);
	/* an unclosed or escaped brace is an ordinary character */
	expect("{a,b", "{a,b", true);
	expect("\\{a,b}", "{a,b}", true);
	expect("\\{a,b}", "a", false);

	/* what is a pattern at all */
	CHECK(!glob_is_pattern("vfs_read"), "vfs_read is no pattern");
	CHECK(glob_is_pattern("{a,b}") && glob_is_pattern("a*") && glob_is_pattern("a?") &&
	      glob_is_pattern("[ab]"), "the wildcards make patterns");
	return check_summary("glob");
}
