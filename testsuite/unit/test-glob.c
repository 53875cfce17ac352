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

static void expect_pair(const char *pat, const char *first, const char *second, bool want)
{
	CHECK(glob_match_pair(pat, ':', first, second) == want,
	      "glob_match_pair(\"%s\", %s:%s) is %s", pat, first ? first : "(unknown)", second,
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

	/* SYSTEM:NAME pairs (kernel.trace): braces first, then the split */
	expect_pair("sched:sched_switch", "sched", "sched_switch", true);
	expect_pair("sched:sched_switch", "irq", "sched_switch", false);
	expect_pair("sched_switch", "sched", "sched_switch", true);
	expect_pair("sched_switch", NULL, "sched_switch", true);
	expect_pair("sched:sched_switch", NULL, "sched_switch", false);
	expect_pair("s*:sched_{switch,wakeup}", "sched", "sched_wakeup", true);
	expect_pair("{sched:sched_switch,irq:irq_*}", "irq", "irq_handler_entry", true);
	expect_pair("{sched:sched_switch,irq:irq_*}", "sched", "sched_switch", true);
	expect_pair("{sched:sched_switch,irq:irq_*}", "sched", "irq_handler_entry", false);
	expect_pair("{sched:sched_switch,irq_*}", "irq", "irq_handler_entry", true);
	expect_pair("a\\:b", NULL, "a:b", true);

	/* a source file: a path's tail from a '/', or the whole path
	 * (a program compiled in its directory names "/abs/dir/f.c") */
	CHECK(glob_match_path_tail("read_write.c", "fs/read_write.c"), "tail of a path");
	CHECK(glob_match_path_tail("fs/*.c", "fs/read_write.c"), "whole relative path");
	CHECK(glob_match_path_tail("/tmp/d/f.c", "/tmp/d/f.c"), "whole absolute path");
	CHECK(glob_match_path_tail("d/f.c", "/tmp/d/f.c"), "tail of an absolute path");
	CHECK(!glob_match_path_tail("e/f.c", "/tmp/d/f.c"), "no part of the path");
	CHECK(!glob_match_path_tail("ad/f.c", "/tmp/d/f.c"), "a tail starts after a '/'");

	/* what is a pattern at all */
	CHECK(!glob_is_pattern("vfs_read"), "vfs_read is no pattern");
	CHECK(glob_is_pattern("{a,b}") && glob_is_pattern("a*") && glob_is_pattern("a?") &&
	      glob_is_pattern("[ab]"), "the wildcards make patterns");

	/* the literal beginning every match shares (a sorted index is read
	 * from there): up to the first wildcard, brace or escape */
	CHECK(glob_literal_prefix("vfs_*") == 4, "vfs_* starts with vfs_");
	CHECK(glob_literal_prefix("vfs_rea?") == 7, "up to a '?'");
	CHECK(glob_literal_prefix("*sched*") == 0, "a leading '*' has none");
	CHECK(glob_literal_prefix("sys_{read,write}") == 4, "up to a brace");
	CHECK(glob_literal_prefix("x[ab]") == 1, "up to a class");
	CHECK(glob_literal_prefix("a\\*b") == 1, "up to an escape");
	CHECK(glob_literal_prefix("vfs_read") == 8, "a name is all literal");
	return check_summary("glob");
}
