/* A stand-in for SystemTap's stap and staprun in the test of the
 * stap_staticmarkers tapset (tapc.driver/stapmarks.exp): built once as
 * "stap" and once as "staprun" in a directory put first on $PATH, it
 * fires the SDT markers the real program of its name carries, in the
 * real order, with arguments the test knows: the "session" of pass N is
 * 1000 + N, the strings name the marker. */
#include <string.h>
#include <sys/sdt.h>

static void stap_markers(void)
{
	STAP_PROBE1(stap, pass0__start, 1000L);
	STAP_PROBE1(stap, pass0__end, 1000L);
	STAP_PROBE1(stap, pass1a__start, 1001L);
	STAP_PROBE1(stap, pass1b__start, 1001L);
	STAP_PROBE1(stap, pass1__end, 1001L);
	STAP_PROBE1(stap, pass2__start, 1002L);
	STAP_PROBE1(stap, pass2__end, 1002L);
	STAP_PROBE1(stap, pass3__start, 1003L);
	STAP_PROBE1(stap, pass3__end, 1003L);
	STAP_PROBE1(stap, pass4__start, 1004L);
	STAP_PROBE2(stap, cache__add__module, "/tmp/build/m.ko", "/cache/m.ko");
	STAP_PROBE2(stap, cache__add__source, "/tmp/build/m.c", "/cache/m.c");
	STAP_PROBE1(stap, pass4__end, 1004L);
	STAP_PROBE2(stap, cache__get, "/cache/m.c", "/cache/m.ko");
	STAP_PROBE1(stap, cache__clean, "/cache/old");
	STAP_PROBE1(stap, pass5__start, 1005L);
	STAP_PROBE1(stap, stap_system__start, "staprun m.ko");
	STAP_PROBE2(stap, stap_system__spawn, 0L, 4242L);
	STAP_PROBE2(stap, stap_system__complete, 3L, 4242L);
	STAP_PROBE1(stap, pass5__end, 1005L);
	STAP_PROBE1(stap, pass6__start, 1006L);
	STAP_PROBE1(stap, pass6__end, 1006L);
}

static void staprun_markers(void)
{
	STAP_PROBE1(staprun, insert__module, "/cache/m.ko");
	STAP_PROBE3(staprun, send__ctlmsg, 7L, 0x1234L, 16L);
	STAP_PROBE1(staprun, remove__module, "m");
}

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	const char *name = slash ? slash + 1 : argv[0];

	(void)argc;
	if (strcmp(name, "staprun") == 0)
		staprun_markers();
	else
		stap_markers();
	return 0;
}
