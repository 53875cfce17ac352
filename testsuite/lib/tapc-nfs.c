/* tapc-nfs: a loopback NFSv4 server and client in the test VM, and NFS
 * I/O the tapc.nfs script tests know exactly.
 *
 *   tapc-nfs N		(1 <= N <= 65536)
 *
 * Why this shape.  The guest runs chrooted in the host's root, which is a
 * read-only 9p view, and the host need not have any NFS userland.  So
 * nothing here uses rpc.nfsd, exportfs, rpc.mountd, rpcbind or
 * mount.nfs: the kernel's own interfaces are enough for NFSv4 (which needs
 * neither the MOUNT protocol nor rpcbind nor lockd):
 *  - modprobe nfsd and nfsv4 (kmod from the host; the kernel's own
 *    request_module would run the initramfs's modprobe, which has no
 *    /lib/modules);
 *  - mount the nfsd control file system on /proc/fs/nfsd, enable NFSv4
 *    only ("versions"), start two server threads ("threads": with no
 *    listener given, nfsd opens TCP and UDP port 2049 itself) and end the
 *    NFSv4 grace period at once ("v4_end_grace"; no client has state to
 *    reclaim).  The kernel ends it only once it tracks clients, and with
 *    no nfsdcld or nfsdcltrack that takes the legacy recovery directory,
 *    which must exist: a fresh one is set first ("nfsv4recoverydir");
 *  - fill the three caches that rpc.mountd would fill on upcalls by
 *    writing their channels in /proc/net/rpc: auth.unix.ip (127.0.0.1 is
 *    in the client domain "tapc-nfs"), nfsd.export (a tmpfs is exported
 *    read-write, no_root_squash, insecure, no_subtree_check with fsid=0,
 *    which makes it the NFSv4 pseudo-root; a tmpfs needs an fsid) and
 *    nfsd.fh (fsid 0 of that domain is that directory).  A request the
 *    caches cannot answer fails at once: no daemon listens, so the kernel
 *    makes no upcall to wait for;
 *  - mount the export with mount(2) and the kernel's text options
 *    (addr= and clientaddr= given, so that no name is resolved), with
 *    noac so that every stat() is a GETATTR.
 * All of it lives in a fresh directory under $TMPDIR (or /tmp): the export
 * (a tmpfs), the mount point and the recovery directory; everything is undone before exit
 * (unmount, server threads 0, caches flushed, nfsd and the tmpfs
 * unmounted).  The
 * modules stay loaded, as a later run may use them.
 *
 * The I/O, in this order, on the mount (M):
 *	fd = open("M/tapc-nfs-file", O_RDWR|O_CREAT|O_EXCL|O_DIRECT, 0644)
 *		(one OPEN that creates);
 *	pwrite(fd, N bytes of 'n', N, 0) (one WRITE of N bytes at 0: direct
 *		I/O bypasses the page cache and N fits one request);
 *	pread(fd, buf, N, 0) (one READ of N bytes at 0);
 *	close(fd);
 *	stat("M/tapc-nfs-file") (st_size N: a GETATTR);
 *	stat("M/tapc-nfs-nosuch") (fails: ENOENT; one LOOKUP, which the
 *		server answers NFS4ERR_NOENT);
 *	rename("M/tapc-nfs-file", "M/tapc-nfs-renamed") (one RENAME);
 *	unlink("M/tapc-nfs-renamed") (one REMOVE);
 *	mkdir("M/tapc-nfs-dir", 0755) (one CREATE of a directory);
 *	rmdir("M/tapc-nfs-dir") (one REMOVE).
 *
 *   tapc-nfs N buffered	(1 <= N <= 65536)
 *
 * The same server, mounted without noac (noac makes the client's writes
 * synchronous: each write(2) would be flushed at once with a stable
 * WRITE and no COMMIT), and I/O through the page cache, so that the
 * client's address-space operations run a known number of times.  With
 * P = ceil(N / 4096) pages, in this order:
 *	fd = open("M/tapc-nfs-file", O_RDWR|O_CREAT|O_EXCL, 0644) (one OPEN);
 *	pwrite(fd, N bytes of 'b', N, 0) (P write_begin/write_end pairs, one
 *		per page: 4096 bytes at each 4096 * i, the rest in the last;
 *		each page is dirtied once);
 *	sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) (one writepages
 *		and one WRITE of N bytes at 0, started and not waited for:
 *		so it need not be stable, and is not);
 *	fsync(fd) (nothing is dirty: no writepages; it waits for that
 *		WRITE and for one COMMIT of the file, which NFS starts itself
 *		once the WRITEs of a writepages are done, or else the fsync
 *		does: one either way, after which NFS holds the pages no
 *		longer);
 *	fstat(fd) (st_size N; st_ino is the file's inode);
 *	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) (the P clean,
 *		committed pages leave the page cache; NFS is asked to release
 *		only pages it still holds, dirty or awaiting a COMMIT, so
 *		never here: before the COMMIT it would depend on the race with
 *		the COMMIT NFS starts on its own);
 *	pread(fd, buf, N, 0) (one readahead of the P pages: one READ of
 *		4096 * P bytes at 0), checked to be N bytes of 'b';
 *	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) (they leave again);
 *	p = mmap(NULL, N, PROT_READ, MAP_SHARED, fd, 0) and
 *		madvise(p, N, MADV_RANDOM) (no readahead on faults);
 *	one load from each page, in order, each checked to be 'b' (P
 *		faults, each reading its page alone: P read_folio calls and
 *		P READs of 4096 bytes, at 4096 * i);
 *	munmap(p, N); close(fd) (one flush and one release, nothing left to
 *		write); unlink("M/tapc-nfs-file") (one REMOVE).
 *
 * Either way it prints nothing on success; any failure is reported on
 * stderr and the exit status is 1.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define NFSD_FS "/proc/fs/nfsd"
#define DOMAIN "tapc-nfs"
/* NFSEXP_INSECURE_PORT | NFSEXP_NOSUBTREECHECK | NFSEXP_FSID
 * (include/uapi/linux/nfsd/export.h): read-write, root not squashed. */
#define EXPORT_FLAGS (0x0002 | 0x0400 | 0x2000)
#define ANON_ID 65534
/* Cache entries expire at this time of day (2038), long after the run. */
#define EXPIRY "2147483647"
#define MAX_BYTES 65536

static char base[256], export_dir[300], mnt_dir[300], rec_dir[300];
static int nfsd_mounted, export_mounted, client_mounted, server_started;

static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("tapc-nfs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Write TEXT to the control file PATH in one write(), as the kernel
 * parses each write as one request. */
static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(text);
	int ok;

	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		return -1;
	}
	ok = write(fd, text, len) == (ssize_t)len;
	if (!ok)
		fail("write '%.*s' to %s: %s", (int)strcspn(text, "\n"), text,
		     path, strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

static int modprobe(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl("/sbin/modprobe", "modprobe", "-a", "nfsd", "nfsv4",
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fail("modprobe -a nfsd nfsv4 failed");
		return -1;
	}
	return 0;
}

static int loopback_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc = -1;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		rc = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	if (rc != 0)
		fail("cannot bring lo up: %s", strerror(errno));
	close(s);
	return rc;
}

/* The three caches rpc.mountd would fill (see the header). */
static int fill_caches(void)
{
	char line[1024];

	if (put("/proc/net/rpc/auth.unix.ip/channel",
		"nfsd 127.0.0.1 " EXPIRY " " DOMAIN "\n"))
		return -1;
	snprintf(line, sizeof(line), DOMAIN " %s " EXPIRY " %d %d %d 0\n",
		 export_dir, EXPORT_FLAGS, ANON_ID, ANON_ID);
	if (put("/proc/net/rpc/nfsd.export/channel", line))
		return -1;
	/* fsid type 1 (FSID_NUM), fsid 0 as the 4 bytes \x00000000 */
	snprintf(line, sizeof(line), DOMAIN " 1 \\x00000000 " EXPIRY " %s\n",
		 export_dir);
	return put("/proc/net/rpc/nfsd.fh/channel", line);
}

static void flush_caches(void)
{
	static const char *const caches[] = { "auth.unix.ip", "nfsd.export",
					      "nfsd.fh" };
	char path[64], now[32];

	snprintf(now, sizeof(now), "%lld\n", (long long)time(NULL) + 1);
	for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
		snprintf(path, sizeof(path), "/proc/net/rpc/%s/flush", caches[i]);
		put(path, now);
	}
}

static int start_server(void)
{
	char line[400];

	if (modprobe() || loopback_up())
		return -1;
	if (mount("nfsd", NFSD_FS, "nfsd", 0, NULL) == 0)
		nfsd_mounted = 1;
	else if (errno != EBUSY) {
		fail("mount nfsd on %s: %s", NFSD_FS, strerror(errno));
		return -1;
	}
	snprintf(line, sizeof(line), "%s\n", rec_dir);
	if (put(NFSD_FS "/versions", "-2 -3 +4 +4.1 +4.2\n") ||
	    put(NFSD_FS "/nfsv4recoverydir", line))
		return -1;
	if (fill_caches())
		return -1;
	server_started = 1;
	if (put(NFSD_FS "/threads", "2\n") ||
	    put(NFSD_FS "/v4_end_grace", "Y\n"))
		return -1;
	return 0;
}

static int make_dirs(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(base, sizeof(base), "%s/tapc-nfs.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(base)) {
		fail("mkdtemp %s: %s", base, strerror(errno));
		return -1;
	}
	snprintf(export_dir, sizeof(export_dir), "%s/export", base);
	snprintf(mnt_dir, sizeof(mnt_dir), "%s/mnt", base);
	snprintf(rec_dir, sizeof(rec_dir), "%s/v4recovery", base);
	if (mkdir(export_dir, 0755) || mkdir(mnt_dir, 0755) ||
	    mkdir(rec_dir, 0700)) {
		fail("mkdir under %s: %s", base, strerror(errno));
		return -1;
	}
	if (mount("tapc-nfs", export_dir, "tmpfs", 0, "mode=0777,size=1m")) {
		fail("mount tmpfs on %s: %s", export_dir, strerror(errno));
		return -1;
	}
	export_mounted = 1;
	return 0;
}

static int mount_client(int buffered)
{
	const char *opts = buffered ?
		"vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1" :
		"vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1,noac";

	if (mount("127.0.0.1:/", mnt_dir, "nfs4", 0, opts)) {
		fail("mount 127.0.0.1:/ on %s: %s", mnt_dir, strerror(errno));
		return -1;
	}
	client_mounted = 1;
	return 0;
}

/* The recovery directory holds one directory per client that had state
 * (named by a hash of its id); nothing deeper. */
static void remove_tree(const char *dir)
{
	char path[600];
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (dp) {
		while ((d = readdir(dp)) != NULL) {
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
				snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
				rmdir(path);
			}
		}
		closedir(dp);
	}
	rmdir(dir);
}

static void teardown(void)
{
	if (client_mounted && umount2(mnt_dir, 0))
		fail("umount %s: %s", mnt_dir, strerror(errno));
	if (server_started) {
		put(NFSD_FS "/threads", "0\n");
		flush_caches();
	}
	if (nfsd_mounted)
		umount2(NFSD_FS, 0);
	/* Detached: nfsd may hold the tmpfs a while longer (its file cache
	 * and export cache let go of it lazily). */
	if (export_mounted && umount2(export_dir, MNT_DETACH))
		fail("umount %s: %s", export_dir, strerror(errno));
	if (*base) {
		rmdir(mnt_dir);
		rmdir(export_dir);
		remove_tree(rec_dir);
		rmdir(base);
	}
}

static int check(int ok, const char *what)
{
	if (!ok)
		fail("%s: %s", what, strerror(errno));
	return ok ? 0 : -1;
}

/* The I/O of the header, on the mount. */
static int run_io(long n)
{
	char file[400], renamed[400], dir[400], nosuch[400];
	char *buf;
	struct stat st;
	int fd, rc = -1;

	if (posix_memalign((void **)&buf, 4096, MAX_BYTES))
		return -1;
	memset(buf, 'n', n);
	snprintf(file, sizeof(file), "%s/tapc-nfs-file", mnt_dir);
	snprintf(renamed, sizeof(renamed), "%s/tapc-nfs-renamed", mnt_dir);
	snprintf(dir, sizeof(dir), "%s/tapc-nfs-dir", mnt_dir);
	fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0644);
	if (check(fd >= 0, "create"))
		goto out;
	if (check(pwrite(fd, buf, n, 0) == n, "write") ||
	    check(pread(fd, buf, n, 0) == n, "read")) {
		close(fd);
		goto out;
	}
	close(fd);
	snprintf(nosuch, sizeof(nosuch), "%s/tapc-nfs-nosuch", mnt_dir);
	if (check(stat(file, &st) == 0 && st.st_size == n, "stat") ||
	    check(stat(nosuch, &st) != 0 && errno == ENOENT, "stat of a missing file") ||
	    check(rename(file, renamed) == 0, "rename") ||
	    check(unlink(renamed) == 0, "unlink") ||
	    check(mkdir(dir, 0755) == 0, "mkdir") ||
	    check(rmdir(dir) == 0, "rmdir"))
		goto out;
	rc = 0;
out:
	free(buf);
	return rc;
}

static int all_b(const char *buf, long n)
{
	for (long i = 0; i < n; i++)
		if (buf[i] != 'b')
			return 0;
	return 1;
}

/* Drop FD's clean pages from the page cache. */
static int drop_cache(int fd)
{
	int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	errno = err;	/* posix_fadvise returns its error */
	return check(err == 0, "posix_fadvise DONTNEED");
}

/* Each page of the mapping of FD's N bytes read by its own fault. */
static int fault_pages(int fd, long n)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile const char *p;
	int ok = 1;

	p = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
	if (check(p != MAP_FAILED, "mmap"))
		return -1;
	if (check(madvise((void *)p, n, MADV_RANDOM) == 0, "madvise")) {
		munmap((void *)p, n);
		return -1;
	}
	for (long off = 0; off < n; off += page)
		ok &= p[off] == 'b';
	munmap((void *)p, n);
	if (!ok)
		fail("the mapped pages do not hold what was written");
	return ok ? 0 : -1;
}

/* The buffered I/O of the header, on the mount. */
static int run_buffered_io(long n)
{
	char file[400], buf[MAX_BYTES];
	struct stat st;
	int fd, rc = -1;

	snprintf(file, sizeof(file), "%s/tapc-nfs-file", mnt_dir);
	fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (check(fd >= 0, "create"))
		return -1;
	memset(buf, 'b', n);
	if (check(pwrite(fd, buf, n, 0) == n, "write") ||
	    check(sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) == 0,
		  "sync_file_range") ||
	    check(fsync(fd) == 0, "fsync") ||
	    check(fstat(fd, &st) == 0 && st.st_size == n, "fstat") ||
	    drop_cache(fd))
		goto out;
	memset(buf, 0, n);
	if (check(pread(fd, buf, n, 0) == n, "read"))
		goto out;
	if (!all_b(buf, n)) {
		fail("read back something else than was written");
		goto out;
	}
	if (drop_cache(fd) || fault_pages(fd, n))
		goto out;
	rc = 0;
out:
	if (check(close(fd) == 0, "close"))
		rc = -1;
	if (check(unlink(file) == 0, "unlink"))
		rc = -1;
	return rc;
}

int main(int argc, char **argv)
{
	char *end;
	long n;
	int rc, buffered = 0;

	if (argc == 3 && strcmp(argv[2], "buffered") == 0)
		buffered = 1;
	else if (argc != 2) {
		fprintf(stderr, "usage: tapc-nfs N [buffered] (N bytes, 1..%d)\n",
			MAX_BYTES);
		return 2;
	}
	n = strtol(argv[1], &end, 10);
	if (*end || n < 1 || n > MAX_BYTES) {
		fprintf(stderr, "tapc-nfs: N must be 1..%d, not '%s'\n",
			MAX_BYTES, argv[1]);
		return 2;
	}
	rc = make_dirs() || start_server() || mount_client(buffered) ||
	     (buffered ? run_buffered_io(n) : run_io(n));
	teardown();
	return rc ? 1 : 0;
}
