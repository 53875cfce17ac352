# Helpers of the tapc.driver tests, sourced by each .exp file.
#
# tapc runs on the host and runs its module where modules load: on the
# host, or (with --remote=vm) in the harness's test-VM guest, which
# TAPC_VM_STATE names.  Each test works in its own temp dir, shared with
# the guest read-write.

# driver_ready: the target is up (the guest booted); 0 when it is not.
proc driver_ready {} {
    if {![tapc_target_start]} {
        return 0
    }
    return 1
}

# driver_remote: the options that make tapc run its module in the guest.
proc driver_remote {} {
    if {[tapc_use_vm]} {
        return [list --remote=vm]
    }
    return {}
}

# driver_tapc DIR ARGS...: run tapc in DIR; {STATUS STDOUT STDERR}.
proc driver_tapc {dir args} {
    set cmd [list sh -c {cd "$1" && shift && exec "$@"} sh $dir [tapc_prog tapc]]
    set cmd [concat $cmd [driver_remote] $args]
    return [tapc_run_prog $cmd 900]
}

# driver_shell DIR SCRIPT ARGS...: run the shell SCRIPT in DIR with
# $TAPC set to tapc and its --remote option ($@ are ARGS).
proc driver_shell {dir script args} {
    set tapc [concat [list [tapc_prog tapc]] [driver_remote]]
    set wrap "cd \"\$1\" && shift || exit 99\nTAPC='$tapc'\n$script"
    return [tapc_run_prog [concat [list sh -c $wrap sh $dir] $args] 900]
}

# driver_check TEST COND: pass or fail TEST.
proc driver_check {test cond} {
    if {$cond} {
        pass $test
    } else {
        fail $test
    }
}

# driver_status TEST RESULT WANT: the exit status is WANT.
proc driver_status {test r want} {
    driver_check "$test: exit status $want" [expr {[lindex $r 0] == $want}]
}
