# Kernel API feature tests, as SystemTap's autoconf-*.c: the runtime asks
# whether this kernel has an interface, not which version it is.
#
# Every Kbuild file that compiles the runtime includes this text after
# setting tapc_conf_dir (this directory, quoted for the shell).  Each
# NAME.c here compiles only when the kernel has what it names; each that
# compiles against this kernel tree adds -DTAPCONF_NAME (upper case) to
# the runtime's flags.  The tests run at once, in one shell, while kbuild
# reads the Kbuild file, with the flags kbuild gives a module's C:
# compiling the runtime (once per kernel tree, runtime and -D set: the
# runtime cache's key covers these files) pays about one compile of a
# small file, a build from the cached runtime nothing.
tapconf_cc := $(CC) $(NOSTDINC_FLAGS) $(LINUXINCLUDE) $(KBUILD_CPPFLAGS) \
	$(KBUILD_CFLAGS) $(KBUILD_CFLAGS_MODULE) -DKBUILD_MODNAME='"tapconf"' \
	-DKBUILD_BASENAME='"tapconf"' -Werror -fsyntax-only -x c
tapconf_flags := $(shell for t in $(tapc_conf_dir)/*.c; do \
	{ $(tapconf_cc) "$$t" >/dev/null 2>&1 && echo "$$t"; } & \
	done | sed 's,.*/,-DTAPCONF_,; s,\.c$$,,' | LC_ALL=C tr a-z A-Z | LC_ALL=C sort)
ccflags-y += $(tapconf_flags)
