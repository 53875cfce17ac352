# SystemTap's variables and argstr of the file calls acct ... setxattr
# (ownership and modes, links, extended attributes, fanotify/inotify,
# fcntl, flock, dup2/dup3, ioctl), from SystemTap 4.8's x86-64
# dw_syscall.* aliases (sysc_NAME.stp), in their order.  The decoders
# without an older home are in tapsets/aux_sys_sysfa.stp.

# The deprecated name2 (the attribute's name, as name_str) of SystemTap
# 1.4 and older: -L lists it only under --compatible=1.4.
NAME2 = ['%( systemtap_v <= "1.4" %?',
         "name2 = user_string_quoted(__sc_ulong(2))",
         "%)"]


# chown, lchown and fchown: owner and group as signed numbers (-1 keeps one)
OWNER_GROUP = ["owner = __sc_int(2)", "group = __sc_int(3)"]


def getxattr_like():
    return (["path = user_string_quoted(__sc_ulong(1))"] + NAME2 +
            ["name_str = user_string_quoted(__sc_ulong(2))",
             "value_uaddr = __sc_ulong(3)", "size = __sc_ulong(4)"],
            'sprintf("%s, %s, %p, %u", path, name_str, value_uaddr, size)')


def listxattr_like():
    return (["list_uaddr = __sc_ulong(2)", "size = __sc_ulong(3)",
             "path_uaddr = __sc_ulong(1)", "path = user_string_quoted(path_uaddr)"],
            'sprintf("%s, %p, %u", path, list_uaddr, size)')


# setxattr computes value_str before size, lsetxattr after: both read the
# same argument.
SETXATTR_HEAD = ["path_uaddr = __sc_ulong(1)", "path = user_string_quoted(path_uaddr)",
                 "name_uaddr = __sc_ulong(2)", "name_str = user_string_quoted(name_uaddr)",
                 "value_uaddr = __sc_ulong(3)"]
XATTR_FLAGS = ["flags = __sc_int(5)", "flags_str = _stp_xattr_flags_str(flags)"]
SETXATTR_ARGSTR = 'sprintf("%s, %s, %s, %u, %s", path, name_str, value_str, size, flags_str)'

# pipe and pipe2: the array's address and the two descriptors in it
PIPE_FDS = ["fildes_uaddr = __sc_ulong(1)", "pipe0 = _fildes_index_u(fildes_uaddr, 0)",
            "pipe1 = _fildes_index_u(fildes_uaddr, 1)"]

FORMATS.update({
    "acct": (["filename = user_string_quoted(__sc_ulong(1))"], "filename"),
    "chmod": (["path = user_string_quoted(__sc_ulong(1))", "mode = __sc_uint(2)"],
              'sprintf("%s, %#o", path, mode)'),
    "fchmod": (["fildes = __sc_int(1)", "mode = __sc_uint(2)"],
               'sprintf("%d, %#o", fildes, mode)'),
    "fchmodat": (["dirfd = __sc_int(1)", "dirfd_str = _dfd_str(dirfd)",
                  "pathname = user_string_quoted(__sc_ulong(2))", "mode = __sc_uint(3)"],
                 'sprintf("%s, %s, %#o", dirfd_str, pathname, mode)'),
    "chown": (["path = user_string_quoted(__sc_ulong(1))"] + OWNER_GROUP,
              'sprintf("%s, %d, %d", path, owner, group)'),
    "lchown": (["path = user_string_quoted(__sc_ulong(1))"] + OWNER_GROUP,
               'sprintf("%s, %d, %d", path, owner, group)'),
    "fchown": (["fd = __sc_int(1)"] + OWNER_GROUP, 'sprintf("%d, %d, %d", fd, owner, group)'),
    "fchownat": (["dirfd = __sc_int(1)", "dirfd_str = _dfd_str(dirfd)",
                  "pathname = user_string_quoted(__sc_ulong(2))",
                  "owner = __sc_int(3)", "group = __sc_int(4)",
                  "flags = __sc_int(5)", "flags_str = _at_flag_str(flags)"],
                 'sprintf("%s, %s, %d, %d, %s", dirfd_str, pathname, owner, group, flags_str)'),
    "chroot": (["path = user_string_quoted(__sc_ulong(1))"], "path"),
    "copy_file_range": (["fd_in = __sc_int(1)", "off_in = __sc_ulong(2)",
                         "fd_out = __sc_int(3)", "off_out = __sc_ulong(4)",
                         "len = __sc_ulong(5)", "flags = __sc_uint(6)"],
                        'sprintf("%d, %p, %d, %p, %u, 0x%x", fd_in, off_in, fd_out,'
                        ' off_out, len, flags)'),
    "faccessat": (["dirfd = __sc_int(1)", "dirfd_str = _dfd_str(dirfd)",
                   "pathname = user_string_quoted(__sc_ulong(2))",
                   "mode = __sc_int(3)", "mode_str = _access_mode_str(mode)"],
                  'sprintf("%s, %s, %s", dirfd_str, pathname, mode_str)'),
    "faccessat2": (["dirfd = __sc_int(1)", "dirfd_str = _dfd_str(dirfd)",
                    "pathname = user_string_quoted(__sc_ulong(2))",
                    "mode = __sc_int(3)", "mode_str = _access_mode_str(mode)",
                    "flags = __sc_int(4)", "flags_str = _faccessat2_flags_str(flags)"],
                   'sprintf("%s, %s, %s, %s", dirfd_str, pathname, mode_str, flags_str)'),
    "fadvise64": (["fd = __sc_int(1)", "offset = __sc_long(2)", "len = __sc_long(3)",
                   "advice = __sc_int(4)", "advice_str = _fadvice_advice_str(advice)"],
                  'sprintf("%d, %d, %d, %s", fd, offset, len, advice_str)'),
    "fallocate": (["fd = __sc_int(1)", "mode = __sc_uint(2)",
                   "mode_str = _stp_fallocate_mode_str(mode)",
                   "offset = __sc_long(3)", "len = __sc_long(4)"],
                  'sprintf("%d, %s, %#x, %u", fd, mode_str, offset, len)'),
    "fanotify_init": (["flags = __sc_uint(1)", "flags_str = _fanotify_init_flags_str(flags)",
                       "event_f_flags = __sc_uint(2)",
                       "event_f_flags_str = _sys_open_flag_str(event_f_flags)"],
                      'sprintf("%s, %s", flags_str, event_f_flags_str)'),
    "fanotify_mark": (["fanotify_fd = __sc_int(1)", "flags = __sc_uint(2)",
                       "mask = __sc_ulong(3)", "dirfd = __sc_int(4)",
                       "pathname = user_string_quoted(__sc_ulong(5))",
                       "flags_str = _fanotify_mark_flags_str(flags)",
                       "mask_str = _fanotify_mark_mask_str(mask)",
                       "dirfd_str = _dfd_str(dirfd)"],
                      'sprintf("%d, %s, %s, %s, %s", fanotify_fd, flags_str, mask_str,'
                      ' dirfd_str, pathname)'),
    "fcntl": (["fd = __sc_int(1)", "cmd = __sc_int(2)", "cmd_str = _fcntl_cmd_str(cmd)",
               "arg = __sc_ulong(3)"],
              'sprintf("%d, %s, %p", fd, cmd_str, arg)'),
    "flock": (["fd = __sc_int(1)", "operation = __sc_uint(2)"],
              'sprintf("%d, %s", fd, _flock_cmd_str(operation))'),
    "getxattr": getxattr_like(),
    "lgetxattr": getxattr_like(),
    "fgetxattr": (["filedes = __sc_int(1)"] + NAME2 +
                  ["name_str = user_string_quoted(__sc_ulong(2))",
                   "value_uaddr = __sc_ulong(3)", "size = __sc_ulong(4)"],
                  'sprintf("%d, %s, %p, %u", filedes, name_str, value_uaddr, size)'),
    "listxattr": listxattr_like(),
    "llistxattr": listxattr_like(),
    "flistxattr": (["filedes = __sc_int(1)", "list_uaddr = __sc_ulong(2)",
                    "size = __sc_ulong(3)"],
                   'sprintf("%d, %p, %u", filedes, list_uaddr, size)'),
    "removexattr": (["path = user_string_quoted(__sc_ulong(1))",
                     "name_str = user_string_quoted(__sc_ulong(2))"],
                    'sprintf("%s, %s", path, name_str)'),
    "lremovexattr": (["name_uaddr = __sc_ulong(2)"] + NAME2 +
                     ["name_str = user_string_quoted(name_uaddr)",
                      "path_uaddr = __sc_ulong(1)", "path = user_string_quoted(path_uaddr)"],
                     'sprintf("%s, %s", path, name_str)'),
    "fremovexattr": (["filedes = __sc_int(1)", "name_uaddr = __sc_ulong(2)",
                      "name_str = user_string_quoted(name_uaddr)"],
                     'sprintf("%d, %s", filedes, name_str)'),
    "setxattr": (SETXATTR_HEAD +
                 ["value_str = _stp_xattr_val_str(value_uaddr, __sc_ulong(4))",
                  "size = __sc_ulong(4)"] + XATTR_FLAGS, SETXATTR_ARGSTR),
    "lsetxattr": (SETXATTR_HEAD +
                  ["size = __sc_ulong(4)",
                   "value_str = _stp_xattr_val_str(value_uaddr, size)"] + XATTR_FLAGS,
                  SETXATTR_ARGSTR),
    "fsetxattr": (["filedes = __sc_int(1)"] + NAME2 +
                  ["name_uaddr = __sc_ulong(2)", "name_str = user_string_quoted(name_uaddr)",
                   "value_uaddr = __sc_ulong(3)", "size = __sc_ulong(4)",
                   "value_str = _stp_xattr_val_str(value_uaddr, size)"] + XATTR_FLAGS,
                  'sprintf("%d, %s, %s, %u, %s", filedes, name_str, value_str, size, flags_str)'),
    "getdents": (["fd = __sc_int(1)", "dirp_uaddr = __sc_ulong(2)", "count = __sc_uint(3)"],
                 'sprintf("%d, %p, %d", fd, dirp_uaddr, count)'),
    "inotify_add_watch": (["fd = __sc_int(1)", "mask = __sc_uint(3)",
                           "mask_str = _inotify_watch_mask_str(mask)",
                           "path_uaddr = __sc_ulong(2)",
                           "path = user_string_quoted(path_uaddr)"],
                          'sprintf("%d, %s, %s", fd, path, mask_str)'),
    "link": (["oldpath = user_string_quoted(__sc_ulong(1))",
              "newpath = user_string_quoted(__sc_ulong(2))"],
             'sprintf("%s, %s", oldpath, newpath)'),
    "linkat": (["olddirfd = __sc_int(1)", "olddirfd_str = _dfd_str(olddirfd)",
                "oldpath = user_string_quoted(__sc_ulong(2))",
                "newdirfd = __sc_int(3)", "newdirfd_str = _dfd_str(newdirfd)",
                "newpath = user_string_quoted(__sc_ulong(4))",
                "flags = __sc_int(5)", "flags_str = _at_flag_str(flags)"],
               'sprintf("%s, %s, %s, %s, %s", olddirfd_str, oldpath, newdirfd_str,'
               ' newpath, flags_str)'),
    # SystemTap's lstat has path, not stat's filename
    "lstat": (["path = user_string_quoted(__sc_ulong(1))", "buf_uaddr = __sc_ulong(2)"],
              'sprintf("%s, %p", path, buf_uaddr)'),
    "lookup_dcookie": (["cookie = __sc_ulong(1)", "buffer_uaddr = __sc_ulong(2)",
                        "len = __sc_ulong(3)"],
                       'sprintf("%#lx, %p, %#x", cookie, buffer_uaddr, len)'),
    # dup2 has dup3's flags (0) too: SystemTap's two aliases were one
    "dup2": (["oldfd = __sc_int(1)", "newfd = __sc_int(2)", "flags = 0",
              'flags_str = "0x0"'],
             'sprintf("%d, %d", oldfd, newfd)'),
    "dup3": (["oldfd = __sc_int(1)", "newfd = __sc_int(2)", "flags = __sc_int(3)",
              "flags_str = _dup3_flag_str(flags)"],
             'sprintf("%d, %d, %s", oldfd, newfd, flags_str)'),
    # the descriptors the array holds before the call ("NULL" for none):
    # SystemTap's argstr shows them at entry
    "pipe": (["flags = 0", 'flag_str = ""'] + PIPE_FDS,
             'fildes_uaddr == 0 ? "NULL" : sprintf("[%d, %d]", pipe0, pipe1)'),
    "pipe2": (["flags = __sc_int(2)", "flag_str = _sys_pipe2_flag_str(flags)"] + PIPE_FDS,
              'fildes_uaddr == 0 ? "NULL"'
              ' : sprintf("[%d, %d], %s", pipe0, pipe1, flag_str)'),
    "eventfd": (["count = __sc_uint(1)", "flags = 0", 'flags_str = "0x0"'], "sprint(count)"),
    "eventfd2": (["count = __sc_uint(1)", "flags = __sc_int(2)",
                  "flags_str = _eventfd2_flag_str(flags)"],
                 'sprintf("%u, %s", count, flags_str)'),
    "inotify_init1": (["flags = __sc_int(1)"], "_inotify_init1_flag_str(flags)"),
    "inotify_init": (["flags = 0"], '""'),
    "ioctl": (["fd = __sc_int(1)", "request = __sc_int(2)", "argp = __sc_ulong(3)"],
              'sprintf("%d, %d, %p", fd, request, argp)'),
})

# pipe and pipe2 read the descriptors again on return: what the call made
RETURNS.update({
    "pipe": (PIPE_FDS, None),
    "pipe2": (PIPE_FDS, None),
})
