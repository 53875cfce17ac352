/*
 * The workload of tapc.syscall/sysmem.stp: memory, SysV IPC, POSIX message
 * queue, futex, key, bpf, perf, aio, kexec and module system calls with
 * known arguments, made with syscall(2) so that libc adds or changes none.
 * Buffers sit at fixed addresses from 0x70000000 so that the pointers
 * print the same in every run; the calls that could change the system
 * (kexec, modules, keys) get arguments the kernel rejects.  The strings
 * are copied there too (resident: the tapset reads user memory without
 * faulting it in), and the long arguments are passed as longs (a variadic
 * int leaves the register's high half undefined).  The first call,
 * mincore() of 0x70000000, is the test's marker.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/keyctl.h>
#include <linux/mempolicy.h>
#include <stdint.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BASE 0x70000000UL
#define AT(off) ((void *)(BASE + (off)))

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 0x01
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#endif
#define PKEY_DISABLE_WRITE_BIT 0x2
#define PERF_FLAG_FD_CLOEXEC_BIT (1UL << 3)
#define KEXEC_ARCH_X86_64_VAL (62 << 16)
#define KEXEC_FILE_NO_INITRAMFS_BIT 0x4
#define MODULE_INIT_IGNORE_VERMAGIC_BIT 2
#define BPF_MAP_LOOKUP_ELEM_CMD 1
#define IPC_64_BIT 0x0100

/* The pages the calls point into, resident (the tapset reads the
 * timespecs without faulting pages in). */
static int map_buffers(void)
{
	void *p = mmap(AT(0), 0x10000, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != AT(0))
		return -1;
	memset(p, 0, 0x10000);
	return 0;
}

/* @s copied to 0x70006000 + @off. */
static char *str_at(unsigned long off, const char *s)
{
	return strcpy(AT(0x6000 + off), s);
}

static void memory_calls(void)
{
	syscall(SYS_mincore, AT(0), 4096L, AT(0x1000));
	syscall(SYS_madvise, AT(0), 8192L, MADV_WILLNEED);
	syscall(SYS_mlock2, AT(0), 4096L, MLOCK_ONFAULT);
	syscall(SYS_munlock, AT(0), 4096L);
	/* an unknown bit: EINVAL, nothing locked */
	syscall(SYS_mlockall, MCL_FUTURE | 0x100);
	syscall(SYS_msync, AT(0), 4096L, MS_SYNC | MS_INVALIDATE);
	syscall(SYS_mremap, AT(0x2000), 4096L, 8192L, (long)(MREMAP_MAYMOVE | MREMAP_FIXED),
		AT(0x20000));
	syscall(SYS_pkey_mprotect, AT(0), 4096L, (long)(PROT_READ | PROT_WRITE), -1);
	syscall(SYS_pkey_alloc, 0L, (long)PKEY_DISABLE_WRITE_BIT);
	/* an empty node mask: EINVAL */
	syscall(SYS_set_mempolicy, MPOL_F_STATIC_NODES | MPOL_BIND, NULL, 0L);
	syscall(SYS_get_mempolicy, AT(0x1000), NULL, 0L, AT(0), (long)(MPOL_F_NODE | MPOL_F_ADDR));
	syscall(SYS_mbind, AT(0), 4096L, MPOL_DEFAULT, NULL, 0L, MPOL_MF_STRICT);
	syscall(SYS_move_pages, 0, 0L, NULL, NULL, NULL, 0);
	syscall(SYS_memfd_create, str_at(0, "tapc-sysmem"), MFD_CLOEXEC | MFD_ALLOW_SEALING);
	syscall(SYS_memfd_secret, O_CLOEXEC);
	syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
}

static void ipc_calls(void)
{
	struct timespec *ts = AT(0x4100);
	struct sembuf *sop = AT(0x4000);
	long id;

	memcpy(AT(0x3000), "\1\0\0\0\0\0\0\0hello", 13);
	id = syscall(SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0600);
	syscall(SYS_msgsnd, id, AT(0x3000), 5L, IPC_NOWAIT);
	syscall(SYS_msgrcv, id, AT(0x3000), 64L, 0L, MSG_NOERROR | IPC_NOWAIT);
	syscall(SYS_msgctl, id, IPC_STAT | IPC_64_BIT, AT(0x5000));
	syscall(SYS_msgctl, id, IPC_RMID, NULL);

	id = syscall(SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | IPC_EXCL | 0640);
	sop->sem_num = 0;
	sop->sem_op = 1;
	sop->sem_flg = 0;
	ts->tv_sec = 1;
	ts->tv_nsec = 500;
	syscall(SYS_semtimedop, id, sop, 1, ts);
	syscall(SYS_semctl, id, 0, GETVAL, 0);
	syscall(SYS_semctl, id, 0, IPC_RMID, 0);

	id = syscall(SYS_shmget, IPC_PRIVATE, 4096L, IPC_CREAT | 0600);
	syscall(SYS_shmat, id, AT(0x30000), SHM_RDONLY | SHM_RND);
	syscall(SYS_shmctl, id, IPC_RMID, NULL);

	/* a queue name no other test uses; its descriptor moved to 40 */
	id = syscall(SYS_mq_open, str_at(0x40, "tapc-sysmem"), O_RDWR | O_CREAT | O_EXCL, 0600,
		     NULL);
	dup2((int)id, 40);
	syscall(SYS_mq_timedsend, 40, AT(0x3000), 3L, 7, NULL);
	syscall(SYS_mq_unlink, AT(0x6040));
}

static void futex_calls(void)
{
	struct timespec *ts = AT(0x4200);

	ts->tv_sec = 0;
	ts->tv_nsec = 1000;
	syscall(SYS_futex, AT(0x5000), FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	/* the word is 0, not 5: EAGAIN at once */
	syscall(SYS_futex, AT(0x5000), FUTEX_WAIT, 5, ts, NULL, 0);
	syscall(SYS_futex, AT(0x5000), FUTEX_WAKE_OP, 1, NULL, AT(0x5004),
		FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 0));
}

static void key_calls(void)
{
	syscall(SYS_add_key, str_at(0x80, "user"), str_at(0xc0, "tapc-sysmem"),
		str_at(0x100, "abc"), 3L, -100);
	syscall(SYS_request_key, AT(0x6080), str_at(0x140, "tapc-sysmem-none"), NULL, 0);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, (long)KEY_SPEC_PROCESS_KEYRING, 0L, 0L, 0L);
	/* no key 12345: ENOKEY */
	syscall(SYS_keyctl, KEYCTL_SETPERM, 12345L, 0x3f010000L, 0L, 0L);
	syscall(SYS_keyctl, KEYCTL_SET_REQKEY_KEYRING, (long)KEY_REQKEY_DEFL_NO_CHANGE, 0L, 0L,
		0L);
	syscall(SYS_keyctl, 99, 1L, 2L, 3L, 4L);
}

static void other_calls(void)
{
	struct timespec *ts = AT(0x4300);

	ts->tv_sec = 2;
	ts->tv_nsec = 0;
	/* descriptor 0 is no map: EINVAL */
	syscall(SYS_bpf, BPF_MAP_LOOKUP_ELEM_CMD, NULL, 0);
	syscall(SYS_perf_event_open, NULL, 0, -1, -1, PERF_FLAG_FD_CLOEXEC_BIT);
	syscall(SYS_io_submit, 0L, 0L, NULL);
	syscall(SYS_io_getevents, 0L, 0L, 0L, NULL, ts);
	/* 100 segments is over the limit of 16: EINVAL before anything */
	syscall(SYS_kexec_load, 0x1000000L, 100L, NULL, (long)KEXEC_ARCH_X86_64_VAL);
	syscall(SYS_kexec_file_load, -1, -1, 0L, str_at(0x180, ""),
		(long)KEXEC_FILE_NO_INITRAMFS_BIT);
	syscall(SYS_delete_module, str_at(0x1c0, "tapc_sysmem_none"), O_NONBLOCK | O_TRUNC);
	syscall(SYS_finit_module, -1, AT(0x6180), MODULE_INIT_IGNORE_VERMAGIC_BIT);
	syscall(SYS_accept, -1, NULL, NULL);
}

int main(void)
{
	if (map_buffers())
		return 1;
	memory_calls();
	ipc_calls();
	futex_calls();
	key_calls();
	other_calls();
	return 0;
}
