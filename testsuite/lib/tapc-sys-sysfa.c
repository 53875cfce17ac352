/*
 * tapc-sys-sysfa: the workload of testsuite/tapc.syscall/sysfa.stp.  It
 * makes the file system calls of scripts/syscall-formats/sysfa.py with
 * known arguments, through syscall(2) so that libc adds or changes none,
 * in a fresh directory DIR (default /dev/shm/tapc-sysfa: tmpfs in the
 * test VM, which has fallocate's hole punching and trusted.* extended
 * attributes).  It writes nothing: the script prints what it saw.
 *
 * The first call of interest is chroot("/tapc-sysfa-nosuch") (ENOENT),
 * the marker the script starts printing at.  Descriptors 3 and up are
 * closed first, so the descriptors the calls create are numbered 3, 4 ...
 * in order.  Exit status 0 when every call returned what it should.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fanotify.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif
/* the kernel's O_LARGEFILE: x86-64's libc defines it as 0 */
#define KERNEL_O_LARGEFILE 0100000

static int failures;

/* expect WHAT's result to be WANT (or, for WANT -1, errno ERR) */
static long expect(const char *what, long got, long want, int err)
{
	if (got != want || (want == -1 && errno != err)) {
		fprintf(stderr, "tapc-sys-sysfa: %s returned %ld (errno %d), expected %ld\n",
			what, got, got == -1 ? errno : 0, want);
		failures++;
	}
	return got;
}

/* Ownership, modes and access checks of "file" (descriptor 3). */
static void owners_and_modes(void)
{
	expect("fchmod", syscall(SYS_fchmod, 3, 0600), 0, 0);
	expect("chmod", syscall(SYS_chmod, "file", 0640), 0, 0);
	expect("fchmodat", syscall(SYS_fchmodat, AT_FDCWD, "file", 0644), 0, 0);
	expect("chown", syscall(SYS_chown, "file", -1, -1), 0, 0);
	expect("lchown", syscall(SYS_lchown, "file", 0, 0), 0, 0);
	expect("fchown", syscall(SYS_fchown, 3, -1, 0), 0, 0);
	expect("fchownat", syscall(SYS_fchownat, AT_FDCWD, "file", 0, -1,
				   AT_SYMLINK_NOFOLLOW), 0, 0);
	expect("faccessat", syscall(SYS_faccessat, AT_FDCWD, "file", R_OK | W_OK), 0, 0);
	expect("faccessat2", syscall(SYS_faccessat2, AT_FDCWD, "file", F_OK,
				     AT_SYMLINK_NOFOLLOW | AT_EACCESS), 0, 0);
}

/* Space, advice, descriptor flags and locks of descriptor 3. */
static void descriptor_calls(void)
{
	expect("fallocate", syscall(SYS_fallocate, 3, 0, 0L, 16384L), 0, 0);
	expect("fallocate punch", syscall(SYS_fallocate, 3,
					  FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE,
					  4096L, 8192L), 0, 0);
	expect("fadvise64", syscall(SYS_fadvise64, 3, 0L, 4096L, POSIX_FADV_DONTNEED), 0, 0);
	expect("fcntl F_SETFD", syscall(SYS_fcntl, 3, F_SETFD, FD_CLOEXEC), 0, 0);
	expect("fcntl F_GETFD", syscall(SYS_fcntl, 3, F_GETFD, 0), FD_CLOEXEC, 0);
	expect("fcntl 9999", syscall(SYS_fcntl, 3, 9999, 0), -1, EINVAL);
	expect("flock", syscall(SYS_flock, 3, LOCK_EX | LOCK_NB), 0, 0);
	expect("flock unlock", syscall(SYS_flock, 3, LOCK_UN), 0, 0);
	expect("ioctl FIOCLEX", syscall(SYS_ioctl, 3, FIOCLEX, 0), 0, 0);
	expect("dup2", syscall(SYS_dup2, 3, 8), 8, 0);
	expect("dup3", syscall(SYS_dup3, 3, 9, O_CLOEXEC), 9, 0);
}

/* Extended attributes of "file": trusted.* (tmpfs has no user.* in 6.1). */
static void xattrs(void)
{
	static const char bin[4] = { 1, (char)0xff, 'a', 'b' };

	expect("setxattr", syscall(SYS_setxattr, "file", "trusted.tapc", "v1", 3,
				   XATTR_CREATE), 0, 0);
	expect("lsetxattr", syscall(SYS_lsetxattr, "file", "trusted.tapc", bin, 4,
				    XATTR_REPLACE), 0, 0);
	expect("fsetxattr", syscall(SYS_fsetxattr, 3, "trusted.other", "say \"hi\"", 8, 0),
	       0, 0);
	expect("getxattr", syscall(SYS_getxattr, "file", "trusted.tapc", NULL, 0), 4, 0);
	expect("lgetxattr", syscall(SYS_lgetxattr, "file", "trusted.nosuch", NULL, 0),
	       -1, ENODATA);
	expect("fgetxattr", syscall(SYS_fgetxattr, 3, "trusted.other", NULL, 0), 8, 0);
	expect("listxattr", syscall(SYS_listxattr, "file", NULL, 0), 27, 0);
	expect("llistxattr", syscall(SYS_llistxattr, "file", NULL, 0), 27, 0);
	expect("flistxattr", syscall(SYS_flistxattr, 3, NULL, 0), 27, 0);
	expect("removexattr", syscall(SYS_removexattr, "file", "trusted.tapc"), 0, 0);
	expect("lremovexattr", syscall(SYS_lremovexattr, "file", "trusted.tapc"),
	       -1, ENODATA);
	expect("fremovexattr", syscall(SYS_fremovexattr, 3, "trusted.other"), 0, 0);
}

/* Links, a copy, a directory listing and a status of "file"'s links. */
static void links_and_copies(void)
{
	char dents[4096];
	struct stat st;

	expect("link", syscall(SYS_link, "file", "file2"), 0, 0);
	expect("linkat", syscall(SYS_linkat, AT_FDCWD, "file2", AT_FDCWD, "file3", 0), 0, 0);
	expect("lstat", syscall(SYS_lstat, "file3", &st), 0, 0);
	/* 5 bytes of "file" from its position (12, after the write) on */
	expect("open copy", open("copy", O_WRONLY | O_CREAT | O_TRUNC, 0644), 4, 0);
	expect("copy_file_range", syscall(SYS_copy_file_range, 3, NULL, 4, NULL, 5UL, 0),
	       5, 0);
	expect("open .", open(".", O_RDONLY | O_DIRECTORY), 5, 0);
	/* ".", "..", "file", "file2", "file3" and "copy" */
	if (syscall(SYS_getdents, 5, dents, sizeof(dents)) <= 0) {
		perror("getdents");
		failures++;
	}
	/* syscall.getdents covers getdents64 too (stap has no
	 * syscall.getdents64): the same entries again, the same 160 bytes */
	if (lseek(5, 0, SEEK_SET) != 0 ||
	    syscall(SYS_getdents64, 5, dents, sizeof(dents)) <= 0) {
		perror("getdents64");
		failures++;
	}
}

/* inotify and fanotify watches of the directory. */
static void notifications(void)
{
	expect("inotify_init1", inotify_init1(IN_CLOEXEC), 6, 0);
	expect("inotify_add_watch", syscall(SYS_inotify_add_watch, 6, ".",
					    IN_CREATE | IN_DELETE | IN_ONLYDIR), 1, 0);
	expect("fanotify_init", syscall(SYS_fanotify_init,
					FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
					O_RDONLY | KERNEL_O_LARGEFILE), 7, 0);
	expect("fanotify_mark", syscall(SYS_fanotify_mark, 7,
					FAN_MARK_ADD | FAN_MARK_ONLYDIR,
					(unsigned long long)(FAN_OPEN | FAN_CLOSE_WRITE |
							     FAN_ONDIR | FAN_EVENT_ON_CHILD),
					AT_FDCWD, "."), 0, 0);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/dev/shm/tapc-sysfa";

	syscall(SYS_close_range, 3, ~0U, 0);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		perror(dir);
		return 2;
	}
	if (chdir(dir)) {
		perror(dir);
		return 2;
	}
	unlink("file");
	unlink("file2");
	unlink("file3");
	unlink("copy");
	expect("open file", open("file", O_RDWR | O_CREAT | O_TRUNC, 0644), 3, 0);
	if (write(3, "hello world\n", 12) != 12)
		failures++;

	expect("chroot", syscall(SYS_chroot, "/tapc-sysfa-nosuch"), -1, ENOENT);
	owners_and_modes();
	descriptor_calls();
	xattrs();
	links_and_copies();
	notifications();
	expect("acct", syscall(SYS_acct, "/tapc-sysfa-nosuch"), -1, ENOENT);

	unlink("file");
	unlink("file2");
	unlink("file3");
	unlink("copy");
	if (chdir("/") == 0)
		rmdir(dir);
	return failures ? 1 : 0;
}
