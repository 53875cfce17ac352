/* tapc-sys-sysfb: the file-system, splice and vector I/O system calls of
 * tapc.syscall/sysfb.stp, each once with known arguments.
 *
 *   tapc-sys-sysfb
 *
 * Every call goes through syscall(2), so that the C library cannot pick
 * another call for it (mkdir() may be mkdirat ...).  The work happens in a
 * fresh directory under $TMPDIR (or /tmp), named with relative paths, so
 * that the argstr the script prints does not depend on where; the
 * directory is removed at the end.  The buffers the calls read (a file
 * handle, quota structures, I/O vectors, a statx buffer ...) are in one
 * page mapped at 0x71000000 (PAGE below), so their addresses are known,
 * and the descriptors are moved to known numbers: 20 the directory
 * "sysfb-dir", 21 and 22 one pipe, 23 and 24 another.
 *
 * The calls that would change the system (mount, pivot_root, swapon,
 * swapoff, quotactl) or that a file system may not support
 * (name_to_handle_at, mknod) name paths that do not exist, so that they
 * fail the same way everywhere, after the kernel has read their
 * arguments; the script checks the arguments, and the errors say that the
 * calls ran.  The order (the script prints from the first mkdir of
 * "sysfb-dir" on):
 *	mkdir("sysfb-dir", 0750), mkdirat(AT_FDCWD, "sysfb-dir/sub", 0700),
 *	open of sysfb-dir as 20,
 *	mknod("nosuch/fifo", S_IFIFO|0640, 0): ENOENT,
 *	mknodat(20, "nosuch/null", S_IFCHR|0600, makedev(1, 3)): ENOENT,
 *	mount("tapc-none", "nosuch-mnt", "tmpfs", MS_NOSUID|MS_NODEV|MS_NOEXEC
 *		|MS_RELATIME, "size=64k,mode=0700"): ENOENT,
 *	name_to_handle_at(AT_FDCWD, "nosuch-file", PAGE, PAGE+0x100,
 *		AT_SYMLINK_FOLLOW): ENOENT,
 *	open_by_handle_at(AT_FDCWD, PAGE+0x200 (0 bytes), O_RDONLY|O_CLOEXEC):
 *		EINVAL,
 *	pivot_root("nosuch-new", "nosuch-old"): ENOENT,
 *	quotactl, special file "nosuch-dev", each ENOENT:
 *		(Q_QUOTAON, USRQUOTA), QFMT_VFS_V1, "aquota.user" (PAGE+0x580);
 *		(Q_SETQUOTA, GRPQUOTA), 1000, if_dqblk {100, 80, 4096, 10, 8};
 *		(Q_SETINFO, PRJQUOTA), 0, if_dqinfo {604800, 86400, 0, 3};
 *		(Q_GETFMT, USRQUOTA), 0, PAGE+0x600;
 *		(Q_SYNC, USRQUOTA), 0, NULL;
 *		(Q_XGETQSTAT, USRQUOTA) with the special file at PAGE+0x500, 0,
 *		PAGE+0x600,
 *	rename("sysfb-dir/sub", "sysfb-dir/sub2"),
 *	renameat(20, "sub2", AT_FDCWD, "sysfb-sub3"),
 *	renameat2(AT_FDCWD, "nosuch-old", 20, "sub",
 *		RENAME_NOREPLACE|RENAME_WHITEOUT): ENOENT (the source is looked
 *		up before a file system can refuse the flags),
 *	pipes 21/22 and 23/24, write(22, "hello", 5),
 *	splice(21, NULL, 24, NULL, 5, SPLICE_F_MOVE|SPLICE_F_NONBLOCK): 5,
 *	splice(23, NULL, 22, PAGE+0xa00, 5, SPLICE_F_MORE|SPLICE_F_GIFT):
 *		ESPIPE (an offset on a pipe),
 *	vmsplice(22, PAGE+0x700, 2, SPLICE_F_GIFT) ("abcdef" and "ghij"): 10,
 *	readv(21, PAGE+0x740, 2) (6 and 4 bytes): 10,
 *	writev(22, PAGE+0x740, 2): 10,
 *	statx(AT_FDCWD, "sysfb-dir", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
 *		PAGE+0x900): 0,
 *	statx(20, "", AT_EMPTY_PATH|AT_STATX_DONT_SYNC, 0, PAGE+0x900): 0,
 *	swapon("nosuch-swap", SWAP_FLAG_PREFER|SWAP_FLAG_DISCARD|7): ENOENT,
 *	swapoff("nosuch-swap"): ENOENT,
 *	symlink("sysfb-dir", "sysfb-link"), symlinkat("sysfb-dir", 20, "link2"),
 *	readlinkat(20, "link2", PAGE+0x600, 64): 9,
 *	sync_file_range(21, 4096, 8192, SYNC_FILE_RANGE_WAIT_BEFORE
 *		|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER): ESPIPE,
 *	open of "sysfb-file" (6 bytes written), truncate("sysfb-file", 3): 0,
 *	uselib("nosuch-lib"): ENOSYS (x86-64 has the number, not the call),
 *	unlinkat(20, "link2", 0), unlinkat(AT_FDCWD, "sysfb-sub3",
 *		AT_REMOVEDIR),
 *	nfsservctl(NFSCTL_GETFD = 7, PAGE+0xb00, PAGE+0xb80): ENOSYS.
 * Then, not printed: the link, the file and the directories go.
 * Exit status 0, or 1 with a message when a step fails unexpectedly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#define PAGE ((char *)0x71000000UL)

/* The directory, the pipes. */
enum { DIR_FD = 20, P1_READ, P1_WRITE, P2_READ, P2_WRITE };

static void die(const char *what)
{
	fprintf(stderr, "tapc-sys-sysfb: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A call that must succeed (result >= 0). */
static long must(long ret, const char *what)
{
	if (ret < 0)
		die(what);
	return ret;
}

/* A call that must fail with errno @err. */
static void must_fail(long ret, int err, const char *what)
{
	if (ret != -1 || errno != err) {
		fprintf(stderr, "tapc-sys-sysfb: %s: returned %ld (%s), expected %s\n",
			what, ret, ret == -1 ? strerror(errno) : "success", strerror(err));
		exit(1);
	}
}

/* @fd moved to descriptor @to. */
static void move_fd(int fd, int to)
{
	must(dup2(fd, to), "dup2");
	close(fd);
}

static void setup_page(void)
{
	struct file_handle *fh = (struct file_handle *)PAGE;
	struct file_handle *empty = (struct file_handle *)(PAGE + 0x200);
	struct if_dqblk *dqb = (struct if_dqblk *)(PAGE + 0x300);
	struct if_dqinfo *dqi = (struct if_dqinfo *)(PAGE + 0x400);
	struct iovec *vms = (struct iovec *)(PAGE + 0x700);
	struct iovec *rw = (struct iovec *)(PAGE + 0x740);

	if (mmap(PAGE, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != PAGE)
		die("mmap");
	fh->handle_bytes = 128;
	empty->handle_bytes = 0;
	dqb->dqb_bhardlimit = 100;
	dqb->dqb_bsoftlimit = 80;
	dqb->dqb_curspace = 4096;
	dqb->dqb_ihardlimit = 10;
	dqb->dqb_isoftlimit = 8;
	dqi->dqi_bgrace = 604800;
	dqi->dqi_igrace = 86400;
	dqi->dqi_flags = 0;
	dqi->dqi_valid = 3;
	strcpy(PAGE + 0x500, "nosuch-dev");
	strcpy(PAGE + 0x580, "aquota.user");
	memcpy(PAGE + 0x800, "abcdefghij", 10);
	vms[0] = (struct iovec){ PAGE + 0x800, 6 };
	vms[1] = (struct iovec){ PAGE + 0x806, 4 };
	rw[0] = (struct iovec){ PAGE + 0x810, 6 };
	rw[1] = (struct iovec){ PAGE + 0x816, 4 };
}

/* The directories, mknod, mount, the file handles and pivot_root. */
static void paths(void)
{
	must(syscall(SYS_mkdir, "sysfb-dir", 0750), "mkdir");
	must(syscall(SYS_mkdirat, AT_FDCWD, "sysfb-dir/sub", 0700), "mkdirat");
	move_fd(must(open("sysfb-dir", O_RDONLY | O_DIRECTORY), "open sysfb-dir"), DIR_FD);
	must_fail(syscall(SYS_mknod, "nosuch/fifo", S_IFIFO | 0640, 0), ENOENT, "mknod");
	must_fail(syscall(SYS_mknodat, DIR_FD, "nosuch/null", S_IFCHR | 0600, makedev(1, 3)),
		  ENOENT, "mknodat");
	must_fail(syscall(SYS_mount, "tapc-none", "nosuch-mnt", "tmpfs",
			  MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RELATIME, "size=64k,mode=0700"),
		  ENOENT, "mount");
	must_fail(syscall(SYS_name_to_handle_at, AT_FDCWD, "nosuch-file", PAGE, PAGE + 0x100,
			  AT_SYMLINK_FOLLOW), ENOENT, "name_to_handle_at");
	must_fail(syscall(SYS_open_by_handle_at, AT_FDCWD, PAGE + 0x200, O_RDONLY | O_CLOEXEC),
		  EINVAL, "open_by_handle_at");
	must_fail(syscall(SYS_pivot_root, "nosuch-new", "nosuch-old"), ENOENT, "pivot_root");
}

static void quotas(void)
{
	static const char dev[] = "nosuch-dev";

	must_fail(syscall(SYS_quotactl, QCMD(Q_QUOTAON, USRQUOTA), dev, QFMT_VFS_V1,
			  PAGE + 0x580), ENOENT, "quotactl Q_QUOTAON");
	must_fail(syscall(SYS_quotactl, QCMD(Q_SETQUOTA, GRPQUOTA), dev, 1000, PAGE + 0x300),
		  ENOENT, "quotactl Q_SETQUOTA");
	must_fail(syscall(SYS_quotactl, QCMD(Q_SETINFO, PRJQUOTA), dev, 0, PAGE + 0x400),
		  ENOENT, "quotactl Q_SETINFO");
	must_fail(syscall(SYS_quotactl, QCMD(Q_GETFMT, USRQUOTA), dev, 0, PAGE + 0x600),
		  ENOENT, "quotactl Q_GETFMT");
	must_fail(syscall(SYS_quotactl, QCMD(Q_SYNC, USRQUOTA), dev, 0, NULL),
		  ENOENT, "quotactl Q_SYNC");
	must_fail(syscall(SYS_quotactl, QCMD(Q_XGETQSTAT, USRQUOTA), PAGE + 0x500, 0,
			  PAGE + 0x600), ENOENT, "quotactl Q_XGETQSTAT");
}

static void renames(void)
{
	must(syscall(SYS_rename, "sysfb-dir/sub", "sysfb-dir/sub2"), "rename");
	must(syscall(SYS_renameat, DIR_FD, "sub2", AT_FDCWD, "sysfb-sub3"), "renameat");
	must_fail(syscall(SYS_renameat2, AT_FDCWD, "nosuch-old", DIR_FD, "sub",
			  RENAME_NOREPLACE | RENAME_WHITEOUT), ENOENT, "renameat2");
}

static void pipes(void)
{
	int p[2];

	must(pipe(p), "pipe");
	move_fd(p[0], P1_READ);
	move_fd(p[1], P1_WRITE);
	must(pipe(p), "pipe");
	move_fd(p[0], P2_READ);
	move_fd(p[1], P2_WRITE);
	must(write(P1_WRITE, "hello", 5), "write");
	if (must(syscall(SYS_splice, P1_READ, NULL, P2_WRITE, NULL, 5,
			 SPLICE_F_MOVE | SPLICE_F_NONBLOCK), "splice") != 5)
		die("splice: short");
	must_fail(syscall(SYS_splice, P2_READ, NULL, P1_WRITE, PAGE + 0xa00, 5,
			  SPLICE_F_MORE | SPLICE_F_GIFT), ESPIPE, "splice with an offset");
	if (must(syscall(SYS_vmsplice, P1_WRITE, PAGE + 0x700, 2, SPLICE_F_GIFT),
		 "vmsplice") != 10)
		die("vmsplice: short");
	if (must(syscall(SYS_readv, P1_READ, PAGE + 0x740, 2), "readv") != 10)
		die("readv: short");
	if (must(syscall(SYS_writev, P1_WRITE, PAGE + 0x740, 2), "writev") != 10)
		die("writev: short");
}

static void files(void)
{
	int fd;

	must(syscall(SYS_statx, AT_FDCWD, "sysfb-dir", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
		     PAGE + 0x900), "statx");
	must(syscall(SYS_statx, DIR_FD, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, 0, PAGE + 0x900),
	     "statx of a descriptor");
	must_fail(syscall(SYS_swapon, "nosuch-swap", SWAP_FLAG_PREFER | SWAP_FLAG_DISCARD | 7),
		  ENOENT, "swapon");
	must_fail(syscall(SYS_swapoff, "nosuch-swap"), ENOENT, "swapoff");
	must(syscall(SYS_symlink, "sysfb-dir", "sysfb-link"), "symlink");
	must(syscall(SYS_symlinkat, "sysfb-dir", DIR_FD, "link2"), "symlinkat");
	if (must(syscall(SYS_readlinkat, DIR_FD, "link2", PAGE + 0x600, 64), "readlinkat") != 9)
		die("readlinkat: length");
	must_fail(syscall(SYS_sync_file_range, P1_READ, 4096, 8192,
			  SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE
			  | SYNC_FILE_RANGE_WAIT_AFTER), ESPIPE, "sync_file_range");
	fd = must(open("sysfb-file", O_WRONLY | O_CREAT | O_TRUNC, 0644), "open sysfb-file");
	must(write(fd, "abcdef", 6), "write sysfb-file");
	close(fd);
	must(syscall(SYS_truncate, "sysfb-file", 3), "truncate");
	must_fail(syscall(SYS_uselib, "nosuch-lib"), ENOSYS, "uselib");
	must(syscall(SYS_unlinkat, DIR_FD, "link2", 0), "unlinkat");
	must(syscall(SYS_unlinkat, AT_FDCWD, "sysfb-sub3", AT_REMOVEDIR), "unlinkat dir");
	must_fail(syscall(SYS_nfsservctl, 7, PAGE + 0xb00, PAGE + 0xb80), ENOSYS, "nfsservctl");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/tapc-sysfb.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp");
	must(chdir(dir), "chdir");
	setup_page();
	paths();
	quotas();
	renames();
	pipes();
	files();
	must(unlink("sysfb-link"), "unlink sysfb-link");
	must(unlink("sysfb-file"), "unlink sysfb-file");
	close(DIR_FD);
	must(rmdir("sysfb-dir"), "rmdir sysfb-dir");
	must(chdir("/"), "chdir /");
	must(rmdir(dir), "rmdir");
	return 0;
}
