/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ringbench's private interfaces: the options main() parses, the three
 * measures of the 2008 tbench hunt (ring.c: a token passed round a ring of
 * tasks; rr.c: request/response over loopback; tbench.c: dbench's tbench),
 * the figures of one run they fill in, and the report writers (report.c).
 * Workers never print or exit: they record an error and raise the stop flag.
 */
#ifndef RINGBENCH_RINGBENCH_H
#define RINGBENCH_RINGBENCH_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/hist.h"
#include "lib/output.h"
#include "lib/progress.h"

enum rb_mode {
	RB_RING,
	RB_RR,
	RB_TBENCH,
	RB_CALIBRATE,
};
#define RB_MODE_COUNT (RB_CALIBRATE + 1)

enum rb_via {
	VIA_PIPE,
	VIA_FUTEX,
	VIA_EVENTFD,
};
#define VIA_COUNT (VIA_EVENTFD + 1)

/* "ring", "rr", ...; "pipe", "futex", "eventfd"; NULL-terminated for
 * opt_choice() (report.c). */
extern const char *const rb_mode_name[RB_MODE_COUNT + 1];
extern const char *const rb_via_name[VIA_COUNT + 1];

#define RB_MAX_CPUS 1024
#define RB_MAX_MEMBERS 1024
#define RB_MAX_CLIENTS 256
#define RB_MAX_RUNS 1000
#define RB_MAX_MSG (1U << 20) /* TCP request or response */
#define RB_MAX_DGRAM 65507U   /* UDP payload over IPv4 */
#define RB_HELLO_MAX 64	      /* the TCP hello line, newline included */
#define RB_HELLO_NS (5 * 1000000000ULL) /* to say hello */
#define RB_CALIB_TRIALS 9	     /* of the busy loop; the median counts */
#define RB_UDP_WAIT_NS 1000000000ULL /* for a UDP response */

/* Everything the command line decides. */
struct rb_opts {
	enum rb_mode mode;
	/* ring */
	unsigned members;
	uint64_t work_ns;
	uint64_t sleep_ns;
	enum rb_via via;
	bool processes;
	/* rr and tbench */
	unsigned clients;
	uint64_t req_size;
	uint64_t resp_size;
	bool udp;
	const char *listen;  /* serve only, on HOST:PORT */
	const char *connect; /* clients only, to HOST:PORT */
	const char *port_file;
	unsigned max_clients;
	uint64_t idle_ns;
	/* all modes */
	uint64_t duration_ns; /* 0 with a count */
	uint64_t count;	      /* cycles or transactions per client; 0: time */
	uint64_t warmup_ns;
	unsigned runs;
	int cpus[RB_MAX_CPUS];
	unsigned n_cpus; /* 0: no pinning */
	uint64_t progress_every;
	enum out_format format;
	const char *output;
	int verbose;
};

/* The busy loop that stands for WORK, measured at start. */
struct rb_calib {
	double ns_per_loop;	/* the median trial: what WORK uses */
	double ns_per_loop_min; /* the fastest trial */
	uint64_t trial_loops;
	unsigned trials;
	uint64_t spent_ns; /* the whole calibration */
	int cpu;	   /* where it ran, -1 unknown */
	uint64_t work_loops;
};

/* The figures of one run. */
struct rb_run {
	bool complete;
	uint64_t elapsed_ns; /* of the measured part */
	/* ring */
	uint64_t cycles;
	uint64_t tokens; /* received while measuring, over all members */
	uint64_t warmup_cycles;
	/* rr */
	uint64_t transactions;
	uint64_t warmup_transactions;
	uint64_t requests;  /* sent by the clients, warmup included */
	uint64_t responses; /* received by them */
	bool has_server;
	uint64_t server_requests;
	uint64_t server_responses;
	uint64_t server_connections;
	uint64_t server_dropped;
	uint64_t server_refused; /* of server_dropped: the server was full */
	/* tbench */
	double mb_per_s;
	double tb_ops;
	double tb_avg_lat_us;
	double tb_max_lat_us;
	/* ring: wakeup latency per hop; rr: round trip */
	struct hist *hist;
};

/* Where each task ran: role ("member", "client", "server") and CPU. */
struct rb_place {
	const char *role;
	unsigned index;
	int cpu;
};

/* The first error, and the stop flag every worker polls. */
struct rb_state {
	const struct rb_opts *o;
	atomic_bool stop;
	atomic_int err;		  /* errno of the first error, 0 when none */
	char what[256];		  /* what failed */
	struct progress progress; /* each worker writes through a copy */
	struct rb_place *place;
	unsigned n_place;
};

/*
 * Record the first error of a run (ERR an errno, WHAT what failed) and
 * raise the stop flag; later errors are dropped.
 */
void rb_fail(struct rb_state *st, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Stop requested (an error, or the main thread saw a signal: only it
 * reads sig_stop, as only it runs the handler).
 */
bool rb_stopping(struct rb_state *st);
/* The CPU of the Nth task of a run under --cpus, or -1 (no pinning). */
int rb_cpu_of(const struct rb_opts *o, unsigned n);
/* Pin the calling thread to CPU (-1: leave it); 0 or -errno. */
int rb_pin(int cpu);
/* Note that ROLE INDEX runs on CPU (for the report). */
void rb_place_add(struct rb_state *st, const char *role, unsigned index,
		  int cpu);

/* ring.c */
/* Calibrate the busy loop on this CPU and size WORK_NS of it into C. */
void rb_calibrate(struct rb_calib *c, uint64_t work_ns);
/* Run LOOPS turns of the busy loop. */
void rb_spin(uint64_t loops);
/*
 * One run of the ring: fills RUN; returns 0, or -1 with the error in ST
 * (RUN then holds what was measured until then).
 */
int rb_ring_run(struct rb_state *st, const struct rb_calib *c,
		struct rb_run *run);

/* rr.c */
struct rb_server;
/*
 * Start the built-in or --listen server on ADDR (HOST:PORT, port 0 for any)
 * and write the address it got into BOUND (NET_ADDR_MAX bytes).  Returns 0 or -errno
 * (WHAT says which step failed).
 */
int rb_server_start(struct rb_state *st, struct rb_server **out,
		    const char *addr, char *bound, const char **what);
/* Its counters into RUN (server_*), then stop it and free it. */
void rb_server_stop(struct rb_server *s, struct rb_run *run);
/* Clients against ADDR: one run; 0 or -1 with the error in ST. */
int rb_rr_run(struct rb_state *st, const char *addr, struct rb_run *run);

/* tbench.c */
/*
 * Run dbench's tbench_srv and tbench once; 0, -1 with the error in ST, or
 * -ENOENT when they are not installed (WHY says what is missing).
 */
int rb_tbench_run(struct rb_state *st, struct rb_run *run, char *why,
		  size_t len);

/* report.c */
struct rb_report {
	const struct rb_opts *o;
	const struct run_info *ri;
	const struct rb_calib *calib;
	const struct rb_run *runs;
	unsigned n_runs;
	const struct rb_place *place;
	unsigned n_place;
	const char *server; /* the address rr measured against */
	bool partial;	    /* stopped by a signal or an error */
	int signo;	    /* the signal, 0 when none */
	const char *error;  /* the failure, or NULL */
	/* calibrate mode: thread CPU time of each WORK of busy loop */
	const uint64_t *work_cpu_ns;
	unsigned n_work;
};

/* Derived figures: rate per second and microseconds per cycle. */
double rb_rate(const struct rb_opts *o, const struct rb_run *r);
double rb_us_per_cycle(const struct rb_opts *o, const struct rb_run *r);
/* Write the report in R->o->format; 0 or -errno of the stream. */
int rb_report_write(FILE *f, const struct rb_report *r);

#endif
