# Helpers of the tapc.run tests, sourced by each .exp file.
#
# The modules here are written by hand the way pass 3 will generate them:
# one C file that includes only tapc_runtime.h, compiled at -O0, linked
# with the whole runtime (runtime/linux/*.c and runtime/core/*.c)
# compiled at kbuild's -O2 with the kernel API feature tests' flags.  As
# tapc does, the runtime is compiled once (the first build of the run)
# and its objects copied into every module: the -D limits these tests set
# are read by the generated file alone (tap_limits, MODULE_ONLY in
# src/rtlimits.def).

set tapc_run_rtdir [file normalize [file join $srcdir .. runtime]]

# tapc_run_kbuild_head F DEFS: the -D options DEFS, the include path and
# the kernel API feature tests (as tapc writes them, build.c) in the open
# Kbuild file F.
proc tapc_run_kbuild_head {f defs} {
    global tapc_run_rtdir
    puts $f "ccflags-y := -Werror $defs -I$tapc_run_rtdir -I$tapc_run_rtdir/linux -I$tapc_run_rtdir/core"
    puts $f "tapc_conf_dir := '$tapc_run_rtdir/linux/tapconf'"
    set mk [open [file join $tapc_run_rtdir linux tapconf tapconf.mk]]
    puts -nonewline $f [read $mk]
    close $mk
}

# tapc_run_runtime REL: the directory of the runtime's objects compiled
# for REL (compiled by the first call of the run), or "".
proc tapc_run_runtime {rel} {
    global tapc_run_rtdir tapc_run_rtobjs
    if {[info exists tapc_run_rtobjs]} {
        return $tapc_run_rtobjs
    }
    set tapc_run_rtobjs ""
    set dir [tapc_mktemp]
    set objs {}
    foreach f [concat [glob $tapc_run_rtdir/linux/*.c] \
                   [glob $tapc_run_rtdir/core/*.c]] {
        file copy -force $f $dir
        lappend objs "[file rootname [file tail $f]].o"
    }
    set f [open [file join $dir Kbuild] w]
    puts $f "obj-m := tapcrt.o"
    puts $f "tapcrt-y := [join $objs]"
    tapc_run_kbuild_head $f ""
    close $f
    set r [tapc_run_prog [concat [list make -j[exec nproc] -C /lib/modules/$rel/build M=$dir] $objs] 900]
    if {[lindex $r 0] != 0} {
        send_log "tapc: compiling the runtime for $rel failed:\n[lindex $r 1][lindex $r 2]\n"
        return ""
    }
    set tapc_run_rtobjs $dir
    return $dir
}

# tapc_run_build NAME SOURCE ?DEFS?: build module NAME.ko from the
# hand-written SOURCE, with the -D options DEFS, and the runtime's
# objects.  Returns the path of NAME.ko, or "" (build log in the test log).
proc tapc_run_build {name source {defs ""}} {
    set rel [tapc_target_release]
    if {$rel eq ""} {
        return ""
    }
    set rt [tapc_run_runtime $rel]
    if {$rt eq ""} {
        return ""
    }
    set dir [tapc_mktemp]
    set rtobjs {}
    foreach o [glob -tails -directory $rt *.o] {
        if {$o ne "tapcrt.o"} {
            lappend rtobjs "tapcrt_$o"
        }
    }
    file copy -force $source [file join $dir ${name}_gen.c]
    set f [open [file join $dir Kbuild] w]
    puts $f "obj-m := $name.o"
    puts $f "$name-y := ${name}_gen.o [join $rtobjs]"
    tapc_run_kbuild_head $f $defs
    puts $f "CFLAGS_${name}_gen.o := -O0"
    # each runtime object and its .cmd file, which modpost reads
    foreach o $rtobjs {
        set src [string range $o 7 end]
        set stem [file rootname $src]
        puts $f "\$(obj)/$o: $rt/$src"
        puts $f "\t\$(Q)cp $rt/$src \$@ && cp $rt/.$stem.o.cmd \$(obj)/.$o.cmd"
    }
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
