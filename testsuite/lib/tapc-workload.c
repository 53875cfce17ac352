/* tapc-workload: a program whose system calls the script tests know
 * exactly.  The harness compiles it once per run and puts its path where
 * a script's "# tapc-opts:" line says {WORKLOAD} (typically -c
 * "{WORKLOAD} getpid 1000").
 *
 *   tapc-workload STEP [ARG] [STEP [ARG]]...
 *
 * Steps run in order:
 *   getpid N	N raw getpid() system calls (libc may cache getpid)
 *   nisys N	N calls of system call 335, a number x86-64 has no call for
 *		(the kernel answers them with -ENOSYS)
 *   sleep MS	sleep MS milliseconds
 *   files DIR	raw system calls with known arguments, in this order:
 *		open("DIR/tapc-nosuch", O_RDONLY) (fails: ENOENT);
 *		fd = open("DIR/tapc-file", O_WRONLY|O_CREAT|O_TRUNC, 0644);
 *		write(fd, "hello\n", 6); close(fd);
 *		fd = open("DIR/tapc-file", O_RDONLY); read(fd, buf, 64) (6);
 *		close(fd); close(-1) (fails: EBADF);
 *		p = mmap(NULL, 8192, PROT_READ|PROT_WRITE,
 *			 MAP_PRIVATE|MAP_ANONYMOUS, -1, 0); munmap(p, 8192);
 *		unlink("DIR/tapc-file")
 *   vfiles DIR	vectored I/O with known sizes:
 *		fd = open("DIR/tapc-vfile", O_RDWR|O_CREAT|O_TRUNC, 0644);
 *		writev(fd, {"hel", "lo\n"}, 2) (6); lseek(fd, 0, SEEK_SET);
 *		readv(fd, {32 bytes, 32 bytes}, 2) (6); close(fd);
 *		unlink("DIR/tapc-vfile")
 *   fork N	N times: fork a child that exits with status 3 at once,
 *		then waitpid() for that child
 *   lease-write N	N writes of "45" (the default) to
 *		/proc/sys/fs/lease-break-time, each open, write, close: the
 *		kernel writes its variable lease_break_time once each, and
 *		nothing else touches it while no file lease is broken
 *   lease-read N	N reads of that file, each open, one read, close:
 *		one read of lease_break_time each
 *   tcp N	a TCP exchange over 127.0.0.1 (the loopback device is
 *		brought up first): a listening socket on a free port, a
 *		client connects, send()s N bytes (N <= 4096) in one call, the
 *		server accepts and recv()s them into a 4096-byte buffer until
 *		it has all, both close
 *   udp N	a UDP datagram of N bytes (N <= 4096) from one socket on
 *		127.0.0.1 to another, sent with sendto() and received with
 *		recvfrom() into a 4096-byte buffer
 *   udp-port P	a UDP datagram of 100 bytes from a socket of 127.0.0.1 to
 *		another bound to 127.0.0.1:P, which waits for it for at most
 *		half a second with recvfrom() (SO_RCVTIMEO: EAGAIN when a
 *		netfilter hook dropped it; no message either way)
 *   modload KO	load the kernel module file KO (finit_module), waiting
 *		while a module of its name is loaded, or still coming or
 *		going (another script's run of the same step), up to 60 s
 *   modrun N	write "N" to /proc/tapc_testmod: the test module
 *		(tapc.dwarf/testmod) runs tapc_tm_run(N) once, in this
 *		process
 *   modunload NAME	unload module NAME (delete_module)
 *   threads N	start N threads (pthread_create) that each return at
 *		once, then join them all
 *   devnull	raw system calls with known arguments and results:
 *		fd = open("/dev/null", O_WRONLY); write(fd, "hello\n", 6)
 *		(6); close(fd) (0); close(-1L) (fails: EBADF)
 *   threads-wait N FILE	start N threads that each wait (polling
 *		every 10 ms) until FILE exists, then join them
 *   signals	signals to itself with raw system calls, in this order:
 *		sigaction(SIGUSR1, handler, SA_SIGINFO|SA_RESTART, mask
 *		{SIGUSR2}); sigaction(SIGUSR2, SIG_IGN);
 *		rt_sigprocmask(SIG_BLOCK, {SIGUSR2}); kill(pid, SIGUSR1)
 *		(handled); tkill(tid, SIGUSR2) (blocked: pending);
 *		rt_sigpending(); tgkill(pid, tid, SIGUSR1) (handled);
 *		rt_sigprocmask(SIG_UNBLOCK, {SIGUSR2}) (the pending SIGUSR2 is
 *		taken, and ignored); tkill(tid, SIGUSR2) (ignored, not queued)
 *   pages N	p = mmap(NULL, N pages, PROT_READ|PROT_WRITE,
 *		MAP_PRIVATE|MAP_ANONYMOUS) (no huge pages: madvise
 *		MADV_NOHUGEPAGE); read one byte of each page (N read faults,
 *		each maps the zero page), then write one (N write faults, each
 *		copies the zero page); munmap(p, N pages); then grow the heap by
 *		N pages with brk and shrink it back
 *   timer N	N expiries of a POSIX timer (CLOCK_MONOTONIC, 1 ms, one
 *		shot each) that signals SIGUSR1 to the process, each waited
 *		for in its handler: the kernel queues the timer's preallocated
 *		signal N times
 *   xattr N	N fsetxattr(fd, "user.tapc", 1500 bytes) on a memfd: the
 *		kernel copies each value into a 1500-byte kvmalloc() buffer
 *		(whatever the file system then says) and frees it
 *   convert	buffers of known contents passed to write(-1, buf, size)
 *		(each fails with EBADF, the kernel reads none of them), so
 *		that a probe sees where they are, in this order: UTF-16
 *		{'H', U+00E9, U+1F600 as D83D DE00, U+4E16, 0} (12 bytes);
 *		UTF-32 {'H', U+00E9, U+1F600, U+4E16, 0} (20); UTF-16 {'A',
 *		DC00, 0} (6: a lone low surrogate); the 9 bytes
 *		a " b \ \n \t \001 \0 z; twice a 16-byte stack buffer
 *		holding "original" (8: a guru probe may change it between
 *		the two); then fd = open("/dev/null", O_WRONLY),
 *		write(fd, "hello\n", 6) and close(fd)
 *   blk-write N DEV	N writes of 4096 bytes (each byte 0x5a) to the
 *		block device DEV opened O_WRONLY|O_DIRECT, the i-th (from 0)
 *		at byte 1 MiB + 4096 * i (sector 2048 + 8 * i): one bio each
 *   blk-read N DEV	N reads of 4096 bytes from DEV opened
 *		O_RDONLY|O_DIRECT, at the same offsets as blk-write
 *   tcpv N	a TCP exchange over 127.0.0.1 in vectors: a listening
 *		socket on a free port, a client connects and sets
 *		TCP_NODELAY (setsockopt(IPPROTO_TCP, TCP_NODELAY, 1)),
 *		writev()s N bytes (2 <= N <= 4096) as {N/2, N - N/2}; the
 *		server accepts and readv()s them in one call into
 *		{2048, 2048} bytes (all N are queued by then: loopback
 *		delivers during the writev), then all three close
 *   tcp-refused	a TCP connect() to a port of 127.0.0.1 nothing listens
 *		on (one a socket was bound to and released): the kernel
 *		answers the SYN with one reset, connect() fails with
 *		ECONNREFUSED
 *   pagecache DEV	buffered I/O on the block device DEV (a ram disk):
 *		fd = open(DEV, O_RDONLY); posix_fadvise(fd, 1 MiB, 8192,
 *		DONTNEED) (drops pages 256 and 257 if cached); pread 8192
 *		bytes at 1 MiB (pages 256 and 257 enter the page cache, maybe
 *		more by readahead); posix_fadvise(fd, 1 MiB, 8192, DONTNEED)
 *		(both leave it); close(fd)
 *   pty N	N pseudo-terminal pairs, each: posix_openpt(O_RDWR|O_NOCTTY),
 *		grantpt, unlockpt, open(ptsname, O_RDWR|O_NOCTTY), the slave
 *		made raw (tcsetattr, cfmakeraw: no echo); ioctl(master,
 *		TIOCSWINSZ, 37 rows, 101 columns, 808 x 666 pixels);
 *		write(master, "hello tapc\n", 11); poll(slave, POLLIN, -1);
 *		read(slave, 32) (11 bytes); write(slave, "pong", 4);
 *		read(master, 32) (4 bytes); close(slave); close(master)
 *   splice DIR	fd = open("DIR/tapc-splice", O_RDWR|O_CREAT|O_TRUNC, 0600);
 *		write(fd, 1000 bytes of 'x'); lseek(fd, 0, SEEK_SET);
 *		pipe(p); splice(fd, NULL, p[1], NULL, 700, SPLICE_F_MOVE)
 *		(700); read(p[0], buf, 1024) (700); close all three;
 *		unlink("DIR/tapc-splice")
 *   mmapargs	write(-1, block, 24) (fails: EBADF) of the i386 struct
 *		mmap_arg_struct {addr 0x12340000, len 8192,
 *		PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, fd -1,
 *		offset 4096} (six 32-bit fields), for get_mmap_args()
 *   modsize NAME	read module_size()'s text from
 *		/proc/systemtap/NAME/module_size (a procfs read probe of the
 *		script) and the module's /sys/module/NAME/coresize; write
 *		"match" to /proc/systemtap/NAME/coresize when its data and
 *		text KiB add up to the core size (each rounded down: the sum
 *		is coresize / 1024 or one less), else "DATA TEXT CORESIZE"
 *   compat		system calls as a 32-bit task makes them (int $0x80,
 *		i386 numbers, arguments in a page mapped at 0x70000000, P),
 *		between getpgid(4321) and getpgid(4322) (native, both fail:
 *		ESRCH): fd = open(P "/dev/null", O_WRONLY); write(fd, P+0x40
 *		"compat\n", 7) (7); lseek(fd, -1, SEEK_CUR) (0); fcntl64(fd,
 *		F_GETFD, 0) (0); stat64(P "/dev/null", P+0x100) (0);
 *		_llseek(fd, 0, 5, P+0x200, SEEK_SET) (0); close(fd) (0);
 *		nice(0) (0); signal(SIGUSR2, SIG_IGN) (0: SIG_DFL);
 *		sigprocmask(SIG_BLOCK, NULL, P+0x300) (0); ssetmask(SIGUSR1's
 *		bit) (0); sgetmask() (SIGUSR1's bit); chown16(P+0x40
 *		"compat\n", 0xffff, 7) (fails: ENOENT); s = socketcall(SYS_SOCKET,
 *		P+0x400 {AF_UNIX, SOCK_DGRAM, 0}); socketcall(SYS_GETSOCKNAME,
 *		P+0x400 {s, P+0x440, P+0x480 (16)}) (0); close(s) (0);
 *		ustat(0, P+0x500) (fails); nanosleep(P+0x600 {0, 1000}, NULL)
 *		(0); _newselect(0, NULL, NULL, NULL, P+0x608 {0, 5}) (0);
 *		utime(P+0x40, P+0x610 {100, 200}) (fails: ENOENT);
 *		sigaction(SIGUSR2, P+0x620 {0x12345, SIGQUIT's bit,
 *		SA_RESTART, 0x23456}, NULL) (0); rt_sigaction(SIGUSR2,
 *		P+0x630 {0x12345, SA_RESTART, 0x23456, SIGINT's bit}, NULL, 8)
 *		(0), again with SIG_DFL (0); sigaltstack(P+0x650 {0x10000,
 *		SS_DISABLE, 0}, NULL) (0); rt_sigtimedwait(P+0x660 {SIGUSR2},
 *		P+0x668 {SIGUSR2, 0, SI_TKILL, 7, 8}, P+0x6a0 {0, 0}, 8) (fails:
 *		EAGAIN); setrlimit(RLIMIT_CORE, P+0x6c0 {0, RLIM_INFINITY})
 *		(0); times(P+0x900); sysinfo(P+0x980) (0); umount(P+0x6e0
 *		"/tapc-nosuch") (fails: ENOENT); z = open(P+0x700 "/dev/zero",
 *		O_RDONLY); pread64(z, P+0x800, 4, 5, 1) (4: offset
 *		0x100000005); preadv(z, P+0x740 {P+0x800, 4}, 1, 5, 1) (4);
 *		close(z) (0); sync_file_range(-1, 0x100000005, 7,
 *		SYNC_FILE_RANGE_WAIT_BEFORE) and fanotify_mark(-1,
 *		FAN_MARK_ADD, FAN_ACCESS, AT_FDCWD, P "/dev/null") (fail:
 *		EBADF); clone(CLONE_THREAD, 0, P+0xc00, tls 0x1234, P+0xc40)
 *		(fails: EINVAL); ipc(MSGGET, IPC_PRIVATE, IPC_CREAT|0600) (q);
 *		ipc(MSGCTL, q, IPC_RMID, 0, NULL) (0); ipc(SEMGET, IPC_PRIVATE,
 *		1, IPC_CREAT|0600) (s); ipc(SEMCTL, s, 0, IPC_RMID, P+0xb00)
 *		(0); setitimer(ITIMER_VIRTUAL, P+0xd00 {{1, 2}, {0, 0}},
 *		NULL) (0); utimensat(AT_FDCWD, P+0x6e0, P+0xd40 {{1, 2}, {3,
 *		4}}, 0) (fails: ENOENT); adjtimex(P+0xd80, zeroed); execve(P+0x6e0,
 *		P+0xe00 {P+0x6e0, P+0xe40 "-x"}, P+0xe10 {P+0xe40}) (fails:
 *		ENOENT); _sysctl(P+0xf00) and bdflush(2, 0x1234) (fail:
 *		ENOSYS); ftruncate64(-1, 5, 1), truncate64(P+0x6e0, 5, 1),
 *		fadvise64(-1, 5, 1, 7, 0), fadvise64_64(-1, 5, 1, 7, 0, 2),
 *		readahead(-1, 5, 1, 7), fallocate(-1, 1, 5, 1, 7, 0) and
 *		lookup_dcookie(5, 1, P+0x800, 16) (all fail); getpid();
 *		waitpid(-1, NULL, WNOHANG) (fails: ECHILD);
 *		ssetmask(0) (SIGUSR1's bit)
 *   sockcalls PORT	socket system calls with known arguments, the
 *		buffers in a page mapped at 0x70000000 (P), after the loopback
 *		device is up: (TCP) s = socket(AF_INET,
 *		SOCK_STREAM|SOCK_CLOEXEC, 0); setsockopt(s, SOL_SOCKET,
 *		SO_REUSEADDR, 1, 4); bind(s, 127.0.0.1:PORT, 16); listen(s, 5);
 *		c = socket(AF_INET, SOCK_STREAM, 0); connect(c,
 *		127.0.0.1:PORT, 16); a = accept4(s, NULL, NULL, SOCK_CLOEXEC);
 *		send(c, P "hello tcp", 9, MSG_DONTWAIT) (9); recv(a, P+0x100,
 *		64, 0) (9); sendmsg(c, P+0x200 {P "sendmsg", 7}, 0) (7);
 *		recvmsg(a, P+0x280 {P+0x100, 64}, MSG_CMSG_CLOEXEC) (7);
 *		then as a 32-bit task would (int $0x80, i386 socketcall with
 *		its four arguments at P+0x340): SYS_SEND {c, P "hi compat",
 *		9, MSG_NOSIGNAL} (9), SYS_RECV {a, P+0x100, 9, MSG_WAITALL}
 *		(9); shutdown(c, SHUT_WR); close a, c, s; (UDP) u =
 *		socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP); bind(u,
 *		127.0.0.1:PORT+1, 16); v = socket(AF_INET, SOCK_DGRAM, 0);
 *		sendto(v, P "hello udp", 9, 0, 127.0.0.1:PORT+1, 16) (9);
 *		recvfrom(u, P+0x100, 64, 0, P+0x300, P+0x320) (9); close u, v;
 *		(local) w = socket(AF_UNIX, SOCK_DGRAM, 0); bind(w, abstract
 *		"\0tapc-abs", 11); connect(w, "/tapc-nosuch.sock", 110)
 *		(fails: ENOENT); socketpair(AF_UNIX, SOCK_STREAM, 0, P+0x380);
 *		close all three
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <poll.h>
#include <termios.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#define LEASE_SYSCTL "/proc/sys/fs/lease-break-time"

static long number(const char *step, const char *arg)
{
	char *end;
	long n;

	if (!arg) {
		fprintf(stderr, "tapc-workload: %s needs a number\n", step);
		exit(2);
	}
	n = strtol(arg, &end, 10);
	if (*end || n < 0) {
		fprintf(stderr, "tapc-workload: %s: bad number '%s'\n", step, arg);
		exit(2);
	}
	return n;
}

static void step_nisys(long n)
{
	for (long i = 0; i < n; i++)
		if (syscall(335) != -1 || errno != ENOSYS) {
			fprintf(stderr, "tapc-workload: system call 335 is implemented\n");
			exit(1);
		}
}

static void step_getpid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
}

static void step_sleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void step_files(const char *dir)
{
	char missing[4096], file[4096], buf[64];
	long fd, p;

	if (!dir) {
		fprintf(stderr, "tapc-workload: files needs a directory\n");
		exit(2);
	}
	snprintf(missing, sizeof(missing), "%s/tapc-nosuch", dir);
	snprintf(file, sizeof(file), "%s/tapc-file", dir);
	syscall(SYS_open, missing, O_RDONLY);
	fd = syscall(SYS_open, file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	syscall(SYS_write, fd, "hello\n", 6);
	syscall(SYS_close, fd);
	fd = syscall(SYS_open, file, O_RDONLY);
	syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_close, fd);
	syscall(SYS_close, -1);
	p = syscall(SYS_mmap, NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_munmap, p, 8192);
	syscall(SYS_unlink, file);
}

static void step_vfiles(const char *dir)
{
	char file[4096], in1[32], in2[32];
	struct iovec out[2] = { { "hel", 3 }, { "lo\n", 3 } };
	struct iovec in[2] = { { in1, sizeof(in1) }, { in2, sizeof(in2) } };
	long fd;

	snprintf(file, sizeof(file), "%s/tapc-vfile", dir);
	fd = syscall(SYS_open, file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	syscall(SYS_writev, fd, out, 2);
	syscall(SYS_lseek, fd, 0, SEEK_SET);
	syscall(SYS_readv, fd, in, 2);
	syscall(SYS_close, fd);
	syscall(SYS_unlink, file);
}

static void step_fork(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t child = fork();

		if (child == 0)
			_exit(3);
		if (child > 0)
			waitpid(child, NULL, 0);
	}
}

static void step_lease(long n, int write)
{
	char buf[64];

	for (long i = 0; i < n; i++) {
		long fd = syscall(SYS_open, LEASE_SYSCTL, write ? O_WRONLY : O_RDONLY);

		if (fd < 0) {
			perror("tapc-workload: " LEASE_SYSCTL);
			exit(1);
		}
		if (write)
			syscall(SYS_write, fd, "45\n", 3);
		else
			syscall(SYS_read, fd, buf, sizeof(buf));
		syscall(SYS_close, fd);
	}
}

/* The loopback device up (a fresh guest has it down); exits on failure. */
static void loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	strcpy(ifr.ifr_name, "lo");
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) != 0) {
		perror("tapc-workload: lo");
		exit(1);
	}
	if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0) {
			perror("tapc-workload: bringing lo up");
			exit(1);
		}
	}
	close(fd);
}

/* A socket of TYPE bound to 127.0.0.1 on a free port; its address in *sin. */
static int bound_socket(int type, struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int fd = socket(AF_INET, type, 0);

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)sin, sizeof(*sin)) != 0 ||
	    getsockname(fd, (struct sockaddr *)sin, &len) != 0) {
		perror("tapc-workload: socket");
		exit(1);
	}
	return fd;
}

static size_t net_size(const char *step, long n)
{
	if (n < 1 || n > 4096) {
		fprintf(stderr, "tapc-workload: %s wants 1 to 4096 bytes\n", step);
		exit(2);
	}
	return (size_t)n;
}

static void step_tcp(long n)
{
	static char out[4096], in[4096];
	size_t size = net_size("tcp", n), got = 0;
	struct sockaddr_in addr;
	int server, client, conn;

	loopback_up();
	server = bound_socket(SOCK_STREAM, &addr);
	client = socket(AF_INET, SOCK_STREAM, 0);
	if (listen(server, 1) != 0 || client < 0 ||
	    connect(client, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    (conn = accept(server, NULL, NULL)) < 0) {
		perror("tapc-workload: tcp");
		exit(1);
	}
	memset(out, 'x', size);
	if (send(client, out, size, 0) != (ssize_t)size) {
		perror("tapc-workload: send");
		exit(1);
	}
	while (got < size) {
		ssize_t r = recv(conn, in, sizeof(in), 0);

		if (r <= 0) {
			perror("tapc-workload: recv");
			exit(1);
		}
		got += (size_t)r;
	}
	close(client);
	close(conn);
	close(server);
}

static void step_tcp_refused(void)
{
	struct sockaddr_in addr;
	int probe_fd, client;

	loopback_up();
	probe_fd = bound_socket(SOCK_STREAM, &addr);
	close(probe_fd);	/* never listened: nothing is left on the port */
	client = socket(AF_INET, SOCK_STREAM, 0);
	if (client < 0 ||
	    connect(client, (struct sockaddr *)&addr, sizeof(addr)) == 0 ||
	    errno != ECONNREFUSED) {
		fprintf(stderr, "tapc-workload: tcp-refused: connect did not fail with ECONNREFUSED\n");
		exit(1);
	}
	close(client);
}

static void step_tcpv(long n)
{
	static char out[4096], in[4096];
	size_t size = net_size("tcpv", n);
	struct iovec outv[2], inv[2] = { { in, 2048 }, { in + 2048, 2048 } };
	struct sockaddr_in addr;
	int server, client, conn, one = 1;

	if (size < 2) {
		fprintf(stderr, "tapc-workload: tcpv wants 2 to 4096 bytes\n");
		exit(2);
	}
	loopback_up();
	server = bound_socket(SOCK_STREAM, &addr);
	client = socket(AF_INET, SOCK_STREAM, 0);
	if (listen(server, 1) != 0 || client < 0 ||
	    connect(client, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0 ||
	    (conn = accept(server, NULL, NULL)) < 0) {
		perror("tapc-workload: tcpv");
		exit(1);
	}
	memset(out, 'v', size);
	outv[0] = (struct iovec){ out, size / 2 };
	outv[1] = (struct iovec){ out + size / 2, size - size / 2 };
	if (writev(client, outv, 2) != (ssize_t)size ||
	    readv(conn, inv, 2) != (ssize_t)size) {
		perror("tapc-workload: tcpv writev/readv");
		exit(1);
	}
	close(client);
	close(conn);
	close(server);
}

static void step_pagecache(const char *dev)
{
	static char buf[8192];
	int fd = dev ? open(dev, O_RDONLY) : -1;

	if (fd < 0 || posix_fadvise(fd, 1 << 20, sizeof(buf), POSIX_FADV_DONTNEED) ||
	    pread(fd, buf, sizeof(buf), 1 << 20) != (ssize_t)sizeof(buf) ||
	    posix_fadvise(fd, 1 << 20, sizeof(buf), POSIX_FADV_DONTNEED)) {
		fprintf(stderr, "tapc-workload: pagecache %s: %s\n",
			dev ? dev : "(no device)", strerror(errno));
		exit(1);
	}
	close(fd);
}

static void step_udp(long n)
{
	static char out[4096], in[4096];
	size_t size = net_size("udp", n);
	struct sockaddr_in to, from;
	int receiver, sender;

	loopback_up();
	receiver = bound_socket(SOCK_DGRAM, &to);
	sender = bound_socket(SOCK_DGRAM, &from);
	memset(out, 'y', size);
	if (sendto(sender, out, size, 0, (struct sockaddr *)&to, sizeof(to)) != (ssize_t)size ||
	    recvfrom(receiver, in, sizeof(in), 0, NULL, NULL) != (ssize_t)size) {
		perror("tapc-workload: udp");
		exit(1);
	}
	close(sender);
	close(receiver);
}

static void step_udp_port(long port)
{
	static char out[100], in[4096];
	struct timeval wait = { .tv_sec = 0, .tv_usec = 500000 };
	struct sockaddr_in to = { 0 }, from;
	int receiver, sender;

	if (port < 1 || port > 65535) {
		fprintf(stderr, "tapc-workload: udp-port wants a port\n");
		exit(2);
	}
	loopback_up();
	receiver = socket(AF_INET, SOCK_DGRAM, 0);
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	to.sin_port = htons((unsigned short)port);
	if (receiver < 0 || bind(receiver, (struct sockaddr *)&to, sizeof(to)) != 0 ||
	    setsockopt(receiver, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)) != 0) {
		perror("tapc-workload: udp-port");
		exit(1);
	}
	sender = bound_socket(SOCK_DGRAM, &from);
	memset(out, 'z', sizeof(out));
	if (sendto(sender, out, sizeof(out), 0, (struct sockaddr *)&to, sizeof(to)) !=
	    (ssize_t)sizeof(out)) {
		perror("tapc-workload: udp-port");
		exit(1);
	}
	recvfrom(receiver, in, sizeof(in), 0, NULL, NULL);	/* the script sees how it ends */
	close(sender);
	close(receiver);
}

static void step_modload(const char *ko)
{
	int fd = ko ? open(ko, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0) {
		perror("tapc-workload: modload");
		exit(1);
	}
	for (int tries = 0; syscall(SYS_finit_module, fd, "", 0) != 0; tries++) {
		/* EBUSY: a module of the name is still coming or going */
		if ((errno != EEXIST && errno != EBUSY) || tries >= 1200) {
			perror("tapc-workload: finit_module");
			exit(1);
		}
		step_sleep(50);
	}
	close(fd);
}

static void step_modrun(long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%ld\n", n);
	long fd = syscall(SYS_open, "/proc/tapc_testmod", O_WRONLY);

	if (fd < 0 || syscall(SYS_write, fd, buf, len) != len) {
		perror("tapc-workload: /proc/tapc_testmod");
		exit(1);
	}
	syscall(SYS_close, fd);
}

static void step_modunload(const char *name)
{
	for (int tries = 0; !name || syscall(SYS_delete_module, name, O_NONBLOCK) != 0; tries++) {
		if (!name || (errno != EAGAIN && errno != EBUSY) || tries >= 200) {
			perror("tapc-workload: delete_module");
			exit(1);
		}
		step_sleep(50);
	}
}

static void *thread_body(void *arg)
{
	return arg;
}

static void step_threads(long n)
{
	pthread_t *threads = calloc(n ? n : 1, sizeof(*threads));
	long started = 0;

	if (!threads) {
		perror("tapc-workload: threads");
		exit(1);
	}
	while (started < n && pthread_create(&threads[started], NULL, thread_body, NULL) == 0)
		started++;
	for (long i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	if (started < n) {
		fprintf(stderr, "tapc-workload: started only %ld threads\n", started);
		exit(1);
	}
}

static void step_devnull(void)
{
	long fd = syscall(SYS_open, "/dev/null", O_WRONLY);

	syscall(SYS_write, fd, "hello\n", 6);
	syscall(SYS_close, fd);
	syscall(SYS_close, -1L);	/* all 64 bits of the register: -1 */
}

static void step_splice(const char *dir)
{
	char path[4096], buf[1024];
	int fd, p[2];

	if (!dir) {
		fprintf(stderr, "tapc-workload: splice needs a directory\n");
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/tapc-splice", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || pipe(p) < 0) {
		perror("tapc-workload: splice");
		exit(1);
	}
	memset(buf, 'x', 1000);
	if (write(fd, buf, 1000) != 1000 || lseek(fd, 0, SEEK_SET) != 0 ||
	    splice(fd, NULL, p[1], NULL, 700, SPLICE_F_MOVE) != 700 ||
	    read(p[0], buf, sizeof(buf)) != 700) {
		perror("tapc-workload: splice");
		exit(1);
	}
	close(p[0]);
	close(p[1]);
	close(fd);
	unlink(path);
}

static void step_mmapargs(void)
{
	uint32_t block[6] = { 0x12340000, 8192, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, (uint32_t)-1, 4096 };

	syscall(SYS_write, -1L, block, sizeof(block));
}

/* The first line of file @path into @buf (@size bytes); false if none. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, (int)size, f) != NULL;

	if (f)
		fclose(f);
	return ok;
}

static void step_modsize(const char *name)
{
	char path[4096], sizes[256], core[64], verdict[128];
	unsigned long data, text, coresize, sum;
	FILE *f;

	if (!name) {
		fprintf(stderr, "tapc-workload: modsize needs a module name\n");
		exit(2);
	}
	snprintf(path, sizeof(path), "/proc/systemtap/%s/module_size", name);
	if (!read_line(path, sizes, sizeof(sizes)) ||
	    sscanf(sizes, "%ludata/%lutext/", &data, &text) != 2) {
		perror("tapc-workload: modsize: module_size");
		exit(1);
	}
	snprintf(path, sizeof(path), "/sys/module/%s/coresize", name);
	if (!read_line(path, core, sizeof(core)) ||
	    sscanf(core, "%lu", &coresize) != 1) {
		perror("tapc-workload: modsize: coresize");
		exit(1);
	}
	sum = data + text;
	if (sum == coresize / 1024 || sum + 1 == coresize / 1024)
		snprintf(verdict, sizeof(verdict), "match");
	else
		snprintf(verdict, sizeof(verdict), "%lu %lu %lu", data, text,
			 coresize);
	snprintf(path, sizeof(path), "/proc/systemtap/%s/coresize", name);
	f = fopen(path, "w");
	if (!f || fputs(verdict, f) < 0 || fclose(f) != 0) {
		perror("tapc-workload: modsize: write");
		exit(1);
	}
}

static void *wait_for_file(void *path)
{
	while (access(path, F_OK) != 0)
		step_sleep(10);
	return NULL;
}

static void step_threads_wait(long n, const char *path)
{
	pthread_t *threads = calloc(n ? n : 1, sizeof(*threads));

	if (!path || !threads) {
		fprintf(stderr, "tapc-workload: threads-wait needs a number and a file\n");
		exit(2);
	}
	for (long i = 0; i < n; i++)
		if (pthread_create(&threads[i], NULL, wait_for_file, (void *)path) != 0) {
			fprintf(stderr, "tapc-workload: cannot start thread %ld\n", i);
			exit(1);
		}
	for (long i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	free(threads);
}

static volatile sig_atomic_t handled;

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	(void)info;
	(void)uctx;
	handled++;
}

/* rt_sigprocmask() with the kernel's 8-byte set, bypassing libc's own
 * blocking around its calls */
static void block(int how, int sig)
{
	unsigned long set = 1UL << (sig - 1);

	syscall(SYS_rt_sigprocmask, how, &set, NULL, sizeof(set));
}

static void step_signals(void)
{
	struct sigaction usr1 = { .sa_sigaction = on_signal,
				  .sa_flags = SA_SIGINFO | SA_RESTART };
	struct sigaction usr2 = { .sa_handler = SIG_IGN };
	long pid = getpid(), tid = syscall(SYS_gettid);
	unsigned long pending;

	handled = 0;
	sigemptyset(&usr1.sa_mask);
	sigaddset(&usr1.sa_mask, SIGUSR2);
	sigemptyset(&usr2.sa_mask);
	sigaction(SIGUSR1, &usr1, NULL);
	sigaction(SIGUSR2, &usr2, NULL);
	block(SIG_BLOCK, SIGUSR2);
	syscall(SYS_kill, pid, SIGUSR1);
	syscall(SYS_tkill, tid, SIGUSR2);
	syscall(SYS_rt_sigpending, &pending, sizeof(pending));
	syscall(SYS_tgkill, pid, tid, SIGUSR1);
	block(SIG_UNBLOCK, SIGUSR2);
	syscall(SYS_tkill, tid, SIGUSR2);
	if (handled != 2 || pending != 1UL << (SIGUSR2 - 1)) {
		fprintf(stderr, "tapc-workload: signals: %d handled, pending %#lx\n",
			(int)handled, pending);
		exit(1);
	}
}

static void step_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE), len = n * page, cur;
	volatile char *p;
	char sum = 0;

	p = (volatile char *)syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("tapc-workload: mmap");
		exit(1);
	}
	syscall(SYS_madvise, p, len, MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		sum += p[i * page];
	for (long i = 0; i < n; i++)
		p[i * page] = sum + 1;
	syscall(SYS_munmap, p, len);
	cur = syscall(SYS_brk, 0);
	syscall(SYS_brk, cur + len);
	syscall(SYS_brk, cur);
}

static void step_timer(long n)
{
	struct sigaction usr1 = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	struct itimerspec once = { .it_value = { 0, 1000000 } };
	struct timespec nap = { 0, 1000000 };
	long timer;

	sigemptyset(&usr1.sa_mask);
	sigaction(SIGUSR1, &usr1, NULL);
	if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &timer) < 0) {
		perror("tapc-workload: timer_create");
		exit(1);
	}
	handled = 0;
	for (long i = 0; i < n; i++) {
		syscall(SYS_timer_settime, timer, 0, &once, NULL);
		while (handled == i)
			nanosleep(&nap, NULL);
	}
	syscall(SYS_timer_delete, timer);
}

static void step_xattr(long n)
{
	static char value[1500];
	long fd = syscall(SYS_memfd_create, "tapc-xattr", 0);

	if (fd < 0) {
		perror("tapc-workload: memfd_create");
		exit(1);
	}
	for (long i = 0; i < n; i++)
		syscall(SYS_fsetxattr, fd, "user.tapc", value, sizeof(value), 0);
	syscall(SYS_close, fd);
}

#define BLK_IO_BYTES 4096
#define BLK_IO_BASE (1L << 20)

/* N O_DIRECT transfers of BLK_IO_BYTES at BLK_IO_BASE + i * BLK_IO_BYTES */
static void step_blk(long n, const char *dev, int write)
{
	void *buf;
	long fd;

	if (!dev) {
		fprintf(stderr, "tapc-workload: blk-%s needs a number and a device\n",
			write ? "write" : "read");
		exit(2);
	}
	/* O_DIRECT wants a buffer aligned to the logical block size */
	if (posix_memalign(&buf, BLK_IO_BYTES, BLK_IO_BYTES) != 0) {
		fprintf(stderr, "tapc-workload: out of memory\n");
		exit(1);
	}
	memset(buf, 0x5a, BLK_IO_BYTES);
	fd = open(dev, (write ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0) {
		perror(dev);
		exit(1);
	}
	for (long i = 0; i < n; i++) {
		off_t at = BLK_IO_BASE + i * BLK_IO_BYTES;
		ssize_t done = write ? pwrite(fd, buf, BLK_IO_BYTES, at)
				     : pread(fd, buf, BLK_IO_BYTES, at);

		if (done != BLK_IO_BYTES) {
			fprintf(stderr, "tapc-workload: %s %s at %ld: %s\n",
				write ? "write" : "read", dev, (long)at,
				done < 0 ? strerror(errno) : "short");
			exit(1);
		}
	}
	close(fd);
	free(buf);
}

static void pty_fail(const char *what)
{
	perror(what);
	exit(1);
}

/* @n bytes of @fd into @buf, which must be all of them */
static void pty_read_exact(int fd, char *buf, size_t size, ssize_t n)
{
	if (read(fd, buf, size) != n)
		pty_fail("tapc-workload: pty read");
}

/* One pseudo-terminal pair's round trip (see the pty step above) */
static void pty_round(void)
{
	static const struct winsize ws = { .ws_row = 37, .ws_col = 101,
					   .ws_xpixel = 808, .ws_ypixel = 666 };
	struct pollfd pfd;
	struct termios tio;
	char buf[32];
	int master, slave;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		pty_fail("tapc-workload: posix_openpt");
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0 || tcgetattr(slave, &tio))
		pty_fail("tapc-workload: pty slave");
	cfmakeraw(&tio);
	if (tcsetattr(slave, TCSANOW, &tio) || ioctl(master, TIOCSWINSZ, &ws))
		pty_fail("tapc-workload: pty settings");
	if (write(master, "hello tapc\n", 11) != 11)
		pty_fail("tapc-workload: pty write");
	pfd.fd = slave;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, -1) != 1)
		pty_fail("tapc-workload: poll");
	pty_read_exact(slave, buf, sizeof(buf), 11);
	if (write(slave, "pong", 4) != 4)
		pty_fail("tapc-workload: pty write");
	pty_read_exact(master, buf, sizeof(buf), 4);
	close(slave);
	close(master);
}

static void step_convert(void)
{
	static const uint16_t utf16[] = { 0x48, 0xe9, 0xd83d, 0xde00, 0x4e16, 0 };
	static const uint32_t utf32[] = { 0x48, 0xe9, 0x1f600, 0x4e16, 0 };
	static const uint16_t bad16[] = { 0x41, 0xdc00, 0 };
	static const char bytes[] = "a\"b\\\n\t\001\0z";
	/* on the stack: writable, so a guru probe can change it */
	char name[16] = "original";
	long fd;

	syscall(SYS_write, -1L, utf16, sizeof(utf16));
	syscall(SYS_write, -1L, utf32, sizeof(utf32));
	syscall(SYS_write, -1L, bad16, sizeof(bad16));
	syscall(SYS_write, -1L, bytes, sizeof(bytes) - 1);
	syscall(SYS_write, -1L, name, 8L);
	syscall(SYS_write, -1L, name, 8L);
	fd = syscall(SYS_open, "/dev/null", O_WRONLY);
	syscall(SYS_write, fd, "hello\n", 6L);
	syscall(SYS_close, fd);
}

/* ---- sockcalls: the socket calls' arguments, at known addresses ---- */

#define SC_PAGE ((char *)0x70000000UL)

static void sc_check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(1);
	}
}

static struct sockaddr_in sc_loopback(long port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)port);
	return sin;
}

/* socketcall(call, args) through the i386 entry, as a 32-bit task makes
 * it: the kernel takes the call as a compat one (the 64-bit registers
 * r8-r11 may come back changed). */
static long sc_socketcall32(long call, const unsigned int *args)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(102L), "b"(call), "c"((long)(uintptr_t)args)
			 : "memory", "cc", "r8", "r9", "r10", "r11");
	return ret;
}

static void sc_tcp(long port)
{
	struct sockaddr_in sin = sc_loopback(port);
	struct msghdr *out = (struct msghdr *)(SC_PAGE + 0x200);
	struct msghdr *in = (struct msghdr *)(SC_PAGE + 0x280);
	unsigned int *args = (unsigned int *)(SC_PAGE + 0x340);
	int s, c, a, one = 1;

	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	sc_check(s >= 0 && setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, 4) == 0 &&
		 bind(s, (struct sockaddr *)&sin, sizeof(sin)) == 0 && listen(s, 5) == 0,
		 "tapc-workload: sockcalls listen");
	c = socket(AF_INET, SOCK_STREAM, 0);
	sc_check(c >= 0 && connect(c, (struct sockaddr *)&sin, sizeof(sin)) == 0,
		 "tapc-workload: sockcalls connect");
	a = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	sc_check(a >= 0, "tapc-workload: sockcalls accept4");
	memcpy(SC_PAGE, "hello tcp", 9);
	sc_check(send(c, SC_PAGE, 9, MSG_DONTWAIT) == 9, "tapc-workload: sockcalls send");
	sc_check(recv(a, SC_PAGE + 0x100, 64, 0) == 9, "tapc-workload: sockcalls recv");
	memcpy(SC_PAGE, "sendmsg", 7);
	out->msg_iov = (struct iovec *)(SC_PAGE + 0x240);
	out->msg_iov->iov_base = SC_PAGE;
	out->msg_iov->iov_len = 7;
	out->msg_iovlen = 1;
	sc_check(sendmsg(c, out, 0) == 7, "tapc-workload: sockcalls sendmsg");
	in->msg_iov = (struct iovec *)(SC_PAGE + 0x2c0);
	in->msg_iov->iov_base = SC_PAGE + 0x100;
	in->msg_iov->iov_len = 64;
	in->msg_iovlen = 1;
	sc_check(recvmsg(a, in, MSG_CMSG_CLOEXEC) == 7, "tapc-workload: sockcalls recvmsg");
	memcpy(SC_PAGE, "hi compat", 9);
	args[0] = (unsigned int)c;
	args[1] = (unsigned int)(uintptr_t)SC_PAGE;
	args[2] = 9;
	args[3] = MSG_NOSIGNAL;
	sc_check(sc_socketcall32(9 /* SYS_SEND */, args) == 9, "tapc-workload: socketcall send");
	args[0] = (unsigned int)a;
	args[1] = (unsigned int)(uintptr_t)(SC_PAGE + 0x100);
	args[3] = MSG_WAITALL;
	sc_check(sc_socketcall32(10 /* SYS_RECV */, args) == 9, "tapc-workload: socketcall recv");
	sc_check(shutdown(c, SHUT_WR) == 0, "tapc-workload: sockcalls shutdown");
	close(a);
	close(c);
	close(s);
}

static void sc_udp(long port)
{
	struct sockaddr_in sin = sc_loopback(port + 1);
	socklen_t *fromlen = (socklen_t *)(SC_PAGE + 0x320);
	int u, v;

	u = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	sc_check(u >= 0 && bind(u, (struct sockaddr *)&sin, sizeof(sin)) == 0,
		 "tapc-workload: sockcalls udp bind");
	v = socket(AF_INET, SOCK_DGRAM, 0);
	memcpy(SC_PAGE, "hello udp", 9);
	sc_check(v >= 0 && sendto(v, SC_PAGE, 9, 0, (struct sockaddr *)&sin,
				  sizeof(sin)) == 9, "tapc-workload: sockcalls sendto");
	*fromlen = sizeof(struct sockaddr_in);
	sc_check(recvfrom(u, SC_PAGE + 0x100, 64, 0, (struct sockaddr *)(SC_PAGE + 0x300),
			  fromlen) == 9, "tapc-workload: sockcalls recvfrom");
	close(u);
	close(v);
}

static void sc_local(void)
{
	struct sockaddr_un abs = { .sun_family = AF_UNIX };
	struct sockaddr_un path = { .sun_family = AF_UNIX };
	int *sv = (int *)(SC_PAGE + 0x380);
	int w;

	memcpy(abs.sun_path, "\0tapc-abs", 9);
	strcpy(path.sun_path, "/tapc-nosuch.sock");
	w = socket(AF_UNIX, SOCK_DGRAM, 0);
	sc_check(w >= 0 && bind(w, (struct sockaddr *)&abs, 2 + 9) == 0,
		 "tapc-workload: sockcalls unix bind");
	sc_check(connect(w, (struct sockaddr *)&path, sizeof(path)) != 0 && errno == ENOENT,
		 "tapc-workload: sockcalls unix connect");
	sc_check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0,
		 "tapc-workload: sockcalls socketpair");
	close(sv[0]);
	close(sv[1]);
	close(w);
}

/* An i386 system call with up to five arguments, through int $0x80. */
static long sc_call32_5(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory", "cc", "r8", "r9", "r10", "r11");
	return ret;
}

/* ... and with six: the sixth in ebp, which the compiler may use itself
 * (saved and restored around the call; f comes in a register, since the
 * push moves the stack an rsp-relative operand would be read from). */
static long sc_call6_32(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret;

	__asm__ volatile("push %%rbp\n\tmov %7, %%rbp\n\tint $0x80\n\tpop %%rbp"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "r"(f)
			 : "memory", "cc", "r8", "r9", "r10", "r11");
	return ret;
}

static long sc_call32(long nr, long a, long b, long c)
{
	return sc_call32_5(nr, a, b, c, 0, 0);
}

/* The calls whose structures a 32-bit program lays out otherwise: the
 * 32-bit timespec, timeval, utimbuf and sigactions, at P+0x600 on. */
static void sc_compat_structs(long page)
{
	unsigned int *u = (unsigned int *)(SC_PAGE + 0x600);

	u[0] = 0;			/* nanosleep {0, 1000} */
	u[1] = 1000;
	sc_check(sc_call32(162 /* nanosleep */, page + 0x600, 0, 0) == 0,
		 "tapc-workload: compat nanosleep");
	u[2] = 0;			/* _newselect timeout {0, 5} */
	u[3] = 5;
	sc_check(sc_call32_5(142 /* _newselect */, 0, 0, 0, 0, page + 0x608) == 0,
		 "tapc-workload: compat select");
	u[4] = 100;			/* utime {100, 200} */
	u[5] = 200;
	sc_check(sc_call32(30 /* utime */, page + 0x40, page + 0x610, 0) == -ENOENT,
		 "tapc-workload: compat utime");
	/* old sigaction {handler, mask, flags, restorer} */
	u[8] = 0x12345;
	u[9] = 1 << (SIGQUIT - 1);
	u[10] = SA_RESTART;
	u[11] = 0x23456;
	sc_check(sc_call32(67 /* sigaction */, SIGUSR2, page + 0x620, 0) == 0,
		 "tapc-workload: compat sigaction");
	/* rt_sigaction {handler, flags, restorer, mask[2]}, then SIG_DFL */
	u[12] = 0x12345;
	u[13] = SA_RESTART;
	u[14] = 0x23456;
	u[15] = 1 << (SIGINT - 1);
	u[16] = 0;
	sc_check(sc_call32_5(174 /* rt_sigaction */, SIGUSR2, page + 0x630, 0, 8, 0) == 0,
		 "tapc-workload: compat rt_sigaction");
	u[12] = 0;
	sc_check(sc_call32_5(174 /* rt_sigaction */, SIGUSR2, page + 0x630, 0, 8, 0) == 0,
		 "tapc-workload: compat rt_sigaction");
	/* sigaltstack {ss_sp 0x10000, SS_DISABLE, 0} */
	u[20] = 0x10000;
	u[21] = SS_DISABLE;
	u[22] = 0;
	sc_check(sc_call32(186 /* sigaltstack */, page + 0x650, 0, 0) == 0,
		 "tapc-workload: compat sigaltstack");
	/* rt_sigtimedwait({SIGUSR2}, siginfo {SIGUSR2, 0, SI_TKILL, pid 7,
	 * uid 8}, {0, 0}, 8): nothing pending */
	u[24] = 1 << (SIGUSR2 - 1);
	u[25] = 0;
	u[26] = SIGUSR2;
	u[27] = 0;
	u[28] = (unsigned int)SI_TKILL;
	u[29] = 7;
	u[30] = 8;
	u[40] = 0;
	u[41] = 0;
	sc_check(sc_call32_5(177 /* rt_sigtimedwait */, page + 0x660, page + 0x668,
			     page + 0x6a0, 8, 0) == -EAGAIN,
		 "tapc-workload: compat rt_sigtimedwait");
	/* setrlimit(RLIMIT_CORE, {0, RLIM_INFINITY}); times and sysinfo
	 * (their buffers zero); umount("/tapc-nosuch") */
	u[48] = 0;
	u[49] = 0xffffffffU;
	sc_check(sc_call32(75 /* setrlimit */, RLIMIT_CORE, page + 0x6c0, 0) == 0,
		 "tapc-workload: compat setrlimit");
	sc_call32(43 /* times */, page + 0x900, 0, 0);	/* clock ticks */
	sc_check(sc_call32(116 /* sysinfo */, page + 0x980, 0, 0) == 0,
		 "tapc-workload: compat sysinfo");
	memcpy(SC_PAGE + 0x6e0, "/tapc-nosuch", 13);
	sc_check(sc_call32(22 /* umount */, page + 0x6e0, 0, 0) == -ENOENT,
		 "tapc-workload: compat umount");
}

/* More 32-bit layouts, at P+0xd00 on: setitimer(ITIMER_VIRTUAL,
 * {interval {1, 2}, value {0, 0}}, NULL) (0: the value disarms it);
 * utimensat(AT_FDCWD, "/tapc-nosuch", {{1, 2}, {3, 4}}, 0) (fails:
 * ENOENT); adjtimex of a zeroed struct timex (modes 0: reads only);
 * execve("/tapc-nosuch", {"/tapc-nosuch", "-x", NULL}, {"-x", NULL})
 * (fails: ENOENT); _sysctl and bdflush (fail: ENOSYS). */
static void sc_compat_decoders(long page)
{
	unsigned int *u = (unsigned int *)(SC_PAGE + 0xd00);

	u[0] = 1;			/* itimerval: interval {1, 2} */
	u[1] = 2;
	u[2] = 0;			/* value {0, 0} */
	u[3] = 0;
	sc_check(sc_call32(104 /* setitimer */, ITIMER_VIRTUAL, page + 0xd00, 0) == 0,
		 "tapc-workload: compat setitimer");
	for (int i = 0; i < 4; i++)	/* two timespecs at P+0xd40 */
		u[16 + i] = (unsigned int)i + 1;
	sc_check(sc_call32_5(320 /* utimensat */, AT_FDCWD, page + 0x6e0, page + 0xd40, 0, 0)
		 == -ENOENT, "tapc-workload: compat utimensat");
	memset(SC_PAGE + 0xd80, 0, 0x80);	/* struct compat_timex */
	sc_check(sc_call32(124 /* adjtimex */, page + 0xd80, 0, 0) >= 0,
		 "tapc-workload: compat adjtimex");
	memcpy(SC_PAGE + 0xe40, "-x", 3);
	u[0x40] = (unsigned int)(page + 0x6e0);	/* argv at P+0xe00 */
	u[0x41] = (unsigned int)(page + 0xe40);
	u[0x42] = 0;
	u[0x44] = (unsigned int)(page + 0xe40);	/* envp at P+0xe10 */
	u[0x45] = 0;
	sc_check(sc_call32(11 /* execve */, page + 0x6e0, page + 0xe00, page + 0xe10) == -ENOENT,
		 "tapc-workload: compat execve");
	/* two calls 6.1 no longer has (sys_ni_syscall) that SystemTap
	 * names: _sysctl(P+0xf00) and bdflush(2, 0x1234) */
	sc_check(sc_call32(149 /* _sysctl */, page + 0xf00, 0, 0) == -ENOSYS,
		 "tapc-workload: compat _sysctl");
	sc_check(sc_call32(134 /* bdflush */, 2, 0x1234, 0) == -ENOSYS,
		 "tapc-workload: compat bdflush");
	/* the i386 calls that pass a 64-bit value in two arguments, low
	 * half first, that SystemTap has syscall.compat_NAME aliases of:
	 * 0x100000005 each time, and every call fails */
	sc_check(sc_call32(194 /* ftruncate64 */, -1, 5, 1) == -EBADF,
		 "tapc-workload: compat ftruncate64");
	sc_check(sc_call32(193 /* truncate64 */, page + 0x6e0, 5, 1) == -ENOENT,
		 "tapc-workload: compat truncate64");
	sc_check(sc_call32_5(250 /* fadvise64 */, -1, 5, 1, 7, 0) == -EBADF,
		 "tapc-workload: compat fadvise64");
	sc_check(sc_call6_32(272 /* fadvise64_64 */, -1, 5, 1, 7, 0, 2) == -EBADF,
		 "tapc-workload: compat fadvise64_64");
	sc_check(sc_call32_5(225 /* readahead */, -1, 5, 1, 7, 0) == -EBADF,
		 "tapc-workload: compat readahead");
	sc_check(sc_call6_32(324 /* fallocate */, -1, 1, 5, 1, 7, 0) == -EBADF,
		 "tapc-workload: compat fallocate");
	sc_check(sc_call32_5(253 /* lookup_dcookie */, 5, 1, page + 0x800, 16, 0) < 0,
		 "tapc-workload: compat lookup_dcookie");
}

/* The calls that split a 64-bit offset in two registers, low half first:
 * pread64 and preadv of /dev/zero at offset 0x100000005. */
static void sc_compat_offsets(long page)
{
	unsigned int *iov = (unsigned int *)(SC_PAGE + 0x740);
	long fd;

	memcpy(SC_PAGE + 0x700, "/dev/zero", 10);
	fd = sc_call32(5 /* open */, page + 0x700, O_RDONLY, 0);
	sc_check(fd >= 0, "tapc-workload: compat open");
	sc_check(sc_call32_5(180 /* pread64 */, fd, page + 0x800, 4, 5, 1) == 4,
		 "tapc-workload: compat pread64");
	iov[0] = (unsigned int)(page + 0x800);
	iov[1] = 4;
	sc_check(sc_call32_5(333 /* preadv */, fd, page + 0x740, 1, 5, 1) == 4,
		 "tapc-workload: compat preadv");
	sc_check(sc_call32(6 /* close */, fd, 0, 0) == 0, "tapc-workload: compat close");
	/* arguments i386 places otherwise; every call fails */
	sc_check(sc_call6_32(314 /* sync_file_range */, -1, 5, 1, 7, 0, 1) == -EBADF,
		 "tapc-workload: compat sync_file_range");
	sc_check(sc_call6_32(339 /* fanotify_mark */, -1, 1, 1, 0, -100, page) == -EBADF,
		 "tapc-workload: compat fanotify_mark");
	sc_check(sc_call32_5(120 /* clone */, 0x10000 /* CLONE_THREAD */, 0, page + 0xc00,
			     0x1234, page + 0xc40) == -EINVAL,
		 "tapc-workload: compat clone");
}

/* SysV IPC through the i386 ipc multiplexer (call 117): a message queue
 * and a semaphore set, made and removed. */
static void sc_compat_ipc(long page)
{
	long msq, sem;

	msq = sc_call32(117, 13 /* MSGGET */, IPC_PRIVATE, IPC_CREAT | 0600);
	sc_check(msq >= 0, "tapc-workload: compat ipc msgget");
	sc_check(sc_call32_5(117, 14 /* MSGCTL */, msq, IPC_RMID, 0, 0) == 0,
		 "tapc-workload: compat ipc msgctl");
	sem = sc_call32_5(117, 2 /* SEMGET */, IPC_PRIVATE, 1, IPC_CREAT | 0600, 0);
	sc_check(sem >= 0, "tapc-workload: compat ipc semget");
	sc_check(sc_call32_5(117, 3 /* SEMCTL */, sem, 0, IPC_RMID, page + 0xb00) == 0,
		 "tapc-workload: compat ipc semctl");
}

static void step_compat(void)
{
	long page = (long)(uintptr_t)SC_PAGE, fd, me = getpid();
	unsigned int *args = (unsigned int *)(SC_PAGE + 0x400);

	sc_check(mmap(SC_PAGE, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) == SC_PAGE,
		 "tapc-workload: compat mmap");
	memcpy(SC_PAGE, "/dev/null", 10);
	memcpy(SC_PAGE + 0x40, "compat\n", 7);
	syscall(SYS_getpgid, 4321);
	fd = sc_call32(5 /* open */, page, O_WRONLY, 0);
	sc_check(fd >= 0, "tapc-workload: compat open");
	sc_check(sc_call32(4 /* write */, fd, page + 0x40, 7) == 7, "tapc-workload: compat write");
	sc_check(sc_call32(19 /* lseek */, fd, -1, SEEK_CUR) == 0, "tapc-workload: compat lseek");
	sc_check(sc_call32(221 /* fcntl64 */, fd, F_GETFD, 0) == 0, "tapc-workload: compat fcntl64");
	sc_check(sc_call32(195 /* stat64 */, page, page + 0x100, 0) == 0, "tapc-workload: compat stat64");
	sc_check(sc_call32_5(140 /* _llseek */, fd, 0, 5, page + 0x200, SEEK_SET) == 0,
		 "tapc-workload: compat _llseek");
	sc_check(sc_call32(6 /* close */, fd, 0, 0) == 0, "tapc-workload: compat close");
	sc_check(sc_call32(34 /* nice */, 0, 0, 0) == 0, "tapc-workload: compat nice");
	sc_check(sc_call32(48 /* signal */, SIGUSR2, 1 /* SIG_IGN */, 0) == 0,
		 "tapc-workload: compat signal");
	sc_check(sc_call32(126 /* sigprocmask */, SIG_BLOCK, 0, page + 0x300) == 0,
		 "tapc-workload: compat sigprocmask");
	sc_check(sc_call32(69 /* ssetmask */, 1 << (SIGUSR1 - 1), 0, 0) == 0,
		 "tapc-workload: compat ssetmask");
	sc_check(sc_call32(68 /* sgetmask */, 0, 0, 0) == 1 << (SIGUSR1 - 1),
		 "tapc-workload: compat sgetmask");
	sc_check(sc_call32(182 /* chown16 */, page + 0x40, 0xffff, 7) == -ENOENT,
		 "tapc-workload: compat chown16");
	args[0] = AF_UNIX;
	args[1] = SOCK_DGRAM;
	args[2] = 0;
	fd = sc_call32(102 /* socketcall */, 1 /* SYS_SOCKET */, page + 0x400, 0);
	sc_check(fd >= 0, "tapc-workload: compat socketcall socket");
	args[0] = (unsigned int)fd;
	args[1] = (unsigned int)(page + 0x440);
	args[2] = (unsigned int)(page + 0x480);
	*(unsigned int *)(SC_PAGE + 0x480) = 16;
	sc_check(sc_call32(102, 6 /* SYS_GETSOCKNAME */, page + 0x400, 0) == 0,
		 "tapc-workload: compat socketcall getsockname");
	sc_check(sc_call32(6 /* close */, fd, 0, 0) == 0, "tapc-workload: compat close");
	sc_call32(62 /* ustat */, 0, page + 0x500, 0);
	sc_compat_structs(page);
	sc_compat_offsets(page);
	sc_compat_ipc(page);
	sc_compat_decoders(page);
	sc_check(sc_call32(20 /* getpid */, 0, 0, 0) == me, "tapc-workload: compat getpid");
	sc_check(sc_call32(7 /* waitpid */, -1, 0, WNOHANG) == -ECHILD, "tapc-workload: compat waitpid");
	sc_check(sc_call32(69 /* ssetmask */, 0, 0, 0) == 1 << (SIGUSR1 - 1),
		 "tapc-workload: compat ssetmask");
	syscall(SYS_getpgid, 4322);
	munmap(SC_PAGE, 4096);
}

static void step_sockcalls(long port)
{
	void *page;

	if (port < 1 || port > 65534) {
		fprintf(stderr, "tapc-workload: sockcalls wants a port of 1 to 65534\n");
		exit(2);
	}
	loopback_up();
	page = mmap(SC_PAGE, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	sc_check(page == SC_PAGE, "tapc-workload: sockcalls mmap");
	sc_tcp(port);
	sc_udp(port);
	sc_local();
	munmap(page, 4096);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i += 2) {
		const char *step = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(step, "getpid") == 0) {
			step_getpid(number(step, arg));
		} else if (strcmp(step, "nisys") == 0) {
			step_nisys(number(step, arg));
		} else if (strcmp(step, "sleep") == 0) {
			step_sleep(number(step, arg));
		} else if (strcmp(step, "files") == 0) {
			step_files(arg);
		} else if (strcmp(step, "vfiles") == 0) {
			step_vfiles(arg);
		} else if (strcmp(step, "fork") == 0) {
			step_fork(number(step, arg));
		} else if (strcmp(step, "lease-write") == 0) {
			step_lease(number(step, arg), 1);
		} else if (strcmp(step, "lease-read") == 0) {
			step_lease(number(step, arg), 0);
		} else if (strcmp(step, "tcp") == 0) {
			step_tcp(number(step, arg));
		} else if (strcmp(step, "tcp-refused") == 0) {
			step_tcp_refused();
			i--;	/* takes no argument */
		} else if (strcmp(step, "tcpv") == 0) {
			step_tcpv(number(step, arg));
		} else if (strcmp(step, "pagecache") == 0) {
			step_pagecache(arg);
		} else if (strcmp(step, "udp") == 0) {
			step_udp(number(step, arg));
		} else if (strcmp(step, "udp-port") == 0) {
			step_udp_port(number(step, arg));
		} else if (strcmp(step, "modload") == 0) {
			step_modload(arg);
		} else if (strcmp(step, "modrun") == 0) {
			step_modrun(number(step, arg));
		} else if (strcmp(step, "modunload") == 0) {
			step_modunload(arg);
		} else if (strcmp(step, "threads") == 0) {
			step_threads(number(step, arg));
		} else if (strcmp(step, "devnull") == 0) {
			step_devnull();
			i--;	/* takes no argument */
		} else if (strcmp(step, "threads-wait") == 0) {
			step_threads_wait(number(step, arg), i + 2 < argc ? argv[i + 2] : NULL);
			i++;	/* takes two */
		} else if (strcmp(step, "convert") == 0) {
			step_convert();
			i--;	/* takes no argument */
		} else if (strcmp(step, "signals") == 0) {
			step_signals();
			i--;	/* takes no argument */
		} else if (strcmp(step, "pages") == 0) {
			step_pages(number(step, arg));
		} else if (strcmp(step, "timer") == 0) {
			step_timer(number(step, arg));
		} else if (strcmp(step, "xattr") == 0) {
			step_xattr(number(step, arg));
		} else if (strcmp(step, "blk-write") == 0 || strcmp(step, "blk-read") == 0) {
			step_blk(number(step, arg), i + 2 < argc ? argv[i + 2] : NULL,
				 step[4] == 'w');
			i++;	/* takes two */
		} else if (strcmp(step, "splice") == 0) {
			step_splice(arg);
		} else if (strcmp(step, "modsize") == 0) {
			step_modsize(arg);
		} else if (strcmp(step, "mmapargs") == 0) {
			step_mmapargs();
			i--;	/* takes no argument */
		} else if (strcmp(step, "compat") == 0) {
			step_compat();
			i--;	/* takes no argument */
		} else if (strcmp(step, "sockcalls") == 0) {
			step_sockcalls(number(step, arg));
		} else if (strcmp(step, "pty") == 0) {
			for (long n = number(step, arg); n > 0; n--)
				pty_round();
		} else {
			fprintf(stderr, "tapc-workload: unknown step '%s'\n", step);
			return 2;
		}
	}
	return 0;
}
