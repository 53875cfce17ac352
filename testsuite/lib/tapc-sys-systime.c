// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of tapc.syscall/systime.stp: time, timer and signal system
 * calls made directly (syscall(2), so that libc picks no other call) with
 * known arguments.  Every structure they pass lives in two pages mapped at
 * the fixed address 0x70000000, so the pointers in the argstr are known
 * too.  The first call, clock_getres(CLOCK_MONOTONIC, 0x70000000), is the
 * script's marker.  Calls that would change the system (settimeofday,
 * adjtimex, clock_settime, clock_adjtime) are given arguments the kernel
 * rejects before acting; the signal calls name a pid that cannot exist.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#define BASE 0x70000000UL
#define AT(off) ((void *)(BASE + (off)))
#define NO_PID 0x7fffffff
#define NO_FILE "/nonexistent-tapc-systime"
#define TIMER_FD 40
#define EPOLL_FD 41

/* The kernel's struct sigaction for rt_sigaction (not libc's). */
struct k_sigaction {
	uintptr_t handler;
	unsigned long flags;
	uintptr_t restorer;
	uint64_t mask;
};

/* the x86 flag asking the kernel to return through sa_restorer */
#define SA_RESTORER 0x04000000

#define BIT(sig) (1ULL << ((sig) - 1))

static void clocks(void)
{
	struct timespec *req = AT(0x20);

	syscall(SYS_clock_getres, CLOCK_MONOTONIC, AT(0x0));
	syscall(SYS_clock_gettime, CLOCK_BOOTTIME, AT(0x10));
	*req = (struct timespec){ 0, 0 };
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, req, NULL);
	syscall(SYS_time, AT(0x30));
}

static void timers(void)
{
	struct sigevent *sev = AT(0x40);
	struct itimerspec *its = AT(0xa0);

	sev->sigev_notify = SIGEV_NONE;
	syscall(SYS_timer_create, CLOCK_REALTIME, sev, AT(0x80));
	*its = (struct itimerspec){ { 1, 500000000 }, { 2, 250 } };
	syscall(SYS_timer_settime, *(int *)AT(0x80), 0, its, AT(0xc0));
	syscall(SYS_timer_gettime, *(int *)AT(0x80), AT(0xc0));
	syscall(SYS_timer_getoverrun, *(int *)AT(0x80));
	syscall(SYS_timer_delete, *(int *)AT(0x80));
}

static void timerfds(void)
{
	struct itimerspec *its = AT(0xe0);
	int fd = syscall(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	dup2(fd, TIMER_FD);
	close(fd);
	*its = (struct itimerspec){ { 0, 0 }, { 5, 0 } };
	syscall(SYS_timerfd_settime, TIMER_FD, 0, its, AT(0x100));
	syscall(SYS_timerfd_gettime, TIMER_FD, AT(0x100));
}

static void process_times(void)
{
	struct tms *tm = AT(0x120);
	struct itimerval *itv = AT(0x160);
	struct timeval *tv = AT(0x1a0);
	struct timezone *tz = AT(0x1c0);
	struct timex *tx = AT(0x200);
	struct timespec *ts = AT(0x2e0);

	*tm = (struct tms){ 11, 22, 33, 44 };
	syscall(SYS_times, tm);
	*itv = (struct itimerval){ { 0, 0 }, { 30, 5 } };
	syscall(SYS_setitimer, ITIMER_VIRTUAL, itv, AT(0x180));
	*itv = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	syscall(SYS_setitimer, ITIMER_VIRTUAL, itv, NULL);
	/* tv_usec out of range: EINVAL before the time zone is read */
	*tv = (struct timeval){ 5, 2000000 };
	*tz = (struct timezone){ -60, 0 };
	syscall(SYS_settimeofday, tv, tz);
	/* a tick out of range: EINVAL (EPERM without CAP_SYS_TIME) */
	memset(tx, 0, sizeof(*tx));
	tx->modes = ADJ_OFFSET | ADJ_MAXERROR | ADJ_TICK;
	tx->offset = 1;
	tx->freq = -2;
	tx->maxerror = 3;
	tx->esterror = 4;
	tx->status = 5;
	tx->constant = 6;
	tx->precision = 7;
	tx->tick = 8;
	tx->tolerance = 9;
	syscall(SYS_adjtimex, tx);
	/* clocks that cannot be set (EINVAL) or adjusted (EOPNOTSUPP) */
	*ts = (struct timespec){ 3, 4 };
	syscall(SYS_clock_settime, CLOCK_MONOTONIC, ts);
	syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, tx);
}

static void file_times(void)
{
	struct utimbuf *ub = AT(0x300);
	struct timespec *ts = AT(0x320);
	struct timeval *tv = AT(0x340);
	/* in the mapped (resident) page: a string constant's page may not be
	 * in memory yet when the probe reads it, and the probe cannot fault */
	char *path = strcpy(AT(0x780), NO_FILE);

	*ub = (struct utimbuf){ 86400, 0 };
	syscall(SYS_utime, path, ub);
	ts[0] = (struct timespec){ 0, UTIME_NOW };
	ts[1] = (struct timespec){ 5, 6 };
	syscall(SYS_utimensat, AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW);
	tv[0] = (struct timeval){ 1, 2 };
	tv[1] = (struct timeval){ 3, 4 };
	syscall(SYS_utimes, path, tv);
	syscall(SYS_futimesat, AT_FDCWD, path, NULL);
}

static void signals(void)
{
	struct k_sigaction *act = AT(0x400);
	uint64_t *set = AT(0x440);
	siginfo_t *si = AT(0x480);
	siginfo_t *out = AT(0x500);
	struct timespec *ts = AT(0x5a0);
	stack_t *ss = AT(0x5c0);

	syscall(SYS_kill, NO_PID, SIGUSR1);
	syscall(SYS_tkill, NO_PID, SIGTERM);
	syscall(SYS_tgkill, NO_PID, NO_PID, SIGHUP);

	/* a handler and restorer the signal never reaches */
	*act = (struct k_sigaction){ BASE + 0x800, SA_RESTART | SA_SIGINFO | SA_RESTORER,
				     BASE + 0x900,
				     BIT(SIGINT) | BIT(SIGUSR1) | BIT(SIGPIPE) | BIT(SIGUSR2) };
	syscall(SYS_rt_sigaction, SIGUSR2, act, AT(0x420), 8);
	*act = (struct k_sigaction){ 0 };
	syscall(SYS_rt_sigaction, SIGUSR2, act, NULL, 8);

	*set = BIT(SIGUSR1) | BIT(SIGALRM);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, set, AT(0x448), 8);
	set[2] = 0;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set[2], NULL, 8);

	memset(si, 0, sizeof(*si));
	si->si_signo = SIGUSR1;
	si->si_code = SI_QUEUE;
	si->si_pid = 4321;
	si->si_uid = 1000;
	syscall(SYS_rt_sigqueueinfo, NO_PID, SIGUSR1, si);
	memset(si, 0, sizeof(*si));
	si->si_signo = SIGSEGV;
	si->si_code = SEGV_MAPERR;
	si->si_addr = AT(0xabc);
	syscall(SYS_rt_tgsigqueueinfo, NO_PID, NO_PID, SIGSEGV, si);

	/* a wrong set size: EINVAL at once */
	set[3] = BIT(SIGTERM);
	syscall(SYS_rt_sigsuspend, &set[3], 4);
	set[4] = BIT(SIGUSR2);
	*ts = (struct timespec){ 0, 0 };
	syscall(SYS_rt_sigtimedwait, &set[4], out, ts, 8);

	*ss = (stack_t){ AT(0x1000), SS_DISABLE, 8192 };
	syscall(SYS_sigaltstack, ss, AT(0x5e0));
	syscall(SYS_sigaltstack, NULL, AT(0x5e0));
	/* syscall.signalfd is signalfd4 (named signalfd while flags is 0),
	 * as SystemTap's on this kernel: the old call is not seen */
	syscall(SYS_signalfd, -1, &set[4], 4);
	syscall(SYS_signalfd4, -1, &set[4], 4, 0);
	syscall(SYS_signalfd4, -1, &set[4], 4, SFD_NONBLOCK | SFD_CLOEXEC);
}

static void waits(void)
{
	struct pollfd *pfd = AT(0x600);
	struct timespec *ts = AT(0x620);
	struct timeval *tv = AT(0x640);
	struct epoll_event *ev = AT(0x700);
	int fd;

	*pfd = (struct pollfd){ TIMER_FD, POLLIN, 0 };
	*ts = (struct timespec){ 0, 0 };
	syscall(SYS_ppoll, pfd, 1, ts, NULL, 8);
	ts[1] = (struct timespec){ 0, 1000 };
	syscall(SYS_pselect6, 0, NULL, NULL, NULL, &ts[1], NULL);
	*tv = (struct timeval){ 0, 0 };
	syscall(SYS_select, 0, NULL, NULL, NULL, tv);
	/* likewise syscall.epoll_create is epoll_create1 */
	close(syscall(SYS_epoll_create, 7));
	close(syscall(SYS_epoll_create1, EPOLL_CLOEXEC));
	fd = syscall(SYS_epoll_create1, 0);
	dup2(fd, EPOLL_FD);
	close(fd);
	ev->events = EPOLLIN;
	syscall(SYS_epoll_ctl, EPOLL_FD, EPOLL_CTL_ADD, TIMER_FD, ev);
	syscall(SYS_epoll_ctl, EPOLL_FD, EPOLL_CTL_DEL, TIMER_FD, NULL);
}

int main(void)
{
	if (mmap(AT(0), 2 * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != AT(0)) {
		perror("mmap 0x70000000");
		return 1;
	}
	clocks();
	timers();
	timerfds();
	process_times();
	file_times();
	signals();
	waits();
	return 0;
}
