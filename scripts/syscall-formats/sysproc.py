# Processes, credentials, scheduling, resource limits and the machine:
# SystemTap 4.8's variables and argstr formats (sysc_*.stp, x86-64,
# without compat), in the order SystemTap sets them.  The decoders that
# SystemTap's aux_syscalls.stp has and tapc lacked are in
# tapsets/aux_sys_sysproc.stp.
#
# Variables SystemTap sets only for an older language version are under
# the same systemtap_v condition (visible with --compatible).

SCHED_PID_PARAM = (["pid = __sc_int(1)", "p_uaddr = __sc_ulong(2)"],
                   'sprintf("%d, %p", pid, p_uaddr)')
SCHED_AFFINITY = (["pid = __sc_int(1)", "len = __sc_uint(2)",
                   "mask_uaddr = __sc_ulong(3)"],
                  'sprintf("%d, %u, %p", pid, len, mask_uaddr)')
SCHED_POLICY = (["policy = __sc_int(1)", "policy_str = _sched_policy_str(policy)"],
                "policy_str")
CAPS = (["header_uaddr = __sc_ulong(1)", "data_uaddr = __sc_ulong(2)"],
        'sprintf("%p, %p", header_uaddr, data_uaddr)')
GROUPS = (["size = __sc_int(1)", "list_uaddr = __sc_ulong(2)"],
          'sprintf("%d, %p", size, list_uaddr)')
THREAD_AREA = (["u_info_uaddr = __sc_ulong(1)",
                "u_info_str = _struct_user_desc_u(u_info_uaddr)"],
               "u_info_str")
PROCESS_VM = (["pid = __sc_int(1)", "local_iov_uaddr = __sc_ulong(2)",
               "liovcnt = __sc_ulong(3)", "remote_iov_uaddr = __sc_ulong(4)",
               "riovcnt = __sc_ulong(5)", "flags = __sc_ulong(6)"],
              'sprintf("%d, %p, %u, %p, %u, %u", pid, local_iov_uaddr, liovcnt,'
              ' remote_iov_uaddr, riovcnt, flags)')

FORMATS.update({
    "arch_prctl": (["code = __sc_int(1)", "code_str = _stp_arch_prctl_func_str(code)",
                    "addr = __sc_ulong(2)"],
                   'sprintf("%s, %u", code_str, addr)'),
    "capget": CAPS,
    "capset": CAPS,
    # SystemTap 2.4 and older set the clone() variables to 0 (2.2: regs too)
    "fork": (['%( systemtap_v < "2.3" %?', "regs = 0", "%)",
              '%( systemtap_v < "2.5" %?', "clone_flags = 0", "stack_start = 0",
              "stack_size = 0", "parent_tid_uaddr = 0", "child_tid_uaddr = 0", "%)"],
             '""'),
    # as gen-syscalls' own entry, with 2.8's names of the descriptor
    "execveat": (["dirfd = __sc_int(1)", "dirfd_str = _dfd_str(dirfd)",
                  '%( systemtap_v <= "2.8" %?', "fd = dirfd", "fd_str = dirfd_str", "%)",
                  "filename = user_string_quoted(__sc_ulong(2))",
                  "args = __get_argv(__sc_ulong(3), 0)",
                  "env_str = __get_argv(__sc_ulong(4), 0)",
                  "flags = __sc_int(5)", "flags_str = _at_flag_str(flags)"],
                 'sprintf("%s, %s, %s, %s, %s", dirfd_str, filename, args, env_str, flags_str)'),
    "get_robust_list": (["pid = __sc_int(1)", "list_head_uaddr = __sc_ulong(2)",
                         "len_uaddr = __sc_ulong(3)"],
                        'sprintf("%d, %p, %p", pid, list_head_uaddr, len_uaddr)'),
    "set_robust_list": (["list_head_uaddr = __sc_ulong(1)", "len = __sc_ulong(2)"],
                        'sprintf("%p, %u", list_head_uaddr, len)'),
    "get_thread_area": THREAD_AREA,
    "set_thread_area": THREAD_AREA,
    "getcpu": (["cpu_uaddr = __sc_ulong(1)", "node_uaddr = __sc_ulong(2)",
                "tcache_uaddr = __sc_ulong(3)"],
               'sprintf("%p, %p, %p", cpu_uaddr, node_uaddr, tcache_uaddr)'),
    "getgroups": GROUPS,
    "setgroups": GROUPS,
    # the buffer to fill, shown as a string as SystemTap does
    "getrandom": (["buf = user_string_quoted(__sc_ulong(1))", "count = __sc_ulong(2)",
                   "flags = __sc_uint(3)", "flags_str = _getrandom_flags_str(flags)"],
                  'sprintf("%s, %u, %s", buf, count, flags_str)'),
    "getrusage": (["who = __sc_int(1)", "who_str = _rusage_who_str(who)",
                   "usage_uaddr = __sc_ulong(2)"],
                  'sprintf("%s, %p", who_str, usage_uaddr)'),
    "ioperm": (["from = __sc_ulong(1)", "num = __sc_ulong(2)", "turn_on = __sc_uint(3)"],
               'sprintf("%#x, %#x, %#x", from, num, turn_on)'),
    "iopl": (["level = __sc_uint(1)"], "sprint(level)"),
    "ioprio_get": (["which = __sc_int(1)", "which_str = _stp_ioprio_which_str(which)",
                    "who = __sc_int(2)"],
                   'sprintf("%s, %d", which_str, who)'),
    "ioprio_set": (["which = __sc_int(1)", "which_str = _stp_ioprio_which_str(which)",
                    "who = __sc_int(2)", "ioprio = __sc_int(3)",
                    "ioprio_str = _stp_ioprio_value_str(ioprio)"],
                   'sprintf("%s, %d, %s", which_str, who, ioprio_str)'),
    "kcmp": (["pid1 = __sc_int(1)", "pid2 = __sc_int(2)", "type = __sc_int(3)",
              "type_str = _kcmp_type_str(type)", "idx1 = __sc_ulong(4)",
              "idx2 = __sc_ulong(5)"],
             'sprintf("%d, %d, %s, %u, %u", pid1, pid2, type_str, idx1, idx2)'),
    "modify_ldt": (["func = __sc_int(1)", "ptr_uaddr = __sc_ulong(2)",
                    "bytecount = __sc_ulong(3)"],
                   'sprintf("%d, %p, %u", func, ptr_uaddr, bytecount)'),
    "personality": (["persona = __sc_uint(1)"], 'sprintf("%#x", persona)'),
    "prlimit64": (["pid = __sc_int(1)", "resource = __sc_int(2)",
                   "resource_str = _rlimit_resource_str(resource)",
                   "new_rlim_uaddr = __sc_ulong(3)",
                   "new_rlim_str = _struct_rlimit_u(new_rlim_uaddr)",
                   "old_rlim_uaddr = __sc_ulong(4)"],
                  'sprintf("%d, %s, %s, %p", pid, resource_str, new_rlim_str, old_rlim_uaddr)'),
    "setrlimit": (["resource = __sc_uint(1)",
                   "resource_str = _rlimit_resource_str(resource)",
                   "rlim_uaddr = __sc_ulong(2)", "rlim_str = _struct_rlimit_u(rlim_uaddr)"],
                  'sprintf("%s, %s", resource_str, rlim_str)'),
    "setpriority": (["which = __sc_int(1)", "which_str = _priority_which_str(which)",
                     "who = __sc_int(2)", "prio = __sc_int(3)"],
                    'sprintf("%s, %d, %d", which_str, who, prio)'),
    "sched_get_priority_max": SCHED_POLICY,
    "sched_get_priority_min": SCHED_POLICY,
    "sched_getaffinity": SCHED_AFFINITY,
    "sched_setaffinity": SCHED_AFFINITY,
    "sched_getattr": (["pid = __sc_int(1)", "sched_attr_uaddr = __sc_ulong(2)",
                       "sched_attr_str = _struct_sched_attr_u(sched_attr_uaddr)",
                       "size = __sc_uint(3)", "flags = __sc_uint(4)"],
                      'sprintf("%d, %s, %u, %u", pid, sched_attr_str, size, flags)'),
    "sched_setattr": (["pid = __sc_int(1)", "sched_attr_uaddr = __sc_ulong(2)",
                       "sched_attr_str = _struct_sched_attr_u(sched_attr_uaddr)",
                       "flags = __sc_uint(3)"],
                      'sprintf("%d, %s, %u", pid, sched_attr_str, flags)'),
    "sched_getparam": SCHED_PID_PARAM,
    "sched_setparam": SCHED_PID_PARAM,
    "sched_rr_get_interval": (["pid = __sc_int(1)", "tp_uaddr = __sc_ulong(2)"],
                              'sprintf("%d, %p", pid, tp_uaddr)'),
    "sched_setscheduler": (["pid = __sc_int(1)", "policy = __sc_int(2)",
                            "policy_str = _sched_policy_str(policy)",
                            "p_uaddr = __sc_ulong(3)"],
                           'sprintf("%d, %s, %p", pid, policy_str, p_uaddr)'),
    "seccomp": (["op = __sc_uint(1)", "op_str = _seccomp_op_str(op)",
                 "flags = __sc_uint(2)", "flags_str = _seccomp_flags_str(flags)",
                 '%( systemtap_v <= "2.9" %?',
                 "uargs = user_string_quoted(__sc_ulong(3))", "%)",
                 "uargs_uaddr = __sc_ulong(3)"],
                'sprintf("%s, %s, %p", op_str, flags_str, uargs_uaddr)'),
    "setdomainname": (["domainname_uaddr = __sc_ulong(1)",
                       '%( systemtap_v <= "2.8" %?',
                       "hostname_uaddr = domainname_uaddr", "%)",
                       "domainname_str = user_string_quoted(domainname_uaddr)",
                       "len = __sc_int(2)"],
                      'sprintf("%s, %d", domainname_str, len)'),
    "sethostname": (["hostname_uaddr = __sc_ulong(1)",
                     "name_str = user_string_quoted(hostname_uaddr)",
                     "len = __sc_int(2)"],
                    'sprintf("%s, %d", name_str, len)'),
    "setfsgid": (["fsgid = __sc_int(1)"], "sprint(fsgid)"),
    "setfsuid": (["fsuid = __sc_int(1)"], "sprint(fsuid)"),
    # the namespace types are CLONE_NEW* flags
    "setns": (["fd = __sc_int(1)", "nstype = __sc_int(2)",
               "nstype_str = __fork_flags(nstype)"],
              'sprintf("%d, %s", fd, nstype_str)'),
    "unshare": (["unshare_flags = __sc_ulong(1)",
                 "unshare_flags_str = __fork_flags(unshare_flags)"],
                "unshare_flags_str"),
    "sysinfo": (["info_uaddr = __sc_ulong(1)", "info_str = _struct_sysinfo_u(info_uaddr)"],
                'sprintf("%s", info_str)'),
    "syslog": (["type = __sc_int(1)", "bufp_uaddr = __sc_ulong(2)", "len = __sc_int(3)"],
               'sprintf("%d, %p, %d", type, bufp_uaddr, len)'),
    "reboot": (["magic = __sc_int(1)", "magic_str = _reboot_magic_str(magic)",
                "magic2 = __sc_int(2)", "magic2_str = _reboot_magic_str(magic2)",
                "flag = __sc_uint(3)", "flag_str = _reboot_flag_str(flag)",
                "arg_uaddr = __sc_ulong(4)"],
               'sprintf("%s, %s, %s, %p", magic_str, magic2_str, flag_str, arg_uaddr)'),
    "wait4": (["pid = __sc_int(1)", "status_uaddr = __sc_ulong(2)",
               "options = __sc_int(3)", "options_str = _wait4_opt_str(options)",
               "rusage_uaddr = __sc_ulong(4)"],
              'sprintf("%d, %p, %s, %p", pid, status_uaddr, options_str, rusage_uaddr)'),
    "waitid": (["which = __sc_int(1)", "which_str = _waitid_which_str(which)",
                "pid = __sc_int(2)", "infop_uaddr = __sc_ulong(3)",
                "options = __sc_int(4)", "options_str = _wait4_opt_str(options)",
                "rusage_uaddr = __sc_ulong(5)"],
               'sprintf("%s, %d, %p, %s, %p", which_str, pid, infop_uaddr, options_str,'
               ' rusage_uaddr)'),
    "process_vm_readv": PROCESS_VM,
    "process_vm_writev": PROCESS_VM,
    "membarrier": (["cmd = __sc_int(1)", "cmd_str = _membarrier_cmd_str(cmd)",
                    "flags = __sc_int(2)"],
                   'sprintf("%s, %d", cmd_str, flags)'),
})

# wait4's return also decodes the status word the call stored (its
# address is still the call's second argument register): "N/A" when
# nothing was reaped, "NULL" without an address.  One pure call, which
# pass 2 drops with the rest when a script does not read status_str.
RETURNS.update({
    "wait4": (["status_uaddr = __sc_ulong(2)",
               "status_str = __wait4_status_str(retval, status_uaddr)"], None),
})

# ptrace's return reads what PTRACE_GETEVENTMSG (0x4201) stored at data
# and what PTRACE_ARCH_PRCTL (30) with ARCH_GET_FS or ARCH_GET_GS (0x1003,
# 0x1004) stored at addr, as SystemTap's DWARF alias does (0 otherwise);
# the arguments are still in their registers at the return.
RETURNS.update({
    "ptrace": (["geteventmsg_data = __sc_long(1) == 0x4201 ? user_long(__sc_ulong(4)) : 0",
                "arch_prctl_addr = __sc_long(1) == 30 && (__sc_ulong(4) == 0x1003 ||"
                " __sc_ulong(4) == 0x1004) ? user_long(__sc_ulong(3)) : 0"], None),
})
