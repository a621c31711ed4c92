// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the run was made: vm.json (latency-vm: the kernel booted, its
 * command line, the accelerator, the memory and CPUs given to QEMU and
 * QEMU's version) and device.json (latency-device-setup: the device stack
 * of the scratch and swap), each copied into result.json as "vm" and
 * "device" and named in summary.txt.  Both come with the result, so they
 * are hostile: the fields that matter must have their types, or the part
 * is left out with a note.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/json-read.h"
#include "lib/output.h"
#include "lib/xalloc.h"
#include "compare/summarize.h"

struct vm_field {
	const char *path;
	enum json_type type;
};

static const struct vm_field vm_fields[] = {
	{ "kernel.release", JSON_STRING }, { "kernel.image", JSON_STRING },
	{ "cmdline", JSON_STRING },	   { "accel", JSON_STRING },
	{ "memory_bytes", JSON_NUMBER },   { "cpus", JSON_NUMBER },
	{ "qemu_version", JSON_STRING },
};

static const struct vm_field device_fields[] = {
	{ "stack", JSON_STRING },
	{ "cipher", JSON_STRING },
	{ "lv", JSON_STRING },
	{ "fs", JSON_STRING },
};

/* Keep P's tree only when every field has its type. */
static void check_part(struct summ_run *r, struct summ_part *p,
		       const char *file, const struct vm_field *fields,
		       size_t n)
{
	size_t i;

	if (!p->root)
		return;
	for (i = 0; i < n; i++) {
		const struct json_node *v =
			json_read_path(p->root, fields[i].path);

		if (v && v->type == fields[i].type)
			continue;
		summ_note(r, "%s: %s is %s, not %s: left out", file,
			  fields[i].path,
			  v ? json_type_name(v->type) : "missing",
			  json_type_name(fields[i].type));
		json_read_free(p->root);
		p->root = NULL;
		return;
	}
}

void summ_vm_read(struct summ_run *r)
{
	r->vm.name = xstrdup("vm");
	r->vm.root = summ_load_object(r, "vm.json", false);
	check_part(r, &r->vm, "vm.json", vm_fields,
		   sizeof(vm_fields) / sizeof(vm_fields[0]));
	r->device.name = xstrdup("device");
	r->device.root = summ_load_object(r, "device.json", false);
	check_part(r, &r->device, "device.json", device_fields,
		   sizeof(device_fields) / sizeof(device_fields[0]));
}

void summ_vm_json(struct json *j, const struct summ_run *r)
{
	/* Cannot fail: summ_load_object() refused trees nested too deep. */
	if (r->vm.root)
		(void)json_copy(j, "vm", r->vm.root);
	if (r->device.root)
		(void)json_copy(j, "device", r->device.root);
}

/* " NAME=VALUE" (" VALUE" without NAME) for a string or number member,
 * escaped. */
static void put_member(FILE *f, const struct json_node *root, const char *name,
		       const char *path)
{
	const struct json_node *v = json_read_path(root, path);
	char *e;

	if (!v || (v->type != JSON_STRING && v->type != JSON_NUMBER))
		return;
	e = text_escape(v->str);
	if (name)
		fprintf(f, " %s=%s", name, e);
	else
		fprintf(f, " %s", e);
	free(e);
}

/*
 * "vm host: ..." where latency-vm measured the host while the guest ran:
 * the guest cannot see work beside QEMU, which slows it all the same.
 */
static void host_text(FILE *f, const struct json_node *root)
{
	const struct json_node *h = json_read_path(root, "host");

	if (!h || h->type != JSON_OBJECT)
		return;
	fputs("vm host:", f);
	put_member(f, root, "others_cpus", "host.others_cpus");
	put_member(f, root, "cpus", "host.cpus");
	put_member(f, root, "wall_s", "host.wall_s");
	put_member(f, root, "qemu_cpu_s", "host.qemu_cpu_s");
	put_member(f, root, "others_cpu_s", "host.others_cpu_s");
	put_member(f, root, "kthreads_cpu_s", "host.kthreads_cpu_s");
	fputc('\n', f);
}

void summ_vm_text(FILE *f, const struct summ_run *r)
{
	if (r->vm.root) {
		fputs("vm:", f);
		put_member(f, r->vm.root, "kernel", "kernel.release");
		put_member(f, r->vm.root, "package", "kernel.package");
		put_member(f, r->vm.root, "version", "kernel.package_version");
		put_member(f, r->vm.root, "accel", "accel");
		put_member(f, r->vm.root, "memory_bytes", "memory_bytes");
		put_member(f, r->vm.root, "cpus", "cpus");
		put_member(f, r->vm.root, "qemu", "qemu_version");
		fputc('\n', f);
		fputs("vm cmdline:", f);
		put_member(f, r->vm.root, NULL, "cmdline");
		fputc('\n', f);
		host_text(f, r->vm.root);
	}
	if (r->device.root) {
		fputs("device:", f);
		put_member(f, r->device.root, "stack", "stack");
		put_member(f, r->device.root, "cipher", "cipher");
		put_member(f, r->device.root, "lv", "lv");
		put_member(f, r->device.root, "fs", "fs");
		fputc('\n', f);
	}
}
