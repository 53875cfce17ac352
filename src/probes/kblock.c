/* SystemTap's blocklist of kernel and module functions (kblock.h).
 *
 * The lists are SystemTap 4.8's, as `stap -vvv` prints them: extended
 * regular expressions that must match a whole function name or a whole
 * declaration file (as the probe point prints it, relative to the
 * compile unit's directory).
 */
#include "probes/kblock.h"

#include <regex.h>
#include <stddef.h>
#include <string.h>

#include "util.h"

/* Functions no probe may be put on. */
static const char *const block_funcs[] = {
	/* the die, oops, trap and fault paths a probe would recurse into */
	"atomic_notifier_call_chain", "default_do_nmi", "__die", "die_nmi",
	"do_debug", "do_general_protection", "do_int3", "do_IRQ", "do_page_fault",
	"do_sparc64_fault", "do_trap", "dummy_nmi_callback", "flush_icache_range",
	"ia64_bad_break", "ia64_do_page_fault", "ia64_fault", "io_check_error",
	"mem_parity_error", "nmi_watchdog_tick", "notifier_call_chain", "oops_begin",
	"oops_end", "program_check_exception", "single_step_exception", "sync_regs",
	"unhandled_fault", "unknown_nmi_error",
	/* Xen and paravirt entry points */
	"xen_[gs]et_debugreg", "xen_irq_.*", "xen_.*_fl_direct.*", "check_events",
	"xen_adjust_exception_frame", "xen_iret.*", "xen_sysret64.*",
	"test_ti_thread_flag.*", "inat_get_opcode_attribute", "system_call_after_swapgs",
	"HYPERVISOR_[gs]et_debugreg", "HYPERVISOR_event_channel_op",
	"hash_64", "hash_ptr", "native_set_pte",
	/* locks and atomics, which the probe handler itself takes */
	".*raw_.*_lock.*", ".*raw_.*_unlock.*", ".*raw_.*_trylock.*",
	".*read_lock.*", ".*read_unlock.*", ".*read_trylock.*",
	".*write_lock.*", ".*write_unlock.*", ".*write_trylock.*",
	".*write_seqlock.*", ".*write_sequnlock.*",
	".*spin_lock.*", ".*spin_unlock.*", ".*spin_trylock.*", ".*spin_is_locked.*",
	"rwsem_.*lock.*", ".*mutex_.*lock.*", "atomic_.*", "atomic64_.*",
	"get_bh", "put_bh",
	/* interrupt entry and the context a handler runs in */
	".*apic.*", ".*APIC.*", ".*softirq.*", ".*IRQ.*", ".*_intr.*", "__delay",
	".*kernel_text.*", "get_current", "current_.*", ".*exception_tables.*",
	".*setup_rt_frame.*", ".*preempt_count.*", "preempt_schedule", "__switch_to",
	"special_mapping_.*", ".*_pte_.*",
};

/* Functions that never return: no return probe. */
static const char *const block_returns[] = { "do_exit", "sys_exit", "sys_exit_group" };

/* Files no function of which may be probed. */
static const char *const block_files[] = {
	"kernel/kprobes\\.c", "arch/.*/kernel/kprobes\\.c",
	".*/include/asm/io\\.h", ".*/include/asm/io-defs\\.h", ".*/include/asm/io_64\\.h",
	".*/include/asm/bitops\\.h", "drivers/ide/ide-iops\\.c",
	"arch/.*/kernel/paravirt\\.c", ".*/include/asm/paravirt\\.h", "fs/seq_file\\.c",
};

struct blocklist {
	const char *const *alts;
	size_t n;
	regex_t re;
	bool ready, broken;
};

static struct blocklist funcs = { .alts = block_funcs, .n = sizeof(block_funcs) / sizeof(block_funcs[0]) };
static struct blocklist returns = { .alts = block_returns, .n = sizeof(block_returns) / sizeof(block_returns[0]) };
static struct blocklist files = { .alts = block_files, .n = sizeof(block_files) / sizeof(block_files[0]) };

/* Compiled on first use: "^(A|B|...)$". */
static bool matches(struct blocklist *b, const char *s)
{
	if (!s)
		return false;
	if (!b->ready) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_adds(&sb, "^(");
		for (size_t i = 0; i < b->n; i++)
			strbuf_addf(&sb, "%s%s", i ? "|" : "", b->alts[i]);
		strbuf_adds(&sb, ")$");
		b->broken = regcomp(&b->re, sb.buf, REG_EXTENDED | REG_NOSUB) != 0;
		b->ready = true;
		strbuf_free(&sb);
	}
	return !b->broken && regexec(&b->re, s, 0, NULL, 0) == 0;
}

const char *kblock_why(const char *func, const char *file, bool at_return)
{
	if (matches(&files, file))
		return "function %s is in blocklisted file";
	if (matches(&funcs, func))
		return "function %s is blocklisted";
	if (at_return && matches(&returns, func))
		return "function %s return probe is blocklisted";
	return NULL;
}
