# The file-system, splice and vector I/O calls with SystemTap's variables
# and argstr formats (its sysc_mkdir.stp ... sysc_writev.stp, x86-64, the
# kernel.function variant whose locals `stap -L` lists).  Decoders that
# aux_syscalls.stp did not have yet are in tapsets/aux_sys_sysfb.stp.
# Pointers SystemTap keeps as numbers without a _uaddr suffix (renameat's
# oldname, splice's off_in, vmsplice's iov ...) stay numbers here too.

# A path argument I: its quoted string as VAR.
def _path(var, i):
    return "%s = user_string_quoted(__sc_ulong(%d))" % (var, i)


# A directory fd argument I as VAR and VAR_str ("AT_FDCWD").
def _dfd(var, i):
    return ["%s = __sc_int(%d)" % (var, i), "%s_str = _dfd_str(%s)" % (var, var)]


# The two paths of rename and symlink.
_OLD_NEW = ([_path("oldpath", 1), _path("newpath", 2)],
            'sprintf("%s, %s", oldpath, newpath)')

# renameat's variables, renameat2's first four arguments.
_RENAMEAT = (_dfd("olddfd", 1)
             + ["oldname = __sc_ulong(2)", "oldname_str = user_string_quoted(oldname)"]
             + _dfd("newdfd", 3)
             + ["newname = __sc_ulong(4)", "newname_str = user_string_quoted(newname)"])

# readv and writev: the vector is not decoded (SystemTap prints its address).
_VECTOR = (["vector_uaddr = __sc_ulong(2)", "count = __sc_int(3)", "fd = __sc_int(1)"],
           'sprintf("%d, %p, %d", fd, vector_uaddr, count)')

# preadv and pwritev: _VECTOR at a file offset
_VECTOR_AT = (["fd = __sc_int(1)", "vector_uaddr = __sc_ulong(2)", "count = __sc_int(3)",
               "offset = __sc_loff(4)"],
              'sprintf("%d, %p, %d, 0x%x", fd, vector_uaddr, count, offset)')

FORMATS.update({
    "mkdir": (["pathname_uaddr = __sc_ulong(1)",
               "pathname = user_string_quoted(pathname_uaddr)",
               "mode = __sc_uint(2)"],
              'sprintf("%s, %#o", pathname, mode)'),
    "mkdirat": (_dfd("dirfd", 1) + [_path("pathname", 2), "mode = __sc_uint(3)"],
                'sprintf("%s, %s, %#o", dirfd_str, pathname, mode)'),
    "mknod": ([_path("pathname", 1), "mode = __sc_uint(2)",
               "mode_str = _mknod_mode_str(mode)", "dev = __sc_uint(3)"],
              'sprintf("%s, %s, %u", pathname, mode_str, dev)'),
    "mknodat": (_dfd("dirfd", 1)
                + [_path("pathname", 2), "mode = __sc_uint(3)",
                   "mode_str = _mknod_mode_str(mode)", "dev = __sc_uint(4)"],
                'sprintf("%s, %s, %s, %u", dirfd_str, pathname, mode_str, dev)'),
    "mount": ([_path("source", 1), _path("target", 2), _path("filesystemtype", 3),
               "mountflags = __sc_ulong(4)",
               "mountflags_str = _mountflags_str(mountflags)",
               "data = user_string_n_quoted(__sc_ulong(5), syscall_string_trunc)",
               "data_unquoted = user_string_n_nofault(__sc_ulong(5), syscall_string_trunc)"],
              'sprintf("%s, %s, %s, %s, %s", source, target, filesystemtype,'
              ' mountflags_str, data)'),
    "umount": ([_path("target", 1), "flags = __sc_int(2)",
                "flags_str = _umountflags_str(flags)"],
               'sprintf("%s, %s", target, flags_str)'),
    "name_to_handle_at": (_dfd("dfd", 1)
                          + [_path("pathname", 2), "handle_uaddr = __sc_ulong(3)",
                             "mnt_id_uaddr = __sc_ulong(4)", "flags = __sc_int(5)",
                             "flags_str = _at_flag_str(flags)"],
                          'sprintf("%s, %s, %p, %p, %s", dfd_str, pathname, handle_uaddr,'
                          ' mnt_id_uaddr, flags_str)'),
    "open_by_handle_at": (_dfd("mount_dfd", 1)
                          + ["handle_uaddr = __sc_ulong(2)", "flags = __sc_int(3)",
                             "flags_str = _sys_open_flag_str(flags)"],
                          'sprintf("%s, %p, %s", mount_dfd_str, handle_uaddr, flags_str)'),
    "pivot_root": ([_path("new_root_str", 1), _path("old_root_str", 2)],
                   'sprintf("%s, %s", new_root_str, old_root_str)'),
    "quotactl": (["cmd = __sc_uint(1)", "cmd_str = _quotactl_cmd_str(cmd)",
                  "special = __sc_ulong(2)", "special_str = user_string_quoted(special)",
                  "id = __sc_int(3)", "addr_uaddr = __sc_ulong(4)"],
                 "__quotactl_argstr(cmd, special, id, addr_uaddr)"),
    "readlinkat": (_dfd("dfd", 1)
                   + ["buf_uaddr = __sc_ulong(3)", "bufsiz = __sc_int(4)", _path("path", 2)],
                   'sprintf("%s, %s, %p, %d", dfd_str, path, buf_uaddr, bufsiz)'),
    "rename": _OLD_NEW,
    "renameat": (_RENAMEAT,
                 'sprintf("%s, %s, %s, %s", olddfd_str, oldname_str, newdfd_str, newname_str)'),
    "renameat2": (_RENAMEAT + ["flags = __sc_uint(5)", "flags_str = _renameat2_flags_str(flags)"],
                  'sprintf("%s, %s, %s, %s, %s", olddfd_str, oldname_str, newdfd_str,'
                  ' newname_str, flags_str)'),
    "splice": (["fd_in = __sc_int(1)", "off_in = __sc_ulong(2)", "fd_out = __sc_int(3)",
                "off_out = __sc_ulong(4)", "len = __sc_ulong(5)", "flags = __sc_uint(6)",
                "flags_str = _stp_splice_flags_str(flags)"],
               'sprintf("%d, %p, %d, %p, %u, %s", fd_in, off_in, fd_out, off_out, len,'
               ' flags_str)'),
    "statx": (_dfd("dfd", 1)
              + ["filename_uaddr = __sc_ulong(2)",
                 "filename = user_string_quoted(filename_uaddr)",
                 "flags = __sc_uint(3)", "flags_str = _at_flag_str(flags)",
                 "mask = __sc_uint(4)", "mask_str = _statx_mask_str(mask)",
                 "buf_uaddr = __sc_ulong(5)"],
              'sprintf("%s, %s, %s, %s, %p", dfd_str, filename, flags_str, mask_str,'
              ' buf_uaddr)'),
    "swapoff": (["path_uaddr = __sc_ulong(1)", "path = user_string_quoted(path_uaddr)"],
                "path"),
    "swapon": (["path_uaddr = __sc_ulong(1)", "path = user_string_quoted(path_uaddr)",
                "swapflags = __sc_int(2)", "swapflags_str = _swapon_flags_str(swapflags)"],
               'sprintf("%s, %s", path, swapflags_str)'),
    "symlink": _OLD_NEW,
    "symlinkat": (["oldname = __sc_ulong(1)", "oldname_str = user_string_quoted(oldname)"]
                  + _dfd("newdfd", 2)
                  + ["newname = __sc_ulong(3)", "newname_str = user_string_quoted(newname)"],
                  'sprintf("%s, %s, %s", oldname_str, newdfd_str, newname_str)'),
    "sync_file_range": (["fd = __sc_int(1)", "offset = __sc_long(2)", "nbytes = __sc_long(3)",
                         "flags = __sc_uint(4)",
                         "flags_str = _sync_file_range_flags_str(flags)"],
                        'sprintf("%d, %d, %d, %s", fd, offset, nbytes, flags_str)'),
    # the length first: SystemTap sets it in the inner alias, which runs first
    "truncate": (["length = __sc_long(2)", "path_uaddr = __sc_ulong(1)",
                  "path = user_string_quoted(path_uaddr)"],
                 'sprintf("%s, %d", path, length)'),
    "unlinkat": (_dfd("dfd", 1)
                 + ["pathname = __sc_ulong(2)", "pathname_str = user_string_quoted(pathname)",
                    "flag = __sc_uint(3)", "flag_str = _at_flag_str(flag)"],
                 'sprintf("%s, %s, %s", dfd_str, pathname_str, flag_str)'),
    "uselib": (["library_uaddr = __sc_ulong(1)",
                "library = user_string_quoted(library_uaddr)"],
               "library"),
    "vmsplice": (["fd = __sc_int(1)", "iov = __sc_ulong(2)", "nr_segs = __sc_ulong(3)",
                  "flags = __sc_uint(4)", "flags_str = _stp_splice_flags_str(flags)"],
                 'sprintf("%d, %p, %u, %s", fd, iov, nr_segs, flags_str)'),
    "readv": _VECTOR,
    "writev": _VECTOR,
    # the offset is pos_h:pos_l, which on x86-64 is pos_l alone (SystemTap
    # shifts pos_h out of 64 bits), printed in hex
    "preadv": _VECTOR_AT,
    "pwritev": _VECTOR_AT,
    "preadv2": (_VECTOR_AT[0] + ["flags = __sc_int(6)",
                                 "flags_str = _preadv2_flags_str(flags)"],
                'sprintf("%d, %p, %d, 0x%x, %s", fd, vector_uaddr, count, offset,'
                ' flags_str)'),
    "pwritev2": (_VECTOR_AT[0] + ["flags = __sc_int(6)",
                                  "flags_str = _preadv2_flags_str(flags)"],
                 'sprintf("%d, %p, %d, 0x%x, %s", fd, vector_uaddr, count, offset,'
                 ' flags_str)'),
    # a descriptor as a signed int, as SystemTap reads it (fchdir(-1): "-1")
    "fsync": (["fd = __sc_int(1)"], "sprint(fd)"),
    "fdatasync": (["fd = __sc_int(1)"], "sprint(fd)"),
    "fchdir": (["fd = __sc_int(1)"], "sprint(fd)"),
    "ftruncate": (["fd = __sc_int(1)", "length = __sc_long(2)"],
                  'sprintf("%d, %d", fd, length)'),
    "fstatfs": (["fd = __sc_int(1)", "buf_uaddr = __sc_ulong(2)"],
                'sprintf("%d, %p", fd, buf_uaddr)'),
    # gone from Linux since 3.1 (x86-64 keeps the number: ENOSYS)
    "nfsservctl": (["cmd = __sc_int(1)", "cmd_str = _nfsctl_cmd_str(cmd)",
                    "argp_uaddr = __sc_ulong(2)", "resp_uaddr = __sc_ulong(3)"],
                   'sprintf("%s, %p, %p", cmd_str, argp_uaddr, resp_uaddr)'),
})
