# Helpers of the tapc.run tests, sourced by each .exp file.
#
# The modules here are written by hand the way pass 3 will generate them:
# one C file that includes only tapc_runtime.h, compiled at -O0, linked
# with the whole runtime (runtime/linux/*.c and runtime/core/*.c)
# compiled at kbuild's -O2 with the kernel API feature tests' flags.

set tapc_run_rtdir [file normalize [file join $srcdir .. runtime]]

# tapc_run_build NAME SOURCE ?DEFS?: build module NAME.ko from the
# hand-written SOURCE and the runtime, with the -D options DEFS for both.
# Returns the path of NAME.ko, or "" (build log in the test log).
proc tapc_run_build {name source {defs ""}} {
    global tapc_run_rtdir
    set rel [tapc_target_release]
    if {$rel eq ""} {
        return ""
    }
    set dir [tapc_mktemp]
    set rtobjs {}
    foreach f [concat [glob $tapc_run_rtdir/linux/*.c] \
                   [glob $tapc_run_rtdir/core/*.c]] {
        file copy -force $f $dir
        lappend rtobjs "[file rootname [file tail $f]].o"
    }
    file copy -force $source [file join $dir ${name}_gen.c]
    set f [open [file join $dir Kbuild] w]
    puts $f "obj-m := $name.o"
    puts $f "$name-y := ${name}_gen.o [join $rtobjs]"
    puts $f "ccflags-y := -Werror $defs -I$tapc_run_rtdir -I$tapc_run_rtdir/linux -I$tapc_run_rtdir/core"
    puts $f "CFLAGS_${name}_gen.o := -O0"
    # the kernel API feature tests, as tapc writes them (build.c)
    puts $f "tapc_conf_dir := '$tapc_run_rtdir/linux/tapconf'"
    set mk [open [file join $tapc_run_rtdir linux tapconf tapconf.mk]]
    puts -nonewline $f [read $mk]
    close $mk
    close $f
    set r [tapc_run_prog [list make -C /lib/modules/$rel/build M=$dir modules] 600]
    set ko [file join $dir $name.ko]
    if {[lindex $r 0] != 0 || ![file exists $ko]} {
        send_log "tapc: building $name.ko for $rel failed:\n[lindex $r 1][lindex $r 2]\n"
        return ""
    }
    return $ko
}

# tapc_run_exec NAME SCRIPT ARGS...: run the shell SCRIPT (with ARGS as
# $1...; $TAPC_RUN is tapc-run) where modules load, then look whether
# module NAME is still loaded (and remove it if so).  Returns
# {STATUS STDOUT STDERR LOADED}.
proc tapc_run_exec {name script args} {
    set wrap "TAPC_RUN=\"\$0\"\n(\n$script\n)\nst=\$?\n"
    append wrap "if grep -q '^$name ' /proc/modules; then echo 'tapc-test: loaded=1' >&2; rmmod $name; else echo 'tapc-test: loaded=0' >&2; fi\n"
    append wrap "exit \$st\n"
    set r [tapc_target_exec [concat [list sh -c $wrap [tapc_prog tapc-run]] $args]]
    set err [lindex $r 2]
    set loaded -1
    if {[regexp {tapc-test: loaded=([01])\n} $err -> loaded]} {
        regsub {tapc-test: loaded=[01]\n} $err {} err
    }
    return [list [lindex $r 0] [lindex $r 1] $err $loaded]
}

# tapc_run_check TEST COND: pass or fail "TEST".
proc tapc_run_check {test cond} {
    if {$cond} {
        pass $test
    } else {
        fail $test
    }
}

# tapc_run_gone TEST RESULT: the module is not loaded after the run.
proc tapc_run_gone {test r} {
    tapc_run_check "$test: module removed" [expr {[lindex $r 3] == 0}]
}
