#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-local.sh OUTDIR: a real LAVA job on this machine, run by LAVA itself
# (Debian's lava-dispatcher: lava-run, no server).  The device is LAVA's
# qemu device type, rendered from lava-server's template (Debian's
# lava-server package, downloaded and unpacked, never installed), with
# no_kvm where /dev/kvm is not usable (TCG); the job deploys the kernel,
# initrd and root file system that latency-vm builds with the suite's
# .deb installed (latency-vm --build-image=package --print-paths), boots
# them, and runs the packaged test definition lava/latency-tests.yaml,
# which reports every figure of the run as a test case.  Into OUTDIR (new
# or empty): images (latency-vm's paths), appliance (the kernel of
# libguestfs's appliance), device.yaml, job.yaml, testdef.tar.gz,
# lava.log (lava-run's log: one YAML mapping a line), lava/ (its output
# directory), results.yaml, the "results" entries LAVA logged for the
# job, as it logged them, and result/result.json, the run's result.json,
# which run-suite.sh sends over the console (checked against its sha256
# and size, and tied to a nonce of this job; when it is missing or does
# not check out, a warning and no result/), for latency-compare on the
# host:
#   latency-compare lab=OUTDIR/result/result.json local=DIR
# and result/report.html, the run's page, sent and checked the same way.
# Exits 0 only when LAVA's results hold the suite's test cases with their
# measurements; 1 when the job or the cases failed, 2 usage error, 3
# unsupported here (not root).
# lava-dispatcher is installed with apt-get when missing (said on
# stderr), without its recommendations: they would install a kernel on
# the host (lava-dispatcher needs libguestfs, whose supermin recommends
# linux-image-amd64), which changes what the host boots; an install that
# would bring a kernel package anyway is refused.  LAVA builds its test
# overlay disk with libguestfs, whose supermin boots an appliance with a
# kernel: lava-run gets the kernel latency-vm unpacks into its cache,
# never installed (latency-vm --build-image=kernel --print-paths), in
# SUPERMIN_KERNEL, SUPERMIN_KERNEL_VERSION and SUPERMIN_MODULES, with
# LIBGUESTFS_BACKEND=direct and the appliance cached per kernel release
# in LIBGUESTFS_CACHEDIR.  No service is left running.
#
# Environment (defaults in brackets):
#   LATENCY_LAVA_ARGS     latency-run-test's options in the guest
#                         [--quick --commits=20000]
#   LATENCY_LAVA_LABEL    the run's label [empty: the guest's uname -r]
#   LATENCY_LAVA_MEMORY   the guest's memory, MiB [1024]
#   LATENCY_LAVA_TIMEOUT  the job's time limit, minutes [90]
#   LATENCY_LAVA_PROMPT   the guest's shell prompt, a regular expression
#                         [root@latency-tests:]
#   LATENCY_LAVA_IMAGES   a file of kernel=, initrd=, rootfs= and
#                         cmdline= lines to deploy instead of asking
#                         latency-vm [none]
#   SUPERMIN_KERNEL, SUPERMIN_MODULES, SUPERMIN_KERNEL_VERSION
#                         the kernel (bzImage), its module tree and its
#                         release for libguestfs's appliance [latency-vm
#                         --build-image=kernel's: Debian's
#                         linux-image-amd64, unpacked in the cache]
#   LATENCY_VM            the latency-vm program [vm/latency-vm of this
#                         tree, else latency-vm in PATH]
#   LATENCY_VM_DEB        the .deb latency-vm installs in the image
#                         [latency-vm's default: built from this checkout]
#   LATENCY_CACHE_DIR     where lava-server's device types, latency-vm's
#                         images and kernels, and libguestfs's appliance
#                         are kept [${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog=${0##*/}

: "${LATENCY_LAVA_ARGS:=--quick --commits=20000}"
: "${LATENCY_LAVA_LABEL:=}"
: "${LATENCY_LAVA_MEMORY:=1024}"
: "${LATENCY_LAVA_TIMEOUT:=90}"
: "${LATENCY_LAVA_PROMPT:=root@latency-tests:}"
: "${LATENCY_LAVA_IMAGES:=}"
: "${LATENCY_VM_DEB:=}"
: "${LATENCY_CACHE_DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/latency-tests}"
: "${SUPERMIN_KERNEL:=}"
: "${SUPERMIN_MODULES:=}"
: "${SUPERMIN_KERNEL_VERSION:=}"
# latency-vm keeps its images and kernels in the same cache.
export LATENCY_CACHE_DIR

# What lava-run needs for a qemu job, without recommendations.
dispatcher_packages='lava-dispatcher qemu-system-x86'

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

usage_error() {
	printf '%s: %s\nUsage: %s OUTDIR\n' "$prog" "$*" "$prog" >&2
	exit 2
}

unsupported() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 3
}

say() {
	printf '%s: %s\n' "$prog" "$*" >&2
}

# number NAME VALUE: VALUE must be a positive whole number.
number() {
	case $2 in
	'' | *[!0-9]* | 0*) usage_error "$1 must be a positive number, not '$2'" ;;
	esac
}

# install_dispatcher: lava-dispatcher from Debian when lava-run is
# missing, without recommendations, and never with a kernel package: one
# installed on the host changes what it boots.  Its package enables
# lava-worker, a service this job does not use: one the install started
# is stopped again.
install_dispatcher() {
	command -v lava-run >/dev/null 2>&1 && return 0
	say "lava-run is missing: installing Debian's $dispatcher_packages with apt-get --no-install-recommends"
	# shellcheck disable=SC2086 # a list of package names
	_plan=$(apt-get install -s -q --no-install-recommends \
		$dispatcher_packages 2>&1) || die "apt-get cannot install $dispatcher_packages: $_plan"
	_kernels=$(printf '%s\n' "$_plan" | sed -n 's/^Inst \(linux-image-[^ ]*\).*/\1/p' | tr '\n' ' ')
	[ -z "$_kernels" ] ||
		die "installing $dispatcher_packages would install ${_kernels}on this host, changing what it boots: refused"
	_was_active=no
	if command -v systemctl >/dev/null 2>&1 &&
		systemctl is-active --quiet lava-worker 2>/dev/null; then
		_was_active=yes
	fi
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $dispatcher_packages >&2 ||
		die "apt-get install $dispatcher_packages failed"
	if [ "$_was_active" = no ] && command -v systemctl >/dev/null 2>&1 &&
		systemctl is-active --quiet lava-worker 2>/dev/null; then
		say "stopping lava-worker, which the install started"
		systemctl stop lava-worker || die "cannot stop lava-worker"
	fi
	command -v lava-run >/dev/null 2>&1 ||
		die "lava-dispatcher is installed but lava-run is not in PATH"
}

# device_types: a directory with lava-server's base.jinja2 and
# qemu.jinja2 of the dispatcher's version, unpacked from Debian's
# lava-server package once (the server itself is not installed).
device_types() {
	_v=$(dpkg-query -W -f='${Version}' lava-dispatcher 2>/dev/null) ||
		die "cannot tell lava-dispatcher's version (dpkg-query)"
	_d=$LATENCY_CACHE_DIR/lava-server-$_v/device-types
	if ! [ -f "$_d/qemu.jinja2" ] || ! [ -f "$_d/base.jinja2" ]; then
		say "unpacking the qemu device type of lava-server $_v (apt-get download)"
		_t=$(mktemp -d "${TMPDIR:-/tmp}/lava-server.XXXXXX") ||
			die "cannot make a temporary directory"
		# apt-get downloads as its own user where that user may write.
		if id _apt >/dev/null 2>&1; then
			chown _apt "$_t" || die "cannot give '$_t' to _apt"
		fi
		# apt-get download writes into the current directory.
		if ! (cd "$_t" && apt-get download -q "lava-server=$_v" >&2 &&
			dpkg-deb -x lava-server_*.deb root); then
			rm -rf "$_t"
			die "cannot download and unpack lava-server $_v"
		fi
		if ! {
			mkdir -p "$_d" &&
				cp "$_t/root/usr/share/lava-server/device-types/base.jinja2" \
					"$_t/root/usr/share/lava-server/device-types/qemu.jinja2" \
					"$_d/"
		}; then
			rm -rf "$_t"
			die "lava-server $_v has no qemu device type"
		fi
		rm -rf "$_t"
	fi
	echo "$_d"
}

# render_device DIR NO_KVM: the device dictionary of one qemu device,
# rendered from the templates in DIR as lava-server would.
render_device() {
	python3 - "$1" "$2" "$LATENCY_LAVA_MEMORY" <<'EOF'
import sys
import jinja2

env = jinja2.Environment(loader=jinja2.FileSystemLoader(sys.argv[1]),
                         trim_blocks=True, autoescape=False)
device = ("{% extends 'qemu.jinja2' %}\n"
          "{% set arch = 'amd64' %}\n"
          "{% set no_kvm = " + sys.argv[2] + " %}\n"
          "{% set memory = " + sys.argv[3] + " %}\n")
print(env.from_string(device).render())
EOF
}

# latency_vm: the latency-vm program, in vm_prog.
latency_vm() {
	vm_prog=${LATENCY_VM:-}
	[ -z "$vm_prog" ] || return 0
	if [ -x "$top/vm/latency-vm" ]; then
		vm_prog=$top/vm/latency-vm
	else
		vm_prog=$(command -v latency-vm) ||
			unsupported "latency-vm is not built here (vm/latency-vm) nor in PATH: it builds the guest image and fetches the appliance's kernel (set LATENCY_VM, or LATENCY_LAVA_IMAGES and SUPERMIN_KERNEL)"
	fi
}

# images FILE: latency-vm's package image (or LATENCY_LAVA_IMAGES) as
# kernel=, initrd=, rootfs=, cmdline= lines in FILE.
images() {
	_to=$1
	if [ -n "$LATENCY_LAVA_IMAGES" ]; then
		cp "$LATENCY_LAVA_IMAGES" "$_to" || die "cannot read $LATENCY_LAVA_IMAGES"
		return 0
	fi
	latency_vm
	set -- "$vm_prog" --build-image=package --print-paths
	[ -z "$LATENCY_VM_DEB" ] || set -- "$@" --deb="$LATENCY_VM_DEB"
	say "building the guest image: $*"
	"$@" >"$_to.tmp" || die "latency-vm could not build the image"
	mv "$_to.tmp" "$_to"
}

# appliance FILE: the kernel libguestfs boots its appliance with, as
# kernel=, release= and modules= lines in FILE: SUPERMIN_KERNEL's, or
# the one latency-vm unpacks into its cache (never installed).
appliance() {
	_to=$1
	if [ -n "$SUPERMIN_KERNEL" ]; then
		[ -f "$SUPERMIN_KERNEL" ] || die "SUPERMIN_KERNEL '$SUPERMIN_KERNEL' does not exist"
		[ -d "$SUPERMIN_MODULES" ] ||
			die "SUPERMIN_KERNEL needs SUPERMIN_MODULES, its module tree (lib/modules/RELEASE)"
		_rel=$SUPERMIN_KERNEL_VERSION
		[ -n "$_rel" ] || _rel=${SUPERMIN_MODULES%/}
		printf 'kernel=%s\nrelease=%s\nmodules=%s\n' "$SUPERMIN_KERNEL" \
			"${_rel##*/}" "$SUPERMIN_MODULES" >"$_to" ||
			die "cannot write $_to"
		return 0
	fi
	latency_vm
	say "fetching the kernel of libguestfs's appliance: $vm_prog --build-image=kernel --print-paths"
	"$vm_prog" --build-image=kernel --print-paths >"$_to.tmp" ||
		die "latency-vm could not fetch the appliance's kernel"
	mv "$_to.tmp" "$_to"
}

# appliance_env: the environment lava-run's libguestfs gets, from
# OUTDIR/appliance, as NAME=VALUE arguments of env(1) in appliance_args.
appliance_env() {
	_k=$(sed -n 's/^kernel=//p' "$out/appliance" | sed -n 1p)
	_r=$(sed -n 's/^release=//p' "$out/appliance" | sed -n 1p)
	_m=$(sed -n 's/^modules=//p' "$out/appliance" | sed -n 1p)
	[ -f "$_k" ] || die "$out/appliance names no kernel image"
	[ -d "$_m" ] ||
		die "the appliance's kernel '$_k' has no module tree: libguestfs needs its modules"
	case $_r in
	'' | */* | .*) die "$out/appliance names no kernel release" ;;
	esac
	_c=$LATENCY_CACHE_DIR/guestfs/$_r
	mkdir -p "$_c" || die "cannot create '$_c'"
	appliance_args="SUPERMIN_KERNEL=$_k SUPERMIN_KERNEL_VERSION=$_r SUPERMIN_MODULES=$_m LIBGUESTFS_BACKEND=direct LIBGUESTFS_CACHEDIR=$_c"
	case $appliance_args in
	*[!A-Za-z0-9._/=+,:\ -]*) die "the appliance's paths have characters this script does not pass on: $appliance_args" ;;
	esac
}

# image_path FILE KEY: the value of KEY= in FILE, an existing file whose
# name a YAML single-quoted string holds as it is.
image_path() {
	_p=$(sed -n "s/^$2=//p" "$1" | sed -n 1p)
	[ -n "$_p" ] || die "$1 has no $2= line"
	[ -f "$_p" ] || die "$2 image '$_p' does not exist"
	case $_p in
	/*) ;;
	*) _p=$(cd "$(dirname "$_p")" && pwd)/${_p##*/} ;;
	esac
	case $_p in
	*[!A-Za-z0-9._/+-]*) die "$2 image path '$_p' has characters a job file cannot hold" ;;
	esac
	echo "$_p"
}

# yaml_string S: S as a YAML double-quoted string.
yaml_string() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

write_job() {
	_kernel=$(image_path "$out/images" kernel)
	_initrd=$(image_path "$out/images" initrd)
	_rootfs=$(image_path "$out/images" rootfs)
	_cmdline=$(sed -n 's/^cmdline=//p' "$out/images" | sed -n 1p)
	case $_cmdline in
	*[!A-Za-z0-9._/=,:\ -]*) die "the kernel command line '$_cmdline' has characters a job file cannot hold" ;;
	esac
	_test_minutes=$((LATENCY_LAVA_TIMEOUT - 15))
	[ "$_test_minutes" -gt 0 ] || usage_error "LATENCY_LAVA_TIMEOUT must be more than 15 minutes"
	cat >"$out/job.yaml" <<EOF
# A LAVA job written by lava/run-local.sh: boot the kernel under test in
# QEMU with the latency-tests image and run the packaged test definition.
job_name: latency-tests local
device_type: qemu
visibility: public
priority: medium
context:
  arch: amd64
timeouts:
  job: {minutes: $LATENCY_LAVA_TIMEOUT}
  action: {minutes: $_test_minutes}
  connection: {minutes: 5}
actions:
- deploy:
    to: tmpfs
    timeout: {minutes: 10}
    images:
      kernel:
        url: file://$_kernel
        image_arg: -kernel {kernel} -append "$_cmdline"
      initrd:
        url: file://$_initrd
        image_arg: -initrd {initrd}
      rootfs:
        url: file://$_rootfs
        image_arg: -drive format=raw,file={rootfs},if=virtio
- boot:
    method: qemu
    media: tmpfs
    timeout: {minutes: 10}
    prompts:
    - $(yaml_string "$LATENCY_LAVA_PROMPT")
- test:
    timeout: {minutes: $_test_minutes}
    definitions:
    - from: url
      repository: file://$out/testdef.tar.gz
      path: latency-tests.yaml
      name: latency-tests
      parameters:
        ARGS: $(yaml_string "$LATENCY_LAVA_ARGS")
        LABEL: $(yaml_string "$LATENCY_LAVA_LABEL")
        NONCE: "$nonce"
EOF
}

# run_job: lava-run in the background, so that a signal reaches this
# script at once and is passed on (lava-run then stops QEMU and cleans).
run_job() {
	appliance_env
	say "$appliance_args lava-run --device $out/device.yaml --job-id $$ --output-dir $out/lava $out/job.yaml (log: $out/lava.log)"
	# shellcheck disable=SC2086 # NAME=VALUE words without blanks (checked)
	env $appliance_args lava-run --device "$out/device.yaml" --job-id "$$" \
		--output-dir "$out/lava" "$out/job.yaml" >"$out/lava.log" 2>&1 &
	lava_pid=$!
	trap 'kill -TERM "$lava_pid" 2>/dev/null; wait "$lava_pid"; exit 143' TERM
	trap 'kill -TERM "$lava_pid" 2>/dev/null; wait "$lava_pid"; exit 130' INT
	_status=0
	wait "$lava_pid" || _status=$?
	trap - INT TERM
	return "$_status"
}

# fetch_result: the run's result.json, which run-suite.sh sends over the
# console (gzip'ed, base64'ed, between "LATENCY-TESTS-RESULT-BEGIN NONCE
# SHA256 BYTES" and "LATENCY-TESTS-RESULT-END NONCE", NONCE this job's),
# from the console lines of LAVA's log into OUTDIR/result/result.json,
# once its size and sha256 are checked.  Console lines are untrusted: in
# a block only lines of base64 characters count (others, such as kernel
# messages on the serial console, or markers of another job's nonce, are
# skipped; one that broke a line of the block shows as a wrong size or
# sha256), at most 16 MiB decoded.  The kernel under test writes the
# console too and can read the job's nonce: a second BEGIN of this job
# inside the block, or a second complete block, is refused, never chosen
# between.  Without one good block: a warning, no OUTDIR/result; the
# job's status is not changed.
fetch_result() {
	python3 - "$out/lava.log" "$out" "$nonce" <<'EOF'
import base64
import binascii
import hashlib
import os
import re
import sys
import zlib

import yaml

log, out, nonce = sys.argv[1], sys.argv[2], sys.argv[3]
LIMIT = 16 << 20
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
begin = re.compile(r"LATENCY-TESTS-RESULT-BEGIN %s ([0-9a-f]{64}) ([0-9]{1,9})\Z"
                   % re.escape(nonce))
end = "LATENCY-TESTS-RESULT-END " + nonce
text = re.compile(r"[A-Za-z0-9+/=]+\Z")


def warn(cause):
    print("run-local.sh: warning: no %s/result/result.json: %s" % (out, cause),
          file=sys.stderr)
    sys.exit(1)


block = None  # the block being read: sha256, bytes, its lines
found = None  # the complete block
chars = 0
with open(log, encoding="utf-8", errors="replace") as f:
    for raw in f:
        if not raw.startswith("{"):
            continue
        try:
            entry = yaml.load(raw, Loader=loader)
        except yaml.YAMLError:
            continue
        if not isinstance(entry, dict) or entry.get("lvl") != "target":
            continue
        line = entry.get("msg")
        if not isinstance(line, str):
            continue
        line = line.strip()
        m = begin.match(line)
        if m and block is not None:
            warn("a second LATENCY-TESTS-RESULT-BEGIN of this job inside "
                 "its block in %s" % log)
        elif m and found is not None:
            warn("more than one LATENCY-TESTS-RESULT block of this job in %s"
                 % log)
        elif m:
            block, chars = (m.group(1), int(m.group(2)), []), 0
        elif block is None:
            continue
        elif line == end:
            found, block = block, None
        elif text.match(line):
            block[2].append(line)
            chars += len(line)
            if chars > 2 * LIMIT:
                warn("the block in %s is larger than %d bytes" % (log, LIMIT))
if found is None:
    warn("%s in %s" % ("the LATENCY-TESTS-RESULT block has no end"
                       if block is not None else
                       "no LATENCY-TESTS-RESULT block of this job", log))
sha, size, lines = found
if size > LIMIT:
    warn("the block in %s says %d bytes, more than %d" % (log, size, LIMIT))
try:
    z = zlib.decompressobj(wbits=31)
    data = z.decompress(base64.b64decode("".join(lines), validate=True),
                        LIMIT + 1)
    complete = z.eof and not z.unconsumed_tail and not z.unused_data
except (binascii.Error, ValueError, zlib.error) as e:
    warn("the block in %s does not decode: %s" % (log, e))
if not complete:
    warn("the block in %s does not decode to one whole file" % log)
if len(data) != size:
    warn("the block in %s decodes to %d bytes, not %d" % (log, len(data), size))
if hashlib.sha256(data).hexdigest() != sha:
    warn("the block in %s does not have its sha256 %s" % (log, sha))
d = os.path.join(out, "result")
tmp = os.path.join(d, ".result.json.tmp")
try:
    os.mkdir(d)
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, os.path.join(d, "result.json"))
except OSError as e:
    for p in (tmp, d):
        try:
            os.unlink(p) if p == tmp else os.rmdir(p)
        except OSError:
            pass
    warn("cannot write it: %s" % e)
print("run-local.sh: the run's result: %s/result.json (%d bytes)" % (d, size),
      file=sys.stderr)
EOF
}

# fetch_report: the run's page, report.html, which run-suite.sh sends
# after result.json as a block of its own (between
# "LATENCY-TESTS-REPORT-BEGIN ..." and "LATENCY-TESTS-REPORT-END...",
# encoded and checked as the result's), into OUTDIR/result/report.html:
# fetch_result reads a copy of LAVA's log in which only that block is
# left, its markers named as the result's.  A job without the block (a
# suite that sends none) says nothing; a bad one is warned of; neither
# changes the job's status.
fetch_report() {
	[ -n "$(sed -n '/LATENCY-TESTS-REPORT-BEGIN/{p;q;}' "$out/lava.log")" ] ||
		return 0
	_rout=$out _rtmp=$out/.report
	rm -rf "$_rtmp" && mkdir "$_rtmp" || return 1
	sed -e '/LATENCY-TESTS-RESULT-/d' \
		-e 's/LATENCY-TESTS-REPORT-/LATENCY-TESTS-RESULT-/g' \
		"$out/lava.log" >"$_rtmp/lava.log" || return 1
	out=$_rtmp
	_st=0
	fetch_result 2>"$_rtmp/err" || _st=$?
	out=$_rout
	if [ "$_st" = 0 ] && mkdir -p "$out/result" &&
		mv "$_rtmp/result/result.json" "$out/result/report.html"; then
		say "the run's page: $out/result/report.html"
	else
		say "warning: no $out/result/report.html: $(sed -n \
			's/^run-local\.sh: warning: no [^:]*: //p' "$_rtmp/err")"
	fi
	rm -rf "$_rtmp"
}

# check_results: results.yaml from LAVA's log, then whether it holds the
# suite's cases with their measurements (a table of them on stdout).
check_results() {
	sed -n 's/^\({"dt": "[^"]*", "lvl": "results", .*\)$/- \1/p' \
		"$out/lava.log" >"$out/results.yaml.tmp" ||
		die "cannot write $out/results.yaml"
	mv "$out/results.yaml.tmp" "$out/results.yaml" ||
		die "cannot write $out/results.yaml"
	python3 - "$out/results.yaml" <<'EOF'
import sys
import yaml

entries = yaml.safe_load(open(sys.argv[1])) or []
cases = [e["msg"] for e in entries
         if not e["msg"].get("definition", "lava").startswith("lava")
         and e["msg"].get("definition", "").endswith("_latency-tests")]
job = [e["msg"] for e in entries if e["msg"].get("case") == "job"]
for c in cases:
    print("%-40s %-7s %s %s" % (c["case"], c["result"],
                                c.get("measurement", ""), c.get("units", "")))
names = {c["case"]: c for c in cases}
problems = []
if not job or job[-1].get("result") != "pass":
    problems.append("the job did not pass")
for need in ("run-test", "complete", "elapsed_mean", "fake-gitk.p99_gap"):
    if need not in names:
        problems.append("no test case " + need)
for need in ("elapsed_mean", "fake-gitk.p99_gap", "fake-gitk.max_gap"):
    if need in names and "measurement" not in names[need]:
        problems.append("test case %s has no measurement" % need)
for c in cases:
    if c["case"] in ("run-test", "complete") and c["result"] != "pass":
        problems.append("test case %s: %s" % (c["case"], c["result"]))
for p in problems:
    print("run-local.sh: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
}

[ $# -eq 1 ] || usage_error "one OUTDIR expected"
number LATENCY_LAVA_MEMORY "$LATENCY_LAVA_MEMORY"
number LATENCY_LAVA_TIMEOUT "$LATENCY_LAVA_TIMEOUT"
[ "$(id -u)" = 0 ] || unsupported "lava-run needs root (its work directory is /var/lib/lava)"
case $1 in
/*) out=$1 ;;
*) out=$PWD/$1 ;;
esac
case $out in
*[!A-Za-z0-9._/+-]*) usage_error "'$out' has characters a job file cannot hold" ;;
esac
mkdir -p "$out" || die "cannot create '$out'"
out=$(cd "$out" && pwd -P)
[ -z "$(ls -A "$out")" ] || usage_error "'$out' is not empty: give a new directory"

install_dispatcher
types=$(device_types)
no_kvm=True
# KVM only with the CPU's virtualization: a KVM device without it (e.g.
# kvm_pvm) boots only kernels built as its guests, and Debian's hangs.
if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
	grep -qw -e vmx -e svm "${LATENCY_VM_CPUINFO:-/proc/cpuinfo}"; then
	no_kvm=False
fi
render_device "$types" "$no_kvm" >"$out/device.yaml" ||
	die "cannot render the qemu device type"
images "$out/images"
appliance "$out/appliance"
tar -czf "$out/testdef.tar.gz" -C "$here" latency-tests.yaml ||
	die "cannot pack the test definition"
# The job's nonce: the result block of this job carries it.
nonce=$(python3 -c 'import secrets; print(secrets.token_hex(16))') ||
	die "cannot make the job's nonce"
write_job
job_status=0
run_job || job_status=$?
[ "$job_status" -eq 0 ] || say "lava-run exited $job_status (see $out/lava.log)"
fetch_result || :
fetch_report || :
check_results || die "LAVA did not record the suite's test cases with their measurements (see $out/lava.log)"
say "LAVA's results: $out/results.yaml"
exit "$job_status"
