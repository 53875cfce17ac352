/*
 * tapc-sys-sysmisc: the workload of testsuite/tapc.syscall/sysmisc.stp.
 * It makes, through syscall(2) so that libc changes none, the calls whose
 * argstr SystemTap's own syscall testsuite checked and tapc printed
 * differently: kill with a bad signal, pipe and pipe2, eventfd and
 * eventfd2, inotify_init1, write of a buffer cut at 45 characters, preadv,
 * pwritev, preadv2 and pwritev2 at an offset, fsync, fdatasync, fchdir,
 * ftruncate and fstatfs of descriptor -1, fstatat (the
 * kernel's newfstatat) and umount (umount2).  Paths are copied to the
 * stack first: a string in .rodata may not be mapped yet when the call's
 * probe reads it.  Descriptors 3 and up are closed first, so those the
 * calls create are numbered 3, 4 ... in order.  The first call of
 * interest is kill(0, -1), the script's marker.  Exit status 0 when every
 * call returned what it should.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static int failures;

/* expect WHAT's result to be WANT (or, for WANT -1, errno ERR) */
static long expect(const char *what, long got, long want, int err)
{
	if (got != want || (want == -1 && errno != err)) {
		fprintf(stderr, "tapc-sys-sysmisc: %s returned %ld (errno %d), expected %ld\n",
			what, got, got == -1 ? errno : 0, want);
		failures++;
	}
	return got;
}

/* pipe and pipe2 (descriptors 3 to 6): the array holds 0, 0 at first */
static void pipes(void)
{
	int fds[2] = { 0, 0 };

	expect("pipe", syscall(SYS_pipe, fds), 0, 0);
	expect("pipe2", syscall(SYS_pipe2, fds, O_NONBLOCK | O_CLOEXEC), 0, 0);
	expect("pipe2 NULL", syscall(SYS_pipe2, NULL, 0), -1, EFAULT);
	expect("pipe2 -1", syscall(SYS_pipe2, fds, -1), -1, EINVAL);
}

/* eventfd, eventfd2 and inotify_init1 (descriptors 7 to 10) */
static void event_fds(void)
{
	expect("eventfd", syscall(SYS_eventfd, 5), 7, 0);
	expect("eventfd2", syscall(SYS_eventfd2, 1, EFD_NONBLOCK | EFD_CLOEXEC), 8, 0);
	expect("eventfd2 semaphore", syscall(SYS_eventfd2, 0, EFD_SEMAPHORE), 9, 0);
	expect("eventfd2 -1", syscall(SYS_eventfd2, 4, -1), -1, EINVAL);
	expect("inotify_init1", syscall(SYS_inotify_init1, IN_NONBLOCK), 10, 0);
	expect("inotify_init1 -1", syscall(SYS_inotify_init1, -1), -1, EINVAL);
}

/* write, pwritev, preadv, preadv2 and pwritev2 of FILE (descriptor 11),
 * the vectors at offset 0x100; fsync ... fstatfs of descriptor -1 (a
 * signed int); then fstatat and umount */
static void file_calls(const char *file)
{
	char data[] = "red";
	char back[sizeof(data)];
	struct iovec out = { data, sizeof(data) }, in = { back, sizeof(back) };
	char nosuch[] = "/tapc-sysmisc-nosuch";
	struct stat st;
	struct statfs fs;
	char text[] = "Hello world abcdefghijklmnopqrstuvwxyz 01234567890123456789";

	expect("open", open(file, O_RDWR | O_CREAT | O_TRUNC, 0600), 11, 0);
	expect("write", syscall(SYS_write, 11, text, 59L), 59, 0);
	expect("pwritev", syscall(SYS_pwritev, 11, &out, 1, 0x100L, 0L), 4, 0);
	expect("preadv", syscall(SYS_preadv, 11, &in, 1, 0x100L, 0L), 4, 0);
	expect("preadv2", syscall(SYS_preadv2, 11, &in, 1, 0x100L, 0L, 0), 4, 0);
	expect("pwritev2", syscall(SYS_pwritev2, 11, &out, 1, 0x100L, 0L,
				   RWF_HIPRI | 0x80000000), -1, EOPNOTSUPP);
	expect("fsync", syscall(SYS_fsync, -1), -1, EBADF);
	expect("fdatasync", syscall(SYS_fdatasync, -1), -1, EBADF);
	expect("fchdir", syscall(SYS_fchdir, -1), -1, EBADF);
	expect("ftruncate", syscall(SYS_ftruncate, -1, 5L), -1, EBADF);
	expect("fstatfs", syscall(SYS_fstatfs, -1, &fs), -1, EBADF);
	expect("fstatat", syscall(SYS_newfstatat, AT_FDCWD, file, &st,
				  AT_SYMLINK_NOFOLLOW), 0, 0);
	expect("umount", syscall(SYS_umount2, nosuch, MNT_DETACH), -1, ENOENT);
}

int main(void)
{
	char file[] = "/dev/shm/tapc-sysmisc";

	syscall(SYS_close_range, 3, ~0U, 0);
	expect("kill", syscall(SYS_kill, 0, -1), -1, EINVAL);
	pipes();
	event_fds();
	file_calls(file);
	unlink(file);
	return failures ? 1 : 0;
}
