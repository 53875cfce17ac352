/* stdin to the script's input probes (see input.h). */
#define _GNU_SOURCE
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void tty_quiet(struct input *in)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &in->tty_saved) != 0)
		return;
	t = in->tty_saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0)
		in->tty_changed = true;
}

int input_open(struct input *in, const char *name)
{
	char path[400];
	struct stat st;

	in->fd = -1;
	in->tty_changed = false;
	snprintf(path, sizeof(path), "/proc/systemtap/%s/__stdin", name);
	in->fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in->fd < 0) {
		if (errno == ENOENT)
			return 0;	/* no input probes */
		fprintf(stderr, "ERROR: tapc-run: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (fstat(in->fd, &st) != 0 || st.st_uid != getuid()) {
		fprintf(stderr, "ERROR: tapc-run: %s does not belong to the session's user: not feeding it\n",
			path);
		close(in->fd);
		in->fd = -1;
		return -1;
	}
	tty_quiet(in);
	return 0;
}

void input_forward(struct input *in)
{
	char buf[4096];
	ssize_t n;

	if (in->fd < 0)
		return;
	n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		input_close(in);
		return;
	}
	/* one byte a write: input.char's $value is one character */
	for (ssize_t i = 0; i < n; i++) {
		while (write(in->fd, buf + i, 1) != 1) {
			if (errno == EINTR)
				continue;
			input_close(in);	/* the session is over */
			return;
		}
	}
}

void input_close(struct input *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	if (in->tty_changed)
		tcsetattr(STDIN_FILENO, TCSANOW, &in->tty_saved);
	in->tty_changed = false;
}
