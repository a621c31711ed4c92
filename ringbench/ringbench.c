// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ringbench: the three small measures of the 2008 tbench regression hunt,
 * run the same way on every kernel: a ring of tasks passing a token
 * (ring-test), request/response over loopback (netperf TCP_RR) and dbench's
 * tbench.  main() checks every option before anything runs, calibrates the
 * busy loop, runs RUNS measurements of the mode and writes one report, also
 * after an error or a stop signal (then marked partial).
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/net.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/parse.h"
#include "lib/sig.h"
#include "lib/timing.h"
#include "lib/xalloc.h"
#include "ringbench/ringbench.h"

enum {
	OPT_VIA = OPT_PROG_FIRST,
	OPT_PROCESSES,
	OPT_SIZE,
	OPT_UDP,
	OPT_LISTEN,
	OPT_CONNECT,
	OPT_PORT_FILE,
	OPT_MAX_CLIENTS,
	OPT_IDLE_TIMEOUT,
	OPT_WARMUP,
	OPT_CPUS,
	OPT_PROGRESS,
};

/* clang-format off */
static const char short_opts[] = "t:w:s:c:d:N:n:" OPT_SHORT_HELP
	OPT_SHORT_VERBOSE OPT_SHORT_QUIET OPT_SHORT_OUTPUT;
static const struct option long_opts[] = {
	{ "tasks",        required_argument, NULL, 't' },
	{ "work",         required_argument, NULL, 'w' },
	{ "sleep",        required_argument, NULL, 's' },
	{ "via",          required_argument, NULL, OPT_VIA },
	{ "processes",    no_argument,       NULL, OPT_PROCESSES },
	{ "clients",      required_argument, NULL, 'c' },
	{ "size",         required_argument, NULL, OPT_SIZE },
	{ "udp",          no_argument,       NULL, OPT_UDP },
	{ "listen",       required_argument, NULL, OPT_LISTEN },
	{ "connect",      required_argument, NULL, OPT_CONNECT },
	{ "port-file",    required_argument, NULL, OPT_PORT_FILE },
	{ "max-clients",  required_argument, NULL, OPT_MAX_CLIENTS },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT },
	{ "count",        required_argument, NULL, 'N' },
	{ "runs",         required_argument, NULL, 'n' },
	{ "warmup",       required_argument, NULL, OPT_WARMUP },
	{ "cpus",         required_argument, NULL, OPT_CPUS },
	{ "progress",     required_argument, NULL, OPT_PROGRESS },
	OPT_LONG_DURATION,
	OPT_LONG_FORMAT,
	OPT_LONG_OUTPUT,
	OPT_LONG_VERBOSE,
	OPT_LONG_QUIET,
	OPT_LONG_HELP,
	OPT_LONG_VERSION,
	OPT_LONG_END,
};
/* clang-format on */

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	printf("Usage: %s ring|rr|tbench|calibrate [OPTION]...\n", progname());
	/* clang-format off */
	fputs("The scheduler and loopback-network measures of the 2008 tbench hunt:\n"
	      "  ring       NR tasks pass a token round a ring (ring-test): us per cycle,\n"
	      "             cycles/s and the wakeup latency of every hop\n"
	      "  rr         request/response over TCP (or UDP) loopback, as netperf\n"
	      "             TCP_RR: transactions/s and the round-trip latency\n"
	      "  tbench     dbench's tbench_srv and tbench (package dbench), parsed\n"
	      "  calibrate  the busy loop of -w against the thread's CPU time\n"
	      "\n"
	      "ring:\n"
	      "  -t, --tasks=NR         tasks in the ring (default 2)\n"
	      "  -w, --work=TIME        busy work per hop; a bare number is ms (default 0)\n"
	      "  -s, --sleep=TIME       sleep per hop; a bare number is ms (default 0)\n"
	      "      --via=KIND         pipe (default), futex or eventfd\n"
	      "      --processes        tasks are processes, not threads\n"
	      "rr:\n"
	      "  -c, --clients=N        client connections, one thread each (default 1)\n"
	      "      --size=REQ,RESP    request and response bytes (default 1,1)\n"
	      "      --udp              UDP datagrams instead of TCP\n"
	      "      --listen=HOST:PORT only serve, on HOST:PORT, until stopped or -d\n"
	      "      --connect=HOST:PORT\n"
	      "                         only the clients, against that server\n"
	      "      --port-file=FILE   write the port the server got to FILE\n"
	      "      --max-clients=N    connections the server holds at most (default 64)\n"
	      "      --idle-timeout=TIME\n"
	      "                         drop a silent peer after TIME (default 60s)\n"
	      "tbench:\n"
	      "  -c, --clients=N        tbench clients (default 1)\n"
	      "all modes:\n"
	      "  -d, --duration=TIME    measure for TIME (default 10s)\n"
	      "  -N, --count=N          measure N cycles (rr: N transactions per client)\n"
	      "      --warmup=TIME      run TIME before measuring (default 1s)\n"
	      "  -n, --runs=N           N measurements: mean, stddev, CoV (default 1)\n"
	      "      --cpus=LIST        pin tasks round-robin over LIST (0,2-3): ring\n"
	      "                         members in order; rr client 0, server 0, client 1...\n"
	      "      --progress=N       a progress line every N hops or transactions\n"
	      "      --format=FORMAT    text (default), json or csv\n"
	      "  -o, --output=FILE      write the report to FILE (replaced atomically)\n"
	      "  -v, --verbose          say what is being run on stderr\n"
	      "  -q, --quiet            accepted for the suite's vocabulary\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and exit\n"
	      "\n"
	      "Sizes take binary suffixes (64k = 65536 bytes).  Durations: 250ms, 10s, 2m.\n"
	      "Exit status: 0 success, 1 run failed, 2 usage error, 3 unsupported here\n"
	      "(tbench not installed, a CPU not available), 128+N stopped by signal N.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

/* Options only some modes take, for the error when misused. */
struct cli {
	struct rb_opts o;
	struct opt_common c;
	const char *mode_only[4]; /* first option of ring, rr, tbench */
	bool has_count;
	bool has_warmup;
};

static uint64_t opt_ms(const char *name, const char *arg)
{
	char *s;
	uint64_t v;

	if (arg[0] && strspn(arg, "0123456789") == strlen(arg)) {
		s = xasprintf("%sms", arg);
		v = opt_duration(name, s);
		free(s);
		return v;
	}
	return opt_duration(name, arg);
}

static void parse_sizes(struct rb_opts *o, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char *a;

	if (!comma)
		usage_error("invalid value '%s' for --size (expected REQ,RESP)",
			    arg);
	a = xasprintf("%.*s", (int)(comma - arg), arg);
	o->req_size = opt_size("--size", a, 1);
	o->resp_size = opt_size("--size", comma + 1, 1);
	free(a);
	if (!o->req_size || !o->resp_size || o->req_size > RB_MAX_MSG ||
	    o->resp_size > RB_MAX_MSG)
		usage_error("--size takes sizes from 1 byte to 1M, not '%s'",
			    arg);
}

static void add_cpu(struct rb_opts *o, uint64_t cpu, const char *arg)
{
	if (o->n_cpus >= RB_MAX_CPUS)
		usage_error("too many CPUs in --cpus '%s' (at most %d)", arg,
			    RB_MAX_CPUS);
	o->cpus[o->n_cpus++] = (int)cpu;
}

/* "0,2-3,5" -> 0 2 3 5, in the order given. */
static void parse_cpus(struct rb_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL, *tok, *dash;
	uint64_t a, b;

	o->n_cpus = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		dash = strchr(tok, '-');
		if (dash)
			*dash = '\0';
		if (parse_u64(tok, &a) || a >= RB_MAX_CPUS ||
		    (dash &&
		     (parse_u64(dash + 1, &b) || b < a || b >= RB_MAX_CPUS)))
			usage_error("invalid value '%s' for --cpus (expected "
				    "a list like 0,2-3)",
				    arg);
		for (b = dash ? b : a; a <= b; a++)
			add_cpu(o, a, arg);
	}
	free(copy);
	if (!o->n_cpus || arg[strlen(arg) - 1] == ',' || arg[0] == ',')
		usage_error("invalid value '%s' for --cpus (expected a list "
			    "like 0,2-3)",
			    arg);
}

static void mode_only(struct cli *cl, enum rb_mode m, const char *name)
{
	if (!cl->mode_only[m])
		cl->mode_only[m] = name;
}

static void parse_one(struct cli *cl, int c, const char *arg)
{
	struct rb_opts *o = &cl->o;

	switch (c) {
	case 't':
		o->members =
			(unsigned)opt_u64("--tasks", arg, 1, RB_MAX_MEMBERS);
		return mode_only(cl, RB_RING, "--tasks");
	case 'w':
		o->work_ns = opt_ms("--work", arg);
		return;
	case 's':
		o->sleep_ns = opt_ms("--sleep", arg);
		return mode_only(cl, RB_RING, "--sleep");
	case OPT_VIA:
		o->via = (enum rb_via)opt_choice("--via", arg, rb_via_name);
		return mode_only(cl, RB_RING, "--via");
	case OPT_PROCESSES:
		o->processes = true;
		return mode_only(cl, RB_RING, "--processes");
	case 'c':
		o->clients =
			(unsigned)opt_u64("--clients", arg, 1, RB_MAX_CLIENTS);
		return;
	case OPT_SIZE:
		parse_sizes(o, arg);
		return mode_only(cl, RB_RR, "--size");
	case OPT_UDP:
		o->udp = true;
		return mode_only(cl, RB_RR, "--udp");
	case OPT_LISTEN:
		o->listen = arg;
		return mode_only(cl, RB_RR, "--listen");
	case OPT_CONNECT:
		o->connect = arg;
		return mode_only(cl, RB_RR, "--connect");
	case OPT_PORT_FILE:
		o->port_file = arg;
		return mode_only(cl, RB_RR, "--port-file");
	case OPT_MAX_CLIENTS:
		o->max_clients =
			(unsigned)opt_u64("--max-clients", arg, 1, 4096);
		return mode_only(cl, RB_RR, "--max-clients");
	case OPT_IDLE_TIMEOUT:
		o->idle_ns = opt_duration("--idle-timeout", arg);
		if (!o->idle_ns)
			usage_error("--idle-timeout must be greater than zero");
		return mode_only(cl, RB_RR, "--idle-timeout");
	case 'N':
		o->count = opt_u64("--count", arg, 1, UINT64_MAX / 2);
		cl->has_count = true;
		return;
	case 'n':
		o->runs = (unsigned)opt_u64("--runs", arg, 1, RB_MAX_RUNS);
		return;
	case OPT_WARMUP:
		o->warmup_ns = opt_duration("--warmup", arg);
		cl->has_warmup = true;
		return;
	case OPT_CPUS:
		parse_cpus(o, arg);
		return;
	case OPT_PROGRESS:
		o->progress_every = opt_u64("--progress", arg, 1, UINT64_MAX);
		return;
	case 'd':
		c = OPT_DURATION;
		/* fall through */
	default:
		if (!opt_common_handle(&cl->c, c, arg, usage))
			usage_error(NULL);
	}
}

/* Options of another mode, and combinations that make no sense. */
static void check_combination(struct cli *cl)
{
	struct rb_opts *o = &cl->o;
	unsigned m;

	for (m = RB_RING; m <= RB_TBENCH; m++)
		if (cl->mode_only[m] && o->mode != m)
			usage_error("%s is an option of %s mode",
				    cl->mode_only[m], rb_mode_name[m]);
	if (o->work_ns && o->mode != RB_RING && o->mode != RB_CALIBRATE)
		usage_error("--work is an option of ring and calibrate modes");
	if (o->clients != 1 && o->mode != RB_RR && o->mode != RB_TBENCH)
		usage_error("--clients is an option of rr and tbench modes");
	if (cl->has_count && cl->c.has_duration)
		usage_error("--count and --duration cannot be combined");
	if (cl->has_count && o->mode == RB_TBENCH)
		usage_error("tbench runs for a --duration, not a --count");
	if (o->listen && o->connect)
		usage_error("--listen and --connect cannot be combined");
	if (o->listen && (cl->has_count || o->runs > 1))
		usage_error("--listen serves until stopped or --duration; "
			    "--count and --runs are for clients");
	if (o->port_file && o->connect)
		usage_error("--port-file names the port of a server; "
			    "--connect has none");
	if (o->udp &&
	    (o->req_size > RB_MAX_DGRAM || o->resp_size > RB_MAX_DGRAM))
		usage_error("--udp takes sizes up to %u bytes", RB_MAX_DGRAM);
	if (o->mode == RB_CALIBRATE && !o->work_ns)
		usage_error("calibrate needs --work=TIME");
}

/* Every CPU in --cpus must be one we may run on. */
static void check_cpus(const struct rb_opts *o)
{
	cpu_set_t set;
	unsigned i;

	if (!o->n_cpus)
		return;
	if (sched_getaffinity(0, sizeof(set), &set))
		die_errno(EXIT_RUN_FAILED, "cannot read the CPU affinity");
	for (i = 0; i < o->n_cpus; i++)
		if (!CPU_ISSET(o->cpus[i], &set))
			die(EXIT_UNSUPPORTED,
			    "cannot pin to CPU %d: not online or not allowed "
			    "here (--cpus)",
			    o->cpus[i]);
}

static void parse_args(struct cli *cl, int argc, char **argv)
{
	struct rb_opts *o = &cl->o;
	int c;

	memset(cl, 0, sizeof(*cl));
	opt_common_init(&cl->c);
	o->members = 2;
	o->clients = 1;
	o->req_size = o->resp_size = 1;
	o->max_clients = 64;
	o->idle_ns = 60 * NSEC_PER_SEC;
	o->runs = 1;
	o->warmup_ns = NSEC_PER_SEC;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		parse_one(cl, c, optarg);
	o->format = opt_format(cl->c.format, FORMAT_TEXT, true);
	if (optind >= argc)
		usage_error("no mode given (ring, rr, tbench or calibrate)");
	o->mode = (enum rb_mode)opt_choice("mode", argv[optind], rb_mode_name);
	if (optind + 1 < argc)
		usage_error("unexpected argument '%s'", argv[optind + 1]);
	o->output = cl->c.output;
	o->verbose = cl->c.verbose;
	check_combination(cl);
	if (!cl->has_count)
		o->duration_ns = cl->c.has_duration ? cl->c.duration_ns
				 : o->listen	    ? 0
						    : 10 * NSEC_PER_SEC;
	if (!o->duration_ns && !o->count && !o->listen)
		usage_error("--duration must be greater than zero");
	if (o->mode == RB_TBENCH && cl->has_warmup)
		usage_error("tbench keeps its own warmup; --warmup is for ring "
			    "and rr");
	check_cpus(o);
}

/* ---- helpers the modes share (ringbench.h) ---- */

static pthread_mutex_t place_lock = PTHREAD_MUTEX_INITIALIZER;

void rb_fail(struct rb_state *st, int err, const char *fmt, ...)
{
	int none = 0;
	va_list ap;

	pthread_mutex_lock(&place_lock);
	if (atomic_compare_exchange_strong(&st->err, &none, err ? err : -1)) {
		va_start(ap, fmt);
		vsnprintf(st->what, sizeof(st->what), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&place_lock);
	atomic_store(&st->stop, true);
}

bool rb_stopping(struct rb_state *st)
{
	return atomic_load_explicit(&st->stop, memory_order_relaxed);
}

int rb_cpu_of(const struct rb_opts *o, unsigned n)
{
	return o->n_cpus ? o->cpus[n % o->n_cpus] : -1;
}

int rb_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

void rb_place_add(struct rb_state *st, const char *role, unsigned index,
		  int cpu)
{
	unsigned i;

	pthread_mutex_lock(&place_lock);
	for (i = 0; i < st->n_place; i++)
		if (st->place[i].index == index &&
		    !strcmp(st->place[i].role, role))
			break;
	if (i == st->n_place) {
		st->place = xreallocarray(st->place, st->n_place + 1,
					  sizeof(*st->place));
		st->place[st->n_place++] =
			(struct rb_place){ role, index, cpu };
	}
	pthread_mutex_unlock(&place_lock);
}

/* ---- running ---- */

static struct rb_server *start_server(struct rb_state *st, const char *addr,
				      char *bound)
{
	struct rb_server *srv;
	const char *what;
	int e = rb_server_start(st, &srv, addr, bound, &what);

	if (e == -EINVAL)
		usage_error("invalid address '%s' for --listen", addr);
	if (e)
		die_err(EXIT_RUN_FAILED, -e, "cannot %s '%s'", what, addr);
	if (st->o->port_file &&
	    (e = net_write_port_file(st->o->port_file, bound)))
		die_err(EXIT_RUN_FAILED, -e, "cannot write '%s'",
			st->o->port_file);
	if (st->o->verbose)
		inform("serving on %s", bound);
	return srv;
}

/* --listen: serve until a signal or the duration. */
static void serve_only(struct rb_state *st, struct rb_run *run, char *bound)
{
	struct rb_server *srv = start_server(st, st->o->listen, bound);
	uint64_t start = mono_ns(), end = start + st->o->duration_ns;

	while (!sig_stop && (!st->o->duration_ns || mono_ns() < end))
		(void)sleep_until_ns(mono_ns() + 50 * NSEC_PER_MSEC, &sig_stop);
	run->elapsed_ns = mono_ns() - start;
	rb_server_stop(srv, run);
	run->complete = !sig_stop;
}

static int run_once(struct rb_state *st, const struct rb_calib *cal,
		    struct rb_run *run, char *bound, char *why, size_t len)
{
	const struct rb_opts *o = st->o;
	struct rb_server *srv;
	int e;

	switch (o->mode) {
	case RB_RING:
		return rb_ring_run(st, cal, run);
	case RB_TBENCH:
		return rb_tbench_run(st, run, why, len);
	case RB_RR:
		if (o->connect) {
			snprintf(bound, NET_ADDR_MAX, "%s", o->connect);
			return rb_rr_run(st, o->connect, run);
		}
		/* The built-in server lives for one run, so its counts are
		 * the run's and every connection is closed when it ends. */
		srv = start_server(st, "127.0.0.1:0", bound);
		e = rb_rr_run(st, bound, run);
		rb_server_stop(srv, run);
		return e;
	case RB_CALIBRATE:
		break;
	}
	return 0;
}

/*
 * calibrate: RUNS times (default 5), calibrate the busy loop as a run's
 * start does and at once run WORK of it, timed on the thread's CPU clock.
 * Calibrating right before each check makes it a check of the calibration,
 * not of how the CPU's own speed drifts over seconds on a shared machine.
 */
static uint64_t *measure_work(const struct rb_opts *o, unsigned *n)
{
	struct rb_calib c;
	uint64_t *v, t;
	unsigned i;

	*n = o->runs > 1 ? o->runs : 5;
	v = xcalloc(*n, sizeof(*v));
	for (i = 0; i < *n && !sig_stop; i++) {
		rb_calibrate(&c, o->work_ns);
		t = thread_cpu_ns();
		rb_spin(c.work_loops);
		v[i] = thread_cpu_ns() - t;
	}
	*n = i;
	return v;
}

static int write_report(const struct rb_opts *o, const struct rb_report *rep)
{
	const char *path = o->output ? o->output : "-";
	struct atomic_file af;
	int e = atomic_open(&af, path);

	if (e)
		die_err(EXIT_RUN_FAILED, -e, "cannot create '%s'", path);
	e = rb_report_write(af.f, rep);
	if (e) {
		atomic_abort(&af);
		return e;
	}
	return atomic_commit(&af);
}

static char *error_text(const struct rb_state *st)
{
	int e = atomic_load(&st->err);

	if (e > 0)
		return xasprintf("%s: %s", st->what, strerror(e));
	return xstrdup(st->what);
}

int main(int argc, char **argv)
{
	static struct cli cl;
	struct rb_state st = { 0 };
	struct rb_report rep = { 0 };
	struct rb_calib cal = { 0 };
	struct run_info ri;
	struct rb_run *runs;
	char bound[NET_ADDR_MAX] = "", why[256] = "";
	unsigned i, n = 0;
	int status = EXIT_OK, e;

	prog_init(argc, argv);
	parse_args(&cl, argc, argv);
	if (sig_stop_install())
		die_errno(EXIT_RUN_FAILED, "cannot install signal handlers");
	run_info_init(&ri, "ringbench", argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	st.o = &cl.o;
	progress_init(&st.progress, cl.o.progress_every ? STDOUT_FILENO : -1,
		      "ringbench");

	/* Calibrate where member 0 / client 0 runs. */
	e = rb_pin(rb_cpu_of(&cl.o, 0));
	if (e)
		die_err(EXIT_UNSUPPORTED, -e, "cannot pin to CPU %d",
			rb_cpu_of(&cl.o, 0));
	rb_calibrate(&cal, cl.o.work_ns);
	runs = xcalloc(cl.o.runs, sizeof(*runs));
	if (cl.o.mode == RB_CALIBRATE) {
		rep.work_cpu_ns = measure_work(&cl.o, &rep.n_work);
		cl.o.runs = 0;
	}
	for (i = 0; i < cl.o.runs && !sig_stop && !rb_stopping(&st); i++) {
		runs[i].hist = xmalloc(sizeof(*runs[i].hist));
		hist_init(runs[i].hist);
		n = i + 1;
		if (cl.o.listen) {
			serve_only(&st, &runs[i], bound);
			break;
		}
		if (cl.o.verbose)
			inform("run %u of %u", i + 1, cl.o.runs);
		e = run_once(&st, &cal, &runs[i], bound, why, sizeof(why));
		if (e == -ENOENT)
			die(EXIT_UNSUPPORTED, "%s", why);
		if (e)
			break;
	}
	ri.end_real_ns = real_ns();

	rep.o = &cl.o;
	rep.ri = &ri;
	rep.calib = &cal;
	rep.runs = runs;
	rep.n_runs = n;
	rep.place = st.place;
	rep.n_place = st.n_place;
	rep.server = bound;
	rep.signo = sig_stop;
	if (atomic_load(&st.err)) {
		rep.error = error_text(&st);
		inform("%s", rep.error);
		status = EXIT_RUN_FAILED;
	}
	if (sig_stop)
		status = EXIT_SIGNAL(sig_stop);
	rep.partial = status != EXIT_OK;
	e = write_report(&cl.o, &rep);
	if (e)
		die_err(EXIT_RUN_FAILED, -e, "cannot write the report");
	for (i = 0; i < n; i++)
		free(runs[i].hist);
	free(runs);
	free(st.place);
	free((char *)rep.error);
	free((void *)rep.work_cpu_ns);
	return status;
}
