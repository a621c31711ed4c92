// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake-music: a music player over a slow network.  It pulls a folder over
 * TCP at a bandwidth limit, rsync-style with librsync deltas, and prints a
 * progress line (doc/design.md, contract 1) for every 0.1 s of audio received
 * and written, so a stalled stream (the music skipping) shows as a gap.  Also
 * a server for that folder, a generator of a deterministic album and a local
 * player.
 */
#include <config.h>

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/err.h"
#include "lib/opt.h"
#include "lib/output.h"
#include "lib/sig.h"
#include "lib/timing.h"

#include "fakemusic/fake-music.h"

enum mode { MODE_NONE, MODE_PULL, MODE_SERVE, MODE_PLAY, MODE_GENERATE };

enum {
	OPT_SERVE = OPT_PROG_FIRST,
	OPT_LISTEN,
	OPT_PORT_FILE,
	OPT_FROM,
	OPT_TO,
	OPT_BWLIMIT,
	OPT_BITRATE,
	OPT_PLAY,
	OPT_GENERATE,
	OPT_SONGS,
	OPT_SONG_SIZE,
	OPT_RETRIES,
	OPT_FDATASYNC,
	OPT_LOOP,
	OPT_MAX_CLIENTS,
	OPT_IDLE_TIMEOUT,
	OPT_SIG_MEMORY,
};

/* clang-format off */
static const struct option long_options[] = {
	{ "serve",     required_argument, NULL, OPT_SERVE },
	{ "listen",    required_argument, NULL, OPT_LISTEN },
	{ "port-file", required_argument, NULL, OPT_PORT_FILE },
	{ "from",      required_argument, NULL, OPT_FROM },
	{ "to",        required_argument, NULL, OPT_TO },
	{ "bwlimit",   required_argument, NULL, OPT_BWLIMIT },
	{ "bitrate",   required_argument, NULL, OPT_BITRATE },
	{ "play",      no_argument,       NULL, OPT_PLAY },
	{ "generate",  required_argument, NULL, OPT_GENERATE },
	{ "songs",     required_argument, NULL, OPT_SONGS },
	{ "song-size", required_argument, NULL, OPT_SONG_SIZE },
	{ "retries",   required_argument, NULL, OPT_RETRIES },
	{ "fdatasync", no_argument,       NULL, OPT_FDATASYNC },
	{ "loop",      no_argument,       NULL, OPT_LOOP },
	{ "max-clients",  required_argument, NULL, OPT_MAX_CLIENTS },
	{ "idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT },
	{ "sig-memory",   required_argument, NULL, OPT_SIG_MEMORY },
	OPT_LONG_HELP, OPT_LONG_VERSION, OPT_LONG_VERBOSE, OPT_LONG_QUIET,
	OPT_LONG_DURATION, OPT_LONG_SEED, OPT_LONG_OUTPUT, OPT_LONG_FORMAT,
	OPT_LONG_END
};
/* clang-format on */
static const char short_options[] =
	OPT_SHORT_HELP OPT_SHORT_VERBOSE OPT_SHORT_QUIET OPT_SHORT_OUTPUT;

struct options {
	struct opt_common common;
	enum mode mode;
	const char *dir; /* --serve, --to or --generate */
	const char *listen;
	const char *port_file;
	const char *from;
	char host[256], port[16];
	bool has_bwlimit;
	uint64_t bwlimit; /* bytes/s, 0 = unlimited */
	uint64_t bitrate; /* bytes/s of audio */
	struct album album;
	unsigned retries;
	bool fdatasync, loop;
	bool server_limits; /* one of the three below was given */
	unsigned max_clients;
	uint64_t idle_ns;
	uint64_t sig_memory;
	enum out_format format;
	char **paths;
	int npaths;
};

static void usage(int status)
{
	if (status)
		usage_error(NULL);
	/* clang-format off */
	printf("Usage: %s --to DIR [--from HOST:PORT] [OPTION]...\n"
	       "  or:  %s --serve DIR [OPTION]...\n"
	       "  or:  %s --play [OPTION]... PATH...\n"
	       "  or:  %s --generate DIR [OPTION]...\n",
	       progname(), progname(), progname(), progname());
	fputs("A music player over a slow network: pull a folder over TCP at a\n"
	      "bandwidth limit, rsync-style with librsync deltas, and print a\n"
	      "progress line for every 0.1 s of audio received and written.\n"
	      "\n"
	      "Modes:\n"
	      "      --to=DIR          pull into DIR; without --from, from a built-in\n"
	      "                        loopback server over a generated album\n"
	      "      --from=HOST:PORT  the fake-music server to pull from\n"
	      "      --serve=DIR       serve DIR to any number of clients\n"
	      "      --play            read PATHs (files or folders) at the bitrate\n"
	      "      --generate=DIR    write the generated album into DIR\n"
	      "\n"
	      "Options:\n"
	      "      --bwlimit=RATE    bandwidth limit (pull: default the bitrate;\n"
	      "                        serve: default none); 0 = no limit\n"
	      "      --bitrate=RATE    audio bitrate (default 320kbit): a line per\n"
	      "                        bitrate/80 bytes\n"
	      "      --listen=ADDR:PORT  server address (default 127.0.0.1:0, any port)\n"
	      "      --port-file=FILE  write the port the server listens on to FILE\n"
	      "      --retries=N       reconnect at most N times in a row (default 5)\n"
	      "      --fdatasync       fdatasync the file before each progress line\n"
	      "      --loop            start over when the folder is done\n"
	      "      --max-clients=N   serve at most N clients at once (default 64)\n"
	      "      --idle-timeout=TIME  drop a peer that sends or takes nothing for\n"
	      "                        TIME (default 30s; 0 = never)\n"
	      "      --sig-memory=SIZE  signatures all clients may hold (default 64M;\n"
	      "                        a quarter of it each)\n"
	      "      --songs=N         songs in the generated album (default 10-14)\n"
	      "      --song-size=SIZE  size of each song (default 3-8 MiB)\n"
	      "      --duration=TIME   stop after TIME\n"
	      "      --seed=N          seed of the generated album (default 137)\n"
	      "  -o, --output=FILE     write the summary to FILE (default stderr)\n"
	      "      --format=FMT      summary as text or json\n"
	      "  -q, --quiet           no progress lines, no server banner\n"
	      "  -v, --verbose         report reconnects and connections\n"
	      "  -h, --help            display this help and exit\n"
	      "  -V, --version         output version information and exit\n"
	      "\n"
	      "Rates: kbit/Mbit are decimal bits per second (320kbit = 40000 bytes/s),\n"
	      "KB/s and MB/s binary bytes per second; a bare --bwlimit number is KiB/s\n"
	      "(as rsync's), a bare --bitrate number kbit/s.  Sizes: 64k = 65536.\n",
	      stdout);
	/* clang-format on */
	exit(EXIT_OK);
}

static void set_mode(struct options *o, enum mode m, const char *dir)
{
	if (o->mode != MODE_NONE && o->mode != m)
		usage_error("--to, --serve, --play and --generate exclude each "
			    "other");
	o->mode = m;
	if (dir)
		o->dir = dir;
}

static void parse_prog_option(struct options *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_SERVE:
		set_mode(o, MODE_SERVE, arg);
		break;
	case OPT_TO:
		set_mode(o, MODE_PULL, arg);
		break;
	case OPT_PLAY:
		set_mode(o, MODE_PLAY, NULL);
		break;
	case OPT_GENERATE:
		set_mode(o, MODE_GENERATE, arg);
		break;
	case OPT_LISTEN:
		o->listen = arg;
		break;
	case OPT_PORT_FILE:
		o->port_file = arg;
		break;
	case OPT_FROM:
		o->from = arg;
		if (split_host_port(arg, o->host, sizeof(o->host), o->port,
				    sizeof(o->port)))
			usage_error("invalid address '%s' for --from "
				    "(expected HOST:PORT)",
				    arg);
		break;
	case OPT_BWLIMIT:
		o->bwlimit = opt_rate("--bwlimit", arg, 1024);
		o->has_bwlimit = true;
		break;
	case OPT_BITRATE:
		o->bitrate = opt_rate("--bitrate", arg, 125);
		if (o->bitrate < 10)
			usage_error("--bitrate must be at least 80bit");
		break;
	case OPT_SONGS:
		o->album.songs = (unsigned)opt_u64("--songs", arg, 1, 10000);
		break;
	case OPT_SONG_SIZE:
		o->album.song_size = opt_size("--song-size", arg, 1);
		if (!o->album.song_size)
			usage_error("--song-size must be greater than zero");
		break;
	case OPT_RETRIES:
		o->retries = (unsigned)opt_u64("--retries", arg, 0, 1000000);
		break;
	case OPT_FDATASYNC:
		o->fdatasync = true;
		break;
	case OPT_LOOP:
		o->loop = true;
		break;
	case OPT_MAX_CLIENTS:
		o->max_clients =
			(unsigned)opt_u64("--max-clients", arg, 1, 100000);
		o->server_limits = true;
		break;
	case OPT_IDLE_TIMEOUT:
		o->idle_ns = opt_duration("--idle-timeout", arg);
		o->server_limits = true;
		break;
	case OPT_SIG_MEMORY:
		o->sig_memory = opt_size("--sig-memory", arg, 1);
		if (o->sig_memory < 64 * 1024)
			usage_error("--sig-memory must be at least 64k");
		o->server_limits = true;
		break;
	default:
		usage_error(NULL);
	}
}

/* A name that does not resolve is a bad command line, found up front. */
static void check_host(const char *host)
{
	struct addrinfo hints = { 0 }, *ai;
	int r;

	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo(host, NULL, &hints, &ai);
	if (r)
		usage_error("cannot resolve '%s' for --from: %s", host,
			    gai_strerror(r));
	freeaddrinfo(ai);
}

static void parse_options(struct options *o, int argc, char **argv)
{
	int opt;

	memset(o, 0, sizeof(*o));
	opt_common_init(&o->common);
	o->bitrate = 40000;
	o->retries = 5;
	o->listen = "127.0.0.1:0";
	o->max_clients = SERVER_MAX_CLIENTS;
	o->idle_ns = SERVER_IDLE_NS;
	o->sig_memory = SERVER_SIG_MEMORY;
	while ((opt = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1)
		if (!opt_common_handle(&o->common, opt, optarg, usage))
			parse_prog_option(o, opt, optarg);
	o->album.seed = o->common.seed;
	o->paths = argv + optind;
	o->npaths = argc - optind;
	o->format = opt_format(o->common.format, FORMAT_TEXT, false);
	if (o->mode == MODE_NONE)
		usage_error(
			"one of --to, --serve, --play or --generate is needed");
	if (o->mode == MODE_PLAY && !o->npaths)
		usage_error("--play needs at least one PATH");
	if (o->mode != MODE_PLAY && o->npaths)
		usage_error("unexpected argument '%s'", o->paths[0]);
	if (o->from && o->mode != MODE_PULL)
		usage_error("--from needs --to");
	if (o->server_limits && o->mode != MODE_SERVE)
		usage_error("--max-clients, --idle-timeout and --sig-memory "
			    "need --serve");
	if (o->from)
		check_host(o->host);
	if (!o->has_bwlimit && o->mode != MODE_SERVE)
		o->bwlimit = o->bitrate;
}

/* What every mode reports. */
struct summary {
	const char *mode;
	bool interrupted;
	uint64_t wire_in, wire_out, written, read;
	uint64_t files, deltas, uptodate, reconnects;
	uint64_t conns, refused, dropped; /* serve */
	uint64_t lines, unit, max_gap_ns, elapsed_ns, rate_req;
	bool quiet;    /* failed before anything happened */
	char err[512]; /* why the run failed, printed last */
};

static double rate_of(const struct summary *s)
{
	uint64_t bytes = s->read ? s->read : s->wire_in;

	if (!strcmp(s->mode, "serve"))
		bytes = s->wire_out;
	return s->elapsed_ns ? (double)bytes * 1e9 / (double)s->elapsed_ns : 0;
}

static void report_json(FILE *f, const struct summary *s,
			const struct run_info *ri)
{
	struct json j;

	json_init(&j, f, true);
	json_object_begin(&j, NULL);
	json_run_header(&j, ri);
	json_str(&j, "mode", s->mode);
	json_bool(&j, "interrupted", s->interrupted);
	json_u64(&j, "bytes_wire", s->wire_in + s->wire_out);
	json_u64(&j, "bytes_wire_in", s->wire_in);
	json_u64(&j, "bytes_wire_out", s->wire_out);
	json_u64(&j, "bytes_written", s->written);
	json_u64(&j, "bytes_read", s->read);
	json_u64(&j, "files", s->files);
	json_u64(&j, "deltas", s->deltas);
	json_u64(&j, "files_up_to_date", s->uptodate);
	json_u64(&j, "reconnects", s->reconnects);
	json_u64(&j, "connections", s->conns);
	json_u64(&j, "connections_refused", s->refused);
	json_u64(&j, "connections_dropped", s->dropped);
	json_double(&j, "rate_bytes_s", rate_of(s));
	json_u64(&j, "rate_requested_bytes_s", s->rate_req);
	json_u64(&j, "lines", s->lines);
	json_u64(&j, "bytes_per_line", s->unit);
	json_ns_as_s(&j, "max_gap_s", s->max_gap_ns);
	json_ns_as_s(&j, "elapsed_s", s->elapsed_ns);
	json_object_end(&j);
	json_finish(&j);
}

static void report_text(FILE *f, const struct summary *s)
{
	const char *p = progname();
	char el[32], gap[32];

	el[fmt_ns_fixed(el, s->elapsed_ns, 3)] = '\0';
	gap[fmt_ns_fixed(gap, s->max_gap_ns, 4)] = '\0';
	fprintf(f,
		"%s: %s %s after %s s: %llu files (%llu deltas, %llu up to "
		"date), %llu reconnects\n",
		p, s->mode,
		s->interrupted ? "interrupted"
		: s->err[0]    ? "failed"
			       : "done",
		el, (unsigned long long)s->files, (unsigned long long)s->deltas,
		(unsigned long long)s->uptodate,
		(unsigned long long)s->reconnects);
	fprintf(f,
		"%s: wire %llu bytes in, %llu out; written %llu, read %llu "
		"bytes\n",
		p, (unsigned long long)s->wire_in,
		(unsigned long long)s->wire_out, (unsigned long long)s->written,
		(unsigned long long)s->read);
	if (s->rate_req)
		fprintf(f, "%s: rate %.0f bytes/s (requested %llu, %.2f%%)\n",
			p, rate_of(s), (unsigned long long)s->rate_req,
			100.0 * rate_of(s) / (double)s->rate_req);
	else
		fprintf(f, "%s: rate %.0f bytes/s (no limit)\n", p, rate_of(s));
	if (!strcmp(s->mode, "serve")) {
		fprintf(f,
			"%s: %llu connections served, %llu refused (busy), "
			"%llu dropped\n",
			p, (unsigned long long)s->conns,
			(unsigned long long)s->refused,
			(unsigned long long)s->dropped);
		return;
	}
	fprintf(f, "%s: %llu lines of %llu bytes, longest gap %s s\n", p,
		(unsigned long long)s->lines, (unsigned long long)s->unit, gap);
}

/* Summary to -o FILE or stderr; false when it could not be written. */
static bool report(const struct options *o, struct summary *s,
		   struct run_info *ri)
{
	struct atomic_file af;
	FILE *f = stderr;
	int r;

	s->interrupted = sig_stop != 0;
	ri->end_real_ns = real_ns();
	if (o->common.output) {
		r = atomic_open(&af, o->common.output);
		if (r) {
			warn_err(-r, "cannot create '%s'", o->common.output);
			return false;
		}
		f = af.f;
	}
	if (o->format == FORMAT_JSON)
		report_json(f, s, ri);
	else
		report_text(f, s);
	if (o->common.output) {
		r = atomic_commit(&af);
		if (r) {
			warn_err(-r, "cannot write '%s'", o->common.output);
			atomic_abort(&af);
			return false;
		}
	}
	return true;
}

static void fill_meter(struct summary *s, const struct meter *m,
		       uint64_t end_ns)
{
	s->lines = m->lines;
	s->unit = m->unit;
	s->max_gap_ns = m->max_gap_ns;
	/* The time since the last line is a gap too: a stall at the end. */
	if (end_ns > m->last_ns && end_ns - m->last_ns > s->max_gap_ns)
		s->max_gap_ns = end_ns - m->last_ns;
}

static void start_server(const struct options *o, struct server *srv,
			 const struct source *src)
{
	const char *what;
	int r;

	memset(srv, 0, sizeof(*srv));
	srv->src = src;
	srv->rate = o->mode == MODE_SERVE ? o->bwlimit : 0;
	srv->max_clients = o->max_clients;
	srv->idle_ns =
		o->mode == MODE_SERVE ? o->idle_ns : SERVER_LOOPBACK_IDLE_NS;
	srv->sig_memory = o->sig_memory;
	srv->verbose = o->common.verbose;
	r = server_listen(srv, o->listen, &what);
	if (r == -EINVAL)
		usage_error("invalid address '%s' for --listen", o->listen);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot %s '%s'", what, o->listen);
	if (o->port_file && (r = net_write_port_file(o->port_file, srv->addr)))
		die_err(EXIT_RUN_FAILED, -r, "cannot write '%s'", o->port_file);
}

static int run_generate(const struct options *o)
{
	char err[512];
	const char *what;
	int fd = dest_open(o->dir, err, sizeof(err)), r;

	if (fd < 0)
		die(EXIT_RUN_FAILED, "%s", err);
	r = album_write(&o->album, fd, &what);
	(void)close(fd); /* a directory */
	if (r == -EINTR)
		return EXIT_SIGNAL(sig_stop);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot %s in '%s'", what, o->dir);
	return EXIT_OK;
}

/* -o FILE must be creatable before any work, not found wanting after. */
static void check_output(const struct options *o)
{
	struct atomic_file af;
	int r;

	if (!o->common.output || !strcmp(o->common.output, "-"))
		return;
	r = atomic_open(&af, o->common.output);
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot create '%s'",
			o->common.output);
	atomic_abort(&af);
}

static int run_serve(const struct options *o, struct summary *s)
{
	struct server srv;
	struct source src;
	uint64_t t0 = mono_ns();
	int r = source_init_dir(&src, o->dir);

	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot serve '%s'", o->dir);
	start_server(o, &srv, &src);
	if (o->common.has_duration)
		srv.deadline_ns = t0 + o->common.duration_ns;
	if (!o->common.quiet)
		inform("serving '%s' on %s", o->dir, srv.addr);
	r = server_run(&srv);
	source_release(&src);
	s->mode = "serve";
	s->wire_out = atomic_load(&srv.bytes_out);
	s->files = atomic_load(&srv.n_files);
	s->deltas = atomic_load(&srv.n_deltas);
	s->conns = atomic_load(&srv.n_conns);
	s->refused = atomic_load(&srv.n_refused);
	s->dropped = atomic_load(&srv.n_dropped);
	s->rate_req = o->bwlimit;
	s->elapsed_ns = mono_ns() - t0;
	if (r)
		warn_err(-r, "server stopped");
	return r ? EXIT_RUN_FAILED : EXIT_OK;
}

static int run_pull(const struct options *o, struct summary *s)
{
	struct client cl = { 0 };
	struct server srv;
	struct source src;
	pthread_t tid;
	char host[256], port[16];
	int r;

	cl.dest_fd = dest_open(o->dir, s->err, sizeof(s->err));
	if (cl.dest_fd < 0) {
		s->mode = "pull";
		s->quiet = true;
		return EXIT_RUN_FAILED;
	}
	cl.host = o->host;
	cl.port = o->port;
	if (!o->from) {
		/* Our own loopback server over the generated album. */
		source_init_album(&src, &o->album);
		start_server(o, &srv, &src);
		/* Where it listens, as bound (port 0 resolved). */
		if (split_host_port(srv.addr, host, sizeof(host), port,
				    sizeof(port)))
			die(EXIT_RUN_FAILED, "bad server address '%s'",
			    srv.addr);
		cl.host = host;
		cl.port = port;
		r = pthread_create(&tid, NULL, server_thread, &srv);
		if (r)
			die_err(EXIT_RUN_FAILED, r, "cannot start the server");
	}
	cl.dest = o->dir;
	cl.rate = o->bwlimit;
	cl.retries = o->retries;
	cl.loop = o->loop;
	cl.fdatasync = o->fdatasync;
	cl.verbose = o->common.verbose;
	meter_init(&cl.meter, o->common.quiet ? -1 : STDOUT_FILENO,
		   o->bitrate / 10);
	if (o->common.has_duration)
		cl.deadline_ns = cl.meter.start_ns + o->common.duration_ns;
	r = client_run(&cl);
	if (!o->from) {
		atomic_store(&srv.stop, true);
		pthread_join(tid, NULL);
	}
	s->mode = "pull";
	s->wire_in = cl.wire_in;
	s->wire_out = cl.wire_out;
	s->written = cl.meter.bytes;
	s->files = cl.files;
	s->deltas = cl.deltas;
	s->uptodate = cl.uptodate;
	s->reconnects = cl.reconnects;
	s->rate_req = cl.rate;
	s->elapsed_ns = cl.end_ns - cl.pace_start_ns;
	fill_meter(s, &cl.meter, cl.end_ns);
	if (r == -1) {
		/* Nothing moved: the error alone says it all. */
		s->quiet = !cl.wire_in;
		snprintf(s->err, sizeof(s->err), "%s", cl.err);
	}
	return r == -1 ? EXIT_RUN_FAILED : EXIT_OK;
}

static int run_play(const struct options *o, struct summary *s)
{
	struct player p = { 0 };
	int r;

	p.rate = o->bwlimit;
	p.loop = o->loop;
	meter_init(&p.meter, o->common.quiet ? -1 : STDOUT_FILENO,
		   o->bitrate / 10);
	if (o->common.has_duration)
		p.deadline_ns = p.meter.start_ns + o->common.duration_ns;
	r = player_run(&p, o->paths, o->npaths);
	s->mode = "play";
	s->read = p.meter.bytes;
	s->files = p.files;
	s->rate_req = p.rate;
	s->elapsed_ns = p.end_ns - p.start_ns;
	fill_meter(s, &p.meter, p.end_ns);
	if (r == -1) {
		s->quiet = !p.meter.bytes;
		snprintf(s->err, sizeof(s->err), "%s", p.err);
	}
	return r == -1 ? EXIT_RUN_FAILED : EXIT_OK;
}

int main(int argc, char **argv)
{
	struct summary s = { 0 };
	struct run_info ri;
	struct options o;
	int status, r;

	prog_init(argc, argv);
	delta_init();
	parse_options(&o, argc, argv);
	run_info_init(&ri, "fake-music", argc, argv);
	ri.has_seed = true;
	ri.seed = o.common.seed;
	r = sig_stop_install();
	if (r)
		die_err(EXIT_RUN_FAILED, -r, "cannot install signal handlers");
	if (o.mode == MODE_GENERATE)
		return run_generate(&o);
	check_output(&o);
	if (o.mode == MODE_SERVE)
		status = run_serve(&o, &s);
	else if (o.mode == MODE_PLAY)
		status = run_play(&o, &s);
	else
		status = run_pull(&o, &s);
	if (!s.quiet && !report(&o, &s, &ri) && status == EXIT_OK)
		status = EXIT_RUN_FAILED;
	if (s.err[0])
		inform("%s", s.err);
	return sig_stop ? EXIT_SIGNAL(sig_stop) : status;
}
