/*
 * The shared library of tapc.uprobe/tls_lib.stp, built twice with -g
 * -shared -fPIC: as is (the general-dynamic TLS model, the block found
 * through the thread's DTV by the module id the dynamic linker gave it)
 * and with -ftls-model=initial-exec (the block at an offset from the
 * thread pointer, in the static TLS).  lib_counter is each thread's own,
 * 5 to begin with; lib_work(n) adds n to it and returns it.
 */
__thread int lib_counter = 5;

/* noipa: the probes must see every call as the source has it */
__attribute__((noipa)) int lib_work(int n)
{
	lib_counter += n;
	return lib_counter;
}
