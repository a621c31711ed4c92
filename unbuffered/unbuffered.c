// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unbuffered: run a command on a pseudo-terminal and copy its output through
 * as it arrives, so a child whose C library (or Python, or anything else)
 * buffers output to pipes still shows its real timing.  Unlike expect's
 * unbuffer it keeps the child's exit status exact (128+N for signal N) and
 * its stderr separate; unlike script it changes no byte; unlike stdbuf it
 * works for static binaries and interpreters.  One poll loop watches the
 * terminal and a signalfd (SIGCHLD, forwarded signals, SIGWINCH), and the
 * terminal is drained to EOF after the child exits so nothing is lost.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/parse.h"
#include "lib/timing.h"
#include "unbuffered/unbuffered.h"

#define DEFAULT_COLS 80
#define DEFAULT_ROWS 24
#define COPY_BUF 65536

enum {
	OPT_SIZE = OPT_PROG_FIRST,
};

/* clang-format off */
static const struct option long_options[] = {
	{ "stamp", no_argument, NULL, 's' },
	{ "merge", no_argument, NULL, 'm' },
	{ "size", required_argument, NULL, OPT_SIZE },
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_END
};
/* "+": options end at COMMAND, whose own options are its business. */
static const char short_options[] = "+sm" OPT_SHORT_HELP;
/* clang-format on */

/* Forwarded to the child's process group when they reach us. */
static const int forward_sigs[] = { SIGHUP,  SIGINT,  SIGQUIT,
				    SIGTERM, SIGUSR1, SIGUSR2 };
/* Changed here for our own sake; the child gets the inherited actions. */
static const int reset_sigs[] = { SIGPIPE, SIGCHLD };
#define N_RESET (sizeof(reset_sigs) / sizeof(reset_sigs[0]))
#define N_FORWARD (sizeof(forward_sigs) / sizeof(forward_sigs[0]))

struct options {
	bool stamp;
	bool merge;
	bool has_size;
	struct winsize ws;
};

struct session {
	int master;   /* the terminal, open until the child is reaped */
	bool drained; /* no slave left open: nothing more to read */
	bool stopped; /* told to stop waiting for stragglers */
	int sigfd;
	pid_t pid;
	bool reaped;
	int wstatus;
	bool follow_winch; /* copy our stdout's size on SIGWINCH */
	bool stamp;
	struct stamper stamper;
	sigset_t orig_mask;
	struct sigaction orig_acts[N_RESET];
};

static struct session sess;

static void usage(int status)
{
	if (status != EXIT_OK)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s [OPTION]... COMMAND [ARG]...\n", progname());
	fputs("Run COMMAND on a pseudo-terminal and copy its output to standard output as\n"
	      "it arrives, so a program that buffers output written to a pipe shows its\n"
	      "real timing.  Bytes pass unchanged, COMMAND's stderr stays separate, and the\n"
	      "exit status is COMMAND's (128+N when signal N killed it).\n"
	      "\n"
	      "  -s, --stamp            start each line with \"<seconds>.<nanoseconds> \",\n"
	      "                         CLOCK_MONOTONIC when the whole line had arrived\n"
	      "  -m, --merge            put COMMAND's stderr on the terminal too, merged\n"
	      "                         in order into standard output\n"
	      "      --size=COLSxROWS   terminal size (default: that of our standard\n"
	      "                         output when it is a terminal, else 80x24)\n"
	      "  -h, --help             print this help and exit\n"
	      "  -V, --version          print the version and exit\n"
	      "\n"
	      "COMMAND reads unbuffered's own standard input (/dev/null if it is closed).\n"
	      "SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1 and SIGUSR2 are passed on to\n"
	      "COMMAND's process group.\n"
	      "\n"
	      "Exit status: COMMAND's own, 128+N if signal N killed it, 126 if it cannot be\n"
	      "run, 127 if it is not found, 1 on an output or terminal error, 2 on a usage\n"
	      "error, 3 if no pseudo-terminal can be opened here.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

/* "132x50" -> WS, or a usage error. */
static void parse_size_arg(const char *arg, struct winsize *ws)
{
	const char *x = strchr(arg, 'x');
	uint64_t cols, rows;
	char buf[32];

	if (!x || (size_t)(x - arg) >= sizeof(buf))
		goto bad;
	memcpy(buf, arg, x - arg);
	buf[x - arg] = '\0';
	if (parse_u64(buf, &cols) || parse_u64(x + 1, &rows) || !cols ||
	    !rows || cols > 65535 || rows > 65535)
		goto bad;
	memset(ws, 0, sizeof(*ws));
	ws->ws_col = cols;
	ws->ws_row = rows;
	return;
bad:
	usage_error("invalid value '%s' for --size: expected COLSxROWS "
		    "such as 132x50 (1 to 65535 each)",
		    arg);
}

static void parse_options(struct options *o, int argc, char **argv)
{
	struct opt_common common;
	int c;

	memset(o, 0, sizeof(*o));
	opt_common_init(&common);
	while ((c = getopt_long(argc, argv, short_options, long_options,
				NULL)) != -1) {
		switch (c) {
		case 's':
			o->stamp = true;
			break;
		case 'm':
			o->merge = true;
			break;
		case OPT_SIZE:
			parse_size_arg(optarg, &o->ws);
			o->has_size = true;
			break;
		default:
			if (!opt_common_handle(&common, c, optarg, usage))
				usage_error(NULL);
		}
	}
	if (optind >= argc)
		usage_error("no command given");
}

/*
 * A closed standard descriptor would be taken by the terminal and confuse
 * both sides.  Reopen it on /dev/null: stdin readable (the child sees EOF),
 * stdout and stderr read-only so writing to them still fails (EBADF), as it
 * would have.
 */
static void open_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		nfd = open("/dev/null", O_RDONLY);
		if (nfd != fd)
			die_errno(EXIT_RUN_FAILED, "cannot open '/dev/null'");
	}
}

/* Block the signals we handle and route them to a signalfd. */
static void setup_signals(struct session *s)
{
	struct sigaction sa;
	sigset_t mask;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < N_RESET; i++) {
		/* Write errors as EPIPE; SIGCHLD not ignored, so we can wait. */
		sa.sa_handler = reset_sigs[i] == SIGPIPE ? SIG_IGN : SIG_DFL;
		if (sigaction(reset_sigs[i], &sa, &s->orig_acts[i]))
			die_errno(EXIT_RUN_FAILED, "cannot set signal actions");
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGWINCH);
	for (i = 0; i < N_FORWARD; i++) {
		struct sigaction old;

		/* One ignored on entry (nohup, "&") stays ignored, as for
		 * the child, which inherits that. */
		if (sigaction(forward_sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&mask, forward_sigs[i]);
	}
	if (sigprocmask(SIG_BLOCK, &mask, &s->orig_mask))
		die_errno(EXIT_RUN_FAILED, "cannot block signals");
	s->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->sigfd < 0)
		die_errno(EXIT_RUN_FAILED, "cannot create a signalfd");
}

static void initial_size(const struct options *o, struct session *s,
			 struct winsize *ws)
{
	if (o->has_size) {
		*ws = o->ws;
		return;
	}
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, ws) &&
	    ws->ws_col && ws->ws_row) {
		s->follow_winch = true;
		return;
	}
	memset(ws, 0, sizeof(*ws));
	ws->ws_col = DEFAULT_COLS;
	ws->ws_row = DEFAULT_ROWS;
}

static void start_child(struct session *s, const struct options *o, char **cmd)
{
	struct spawn_opts so;
	enum spawn_stage stage;
	struct winsize ws;
	int slave, errnum, r;

	initial_size(o, s, &ws);
	r = pty_open(&s->master, &slave, &ws);
	if (r)
		/* No devpts in this container or jail, or all ptys taken. */
		die_err(EXIT_UNSUPPORTED, -r, "cannot open a pseudo-terminal");
	so.slave = slave;
	so.merge = o->merge;
	so.mask = &s->orig_mask;
	so.reset_sigs = reset_sigs;
	so.reset_acts = s->orig_acts;
	so.n_reset = N_RESET;
	r = pty_spawn(cmd, &so, &s->pid, &stage, &errnum);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot fork");
	/* Only the child holds the slave now: its last close ends output. */
	close(slave);
	if (stage == SPAWN_OK)
		return;
	/* It exits at once; the status it leaves says nothing more. */
	(void)waitpid(s->pid, NULL, 0);
	if (stage == SPAWN_SETUP)
		die_err(EXIT_RUN_FAILED, errnum,
			"cannot set up the terminal for '%s'", cmd[0]);
	die_err(errnum == ENOENT ? 127 : 126, errnum, "cannot run '%s'",
		cmd[0]);
}

/*
 * Copy one read's worth of output.  Returns the bytes copied, 0 at the end
 * (s->drained set) or when a non-blocking read finds nothing, -1 on EINTR.
 */
static ssize_t copy_output(struct session *s)
{
	static char buf[COPY_BUF];
	ssize_t n = read(s->master, buf, sizeof(buf));
	int r;

	if (n < 0) {
		if (errno == EAGAIN)
			return 0;
		if (errno == EINTR)
			return -1;
		/* Linux: EIO once every slave descriptor is closed and what
		 * they wrote has been read.  That is our end of file. */
		if (errno != EIO)
			die_errno(EXIT_RUN_FAILED,
				  "cannot read from the pseudo-terminal");
		n = 0;
	}
	if (n == 0) {
		/* Not closed yet: closing the master hangs up the slave, and
		 * the SIGHUP would kill a child that closed its stdout and
		 * is still on its way out (coreutils' close_stdout). */
		s->drained = true;
		return 0;
	}
	if (s->stamp)
		r = stamper_feed(&s->stamper, buf, n, mono_ns());
	else
		r = write_all(STDOUT_FILENO, buf, n);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "write error");
	return n;
}

static void reap(struct session *s)
{
	int st;

	if (s->reaped)
		return;
	if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
		s->reaped = true;
		s->wstatus = st;
	}
}

/*
 * Read what is still buffered without waiting (unless told to stop), then
 * close the terminal, which hangs up anything still on it, and write a held
 * --stamp line.
 */
static void end_output(struct session *s)
{
	int r = 0;

	if (s->master < 0)
		return;
	if (!s->stopped && fcntl(s->master, F_SETFL, O_NONBLOCK) == 0) {
		s->drained = false;
		while (!s->drained && copy_output(s) != 0)
			;
	}
	close(s->master);
	s->master = -1;
	s->drained = true;
	if (s->stamp)
		r = stamper_finish(&s->stamper);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "write error");
}

static void forward(struct session *s, int signo)
{
	if (s->reaped) {
		/* Only stragglers hold the terminal: stop waiting for them
		 * (closing it hangs them up). */
		s->drained = true;
		s->stopped = true;
		return;
	}
	/* The child leads its own process group; before its setsid() the
	 * group does not exist yet, so fall back to the child alone. */
	if (kill(-s->pid, signo) && errno == ESRCH)
		(void)kill(s->pid, signo);
}

static void handle_signals(struct session *s)
{
	struct signalfd_siginfo si;
	struct winsize ws;
	ssize_t n;

	while ((n = read(s->sigfd, &si, sizeof(si))) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGCHLD:
			reap(s);
			break;
		case SIGWINCH:
			/* The kernel tells the child when the size changes. */
			if (s->follow_winch && !s->drained &&
			    !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws))
				(void)ioctl(s->master, TIOCSWINSZ, &ws);
			break;
		default:
			forward(s, (int)si.ssi_signo);
		}
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		die_errno(EXIT_RUN_FAILED, "cannot read signals");
}

/* Copy until the child has exited and the terminal is drained. */
static void relay(struct session *s)
{
	struct pollfd pfd[2];

	while (!s->reaped || !s->drained) {
		nfds_t nfds = 1;

		pfd[0].fd = s->sigfd;
		pfd[0].events = POLLIN;
		if (!s->drained) {
			pfd[1].fd = s->master;
			pfd[1].events = POLLIN;
			nfds = 2;
		}
		if (poll(pfd, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			die_errno(EXIT_RUN_FAILED, "poll");
		}
		if (pfd[0].revents)
			handle_signals(s);
		if (nfds == 2 && !s->drained && pfd[1].revents)
			copy_output(s);
	}
	/* A descendant may have written after the end was seen. */
	end_output(s);
}

static int exit_status(int wstatus)
{
	if (WIFSIGNALED(wstatus))
		return EXIT_SIGNAL(WTERMSIG(wstatus));
	return WEXITSTATUS(wstatus);
}

int main(int argc, char **argv)
{
	struct options o;

	prog_init(argc, argv);
	parse_options(&o, argc, argv);
	open_std_fds();
	setup_signals(&sess);
	sess.stamp = o.stamp;
	if (o.stamp)
		stamper_init(&sess.stamper, STDOUT_FILENO);
	start_child(&sess, &o, argv + optind);
	relay(&sess);
	if (o.stamp)
		stamper_release(&sess.stamper);
	return exit_status(sess.wstatus);
}
