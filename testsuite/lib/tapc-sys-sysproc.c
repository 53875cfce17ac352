/* tapc-sys-sysproc: process, scheduling, resource-limit and machine
 * system calls with known arguments, for tapc.syscall/sysproc.stp (the
 * argstr decoders of scripts/syscall-formats/sysproc.py).  Every call
 * goes through syscall(2), so that the C library adds or changes none;
 * the structures are in a page mapped at P = 0x71000000, so that their
 * addresses print the same every run.  None of the calls changes the
 * machine: the ones that could (reboot, sethostname, setgroups,
 * set_thread_area, seccomp) get an argument the kernel rejects first.
 *
 *   tapc-sys-sysproc
 *
 * In this order (the script starts printing at the marker):
 *   getcpu(NULL, NULL, 0x7a7a)		the marker
 *   arch_prctl(ARCH_GET_FS, P+0x600); arch_prctl(0x1011, 0)
 *   getrandom(P+0x280 "seed", 16, GRND_NONBLOCK|GRND_INSECURE)
 *   getrusage(RUSAGE_CHILDREN, P+0x300)
 *   ioprio_set(IOPRIO_WHO_PROCESS, 0, class BE, data 4);
 *   ioprio_get(IOPRIO_WHO_PROCESS, 0); ioprio_get(9, 0)
 *   kcmp(0, 0, KCMP_FILES, 3, 4); kcmp(0, 0, 7, 0, 0)
 *   prlimit64(0, RLIMIT_NOFILE, NULL, P+0x40);
 *   prlimit64(0, RLIMIT_CORE, P {0, RLIM_INFINITY}, NULL);
 *   prlimit64(0, -1, NULL, NULL)
 *   setrlimit(RLIMIT_CORE, P {0, RLIM_INFINITY})
 *   setpriority(PRIO_PROCESS, 0, 5)
 *   sched_get_priority_max(SCHED_FIFO);
 *   sched_get_priority_min(SCHED_RESET_ON_FORK|SCHED_RR)
 *   sched_setscheduler(0, SCHED_BATCH, P+0x80 {0})
 *   sched_setattr(0, P+0x100 {size 56, SCHED_OTHER, nice 3}, 0)
 *   sched_getattr(0, P+0x180 (zeros), 56, 0)
 *   seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, NULL)
 *   sysinfo(P+0x400 (zeros))
 *   get_thread_area(P+0x200 {entry 12});
 *   set_thread_area(P+0x240 {entry 5, base 0x1000, limit 0xfff,
 *	seg_32bit, limit_in_pages, useable})	(EINVAL)
 *   reboot(LINUX_REBOOT_MAGIC1, 12345, LINUX_REBOOT_CMD_CAD_ON, NULL)
 *	(EINVAL: the second magic number is wrong)
 *   a child that exits with status 3 (fork), wait4(-1, P+0x500,
 *	__WALL, NULL); a child that kills itself with SIGKILL, wait4(-1,
 *	P+0x500, 0, NULL); wait4(-1, P+0x500, WNOHANG, NULL) (ECHILD)
 *   waitid(P_ALL, 0, P+0x540, WNOHANG|WEXITED, NULL) (ECHILD)
 *   membarrier(MEMBARRIER_CMD_QUERY, 0)
 *   setns(-1, CLONE_NEWUTS) (EBADF); unshare(CLONE_FILES|CLONE_FS)
 *   sethostname(P+0x700 "tapc-host", 100) (EINVAL: too long)
 *   setdomainname(P+0x700 "tapc-host", 100) (EINVAL)
 *   personality(0xffffffff)	(reads it)
 *   setfsuid(-1); setfsgid(-1)	(read them)
 *   setgroups(-1, NULL) (EINVAL); getgroups(0, NULL)
 *   syslog(10, NULL, 0); iopl(0)
 * Exits 0, or 1 with a message on stderr when a call that must work
 * fails.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/ioprio.h>
#include <linux/kcmp.h>
#include <linux/membarrier.h>
#include <linux/reboot.h>
#include <linux/seccomp.h>
#include <linux/wait.h>
#include <asm/ldt.h>
#include <asm/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>

#define PAGE ((char *)0x71000000UL)

/* linux/sched/types.h's struct sched_attr (that header redefines the C
 * library's struct sched_param). */
struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

static void must(long ret, const char *what)
{
	if (ret < 0) {
		perror(what);
		exit(1);
	}
}

static void rlimits(void)
{
	struct rlimit *core = (struct rlimit *)PAGE;

	syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, PAGE + 0x40);
	core->rlim_cur = 0;
	core->rlim_max = RLIM_INFINITY;
	syscall(SYS_prlimit64, 0, RLIMIT_CORE, core, NULL);
	syscall(SYS_prlimit64, 0, -1, NULL, NULL);
	syscall(SYS_setrlimit, RLIMIT_CORE, core);
}

static void scheduling(void)
{
	struct sched_attr *attr = (struct sched_attr *)(PAGE + 0x100);

	syscall(SYS_setpriority, PRIO_PROCESS, 0, 5);
	syscall(SYS_sched_get_priority_max, SCHED_FIFO);
	syscall(SYS_sched_get_priority_min, SCHED_RESET_ON_FORK | SCHED_RR);
	syscall(SYS_sched_setscheduler, 0, SCHED_BATCH, PAGE + 0x80);
	attr->size = sizeof(*attr);
	attr->sched_policy = SCHED_OTHER;
	attr->sched_nice = 3;
	syscall(SYS_sched_setattr, 0, attr, 0);
	syscall(SYS_sched_getattr, 0, PAGE + 0x180, sizeof(*attr), 0);
}

static void thread_areas(void)
{
	struct user_desc *get = (struct user_desc *)(PAGE + 0x200);
	struct user_desc *set = (struct user_desc *)(PAGE + 0x240);

	get->entry_number = 12;
	syscall(SYS_get_thread_area, get);
	set->entry_number = 5;
	set->base_addr = 0x1000;
	set->limit = 0xfff;
	set->seg_32bit = 1;
	set->limit_in_pages = 1;
	set->useable = 1;
	syscall(SYS_set_thread_area, set);
}

/* A child made by fork(2) itself (not the C library's clone) that ends
 * with @sig, or exits with @status when @sig is 0. */
static void child(int status, int sig)
{
	long pid = syscall(SYS_fork);

	must(pid, "fork");
	if (pid == 0) {
		if (sig)
			syscall(SYS_kill, syscall(SYS_getpid), sig);
		syscall(SYS_exit_group, status);
	}
}

static void waits(void)
{
	child(3, 0);
	must(syscall(SYS_wait4, -1, PAGE + 0x500, __WALL, NULL), "wait4");
	child(0, SIGKILL);
	must(syscall(SYS_wait4, -1, PAGE + 0x500, 0, NULL), "wait4");
	syscall(SYS_wait4, -1, PAGE + 0x500, WNOHANG, NULL);
	syscall(SYS_waitid, P_ALL, 0, PAGE + 0x540, WNOHANG | WEXITED, NULL);
}

static void names(void)
{
	strcpy(PAGE + 0x700, "tapc-host");
	syscall(SYS_setns, -1, CLONE_NEWUTS);
	must(syscall(SYS_unshare, CLONE_FILES | CLONE_FS), "unshare");
	syscall(SYS_sethostname, PAGE + 0x700, 100);
	syscall(SYS_setdomainname, PAGE + 0x700, 100);
}

int main(void)
{
	void *page = mmap(PAGE, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (page != PAGE) {
		perror("mmap");
		return 1;
	}
	syscall(SYS_getcpu, NULL, NULL, (void *)0x7a7a);
	must(syscall(SYS_arch_prctl, ARCH_GET_FS, PAGE + 0x600), "arch_prctl");
	syscall(SYS_arch_prctl, 0x1011, 0);
	strcpy(PAGE + 0x280, "seed");
	syscall(SYS_getrandom, PAGE + 0x280, 16, GRND_NONBLOCK | GRND_INSECURE);
	syscall(SYS_getrusage, RUSAGE_CHILDREN, PAGE + 0x300);
	syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4));
	syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0);
	syscall(SYS_ioprio_get, 9, 0);
	syscall(SYS_kcmp, 0, 0, KCMP_FILES, 3, 4);
	syscall(SYS_kcmp, 0, 0, 7, 0, 0);
	rlimits();
	scheduling();
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, NULL);
	syscall(SYS_sysinfo, PAGE + 0x400);
	thread_areas();
	syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, 12345, LINUX_REBOOT_CMD_CAD_ON, NULL);
	waits();
	syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0);
	names();
	syscall(SYS_personality, 0xffffffffUL);
	syscall(SYS_setfsuid, -1);
	syscall(SYS_setfsgid, -1);
	syscall(SYS_setgroups, -1, NULL);
	syscall(SYS_getgroups, 0, NULL);
	syscall(SYS_syslog, 10, NULL, 0);
	syscall(SYS_iopl, 0);
	return 0;
}
