// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/knob: the set of tunables a run may change, every
 * spelling that would reach another file refused, and the file each
 * allowed name maps to.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include "lib/knob.h"
#include "tests/tap.h"

struct knob_case {
	const char *name;
	int want;	  /* 0, or -EINVAL */
	const char *file; /* with proc "/P" and sys "/S" */
};

static const struct knob_case cases[] = {
	{ "vm.page-cluster", 0, "/P/sys/vm/page-cluster" },
	{ "vm/page-cluster", 0, "/P/sys/vm/page-cluster" },
	{ "vm.swappiness", 0, "/P/sys/vm/swappiness" },
	{ "vm.compaction_proactiveness", 0,
	  "/P/sys/vm/compaction_proactiveness" },
	{ "vm.drop_caches", -EINVAL, NULL },
	{ "vm/compact_memory", -EINVAL, NULL },
	{ "kernel.core_pattern", -EINVAL, NULL },
	{ "vm", -EINVAL, NULL },
	{ "vm.", -EINVAL, NULL },
	{ "vm..x", -EINVAL, NULL },
	{ "vm.a.b", -EINVAL, NULL },
	{ "vm/../kernel/core_pattern", -EINVAL, NULL },
	{ "vm.x\ny", -EINVAL, NULL },
	{ "vmx.y", -EINVAL, NULL },
	{ "", -EINVAL, NULL },
	{ "/sys/kernel/mm/transparent_hugepage/enabled", 0,
	  "/S/kernel/mm/transparent_hugepage/enabled" },
	{ "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled", 0,
	  "/S/kernel/mm/transparent_hugepage/hugepages-64kB/enabled" },
	{ "/sys/module/zswap/parameters/enabled", 0,
	  "/S/module/zswap/parameters/enabled" },
	{ "/sys/block/vda/queue/read_ahead_kb", 0,
	  "/S/block/vda/queue/read_ahead_kb" },
	{ "/sys/dev/block/254:0/queue/read_ahead_kb", 0,
	  "/S/dev/block/254:0/queue/read_ahead_kb" },
	{ "/sys/devices/virtual/block/loop0/queue/read_ahead_kb", 0,
	  "/S/devices/virtual/block/loop0/queue/read_ahead_kb" },
	{ "/sys/block/vda/queue/scheduler", 0, "/S/block/vda/queue/scheduler" },
	{ "/sys/block/dm-0/queue/max_sectors_kb", 0,
	  "/S/block/dm-0/queue/max_sectors_kb" },
	{ "/sys/dev/block/8:0/queue/nr_requests", 0,
	  "/S/dev/block/8:0/queue/nr_requests" },
	{ "/sys/block/vda/queue/rotational", -EINVAL, NULL },
	{ "/sys/block/vda/queue/iosched/fifo_batch", -EINVAL, NULL },
	{ "/sys/block/vda/x/queue/scheduler", -EINVAL, NULL },
	{ "/sys/block/vda/x/queue/read_ahead_kb", -EINVAL, NULL },
	{ "/sys/block//queue/read_ahead_kb", -EINVAL, NULL },
	{ "/sys/power/state", -EINVAL, NULL },
	{ "/sys/kernel/mm/../../power/state", -EINVAL, NULL },
	{ "/sys/kernel/mm/./x", -EINVAL, NULL },
	{ "/sys/kernel/mm//x", -EINVAL, NULL },
	{ "/sys/kernel/mm/", -EINVAL, NULL },
	{ "/sys/kernel/mm", -EINVAL, NULL },
	{ "/sys/kernel/mm/x y", -EINVAL, NULL },
	{ "/sys/module/zswap/parameters", -EINVAL, NULL },
	{ "/sys/module/zswapx/parameters/enabled", -EINVAL, NULL },
	{ "/proc/sys/vm/page-cluster", -EINVAL, NULL },
	{ "/etc/shadow", -EINVAL, NULL },
};

struct path_case {
	const char *path;
	bool clean;
};

static const struct path_case paths[] = {
	{ "/", true },	      { "/a", true },	  { "/a/b.c/d", true },
	{ "/a/", false },     { "a/b", false },	  { "", false },
	{ "//a", false },     { "/a//b", false }, { "/a/./b", false },
	{ "/a/../b", false }, { "/..", false },	  { "/a/..", false },
	{ "/a/...", true },   { "/a\tb", false }, { "/a/.b", true },
	{ "/a\x7f", false },
};

struct value_case {
	const char *value;
	bool ok;
};

static const struct value_case values[] = {
	{ "0", true },	     { "always", true },
	{ "lzo-rle", true }, { "256 256 32 0", true },
	{ "Y", true },	     { "", false },
	{ " 1", false },     { "1 ", false },
	{ "1  2", false },   { "|/x %p", false },
	{ "a;b", false },    { "a\nb", false },
	{ "$(x)", false },
};

int main(void)
{
	enum knob_kind kind;
	const char *why;
	char *file;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct knob_case *c = &cases[i];

		why = NULL;
		is_int(knob_check(c->name, &kind, &why), c->want, "check '%s'",
		       c->name);
		ok(c->want ? why != NULL : why == NULL, "reason for '%s'",
		   c->name);
		if (!c->want)
			is_int(kind, *c->name == '/' ? KNOB_SYSFS : KNOB_SYSCTL,
			       "kind of '%s'", c->name);
		file = knob_file(c->name, "/P", "/S");
		if (c->file)
			is_str(file, c->file, "file of '%s'", c->name);
		else
			ok(!file && errno == EINVAL, "no file for '%s'",
			   c->name);
		free(file);
	}
	is_int(knob_check("vm.x", NULL, NULL), 0, "kind and why optional");
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		is_int(path_is_clean(paths[i].path), paths[i].clean,
		       "path '%s'", paths[i].path);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		is_int(knob_value_ok(values[i].value), values[i].ok,
		       "value '%s'", values[i].value);
	return done_testing();
}
