# SPDX-License-Identifier: GPL-2.0-or-later
# lib-run-test.sh: sourced by the run-test.sh tests after test-lib.sh.  A
# full run needs every program the driver starts; skip the whole script,
# saying which are missing, when they are not built.

run_test_missing=
for p in latency-output unbuffered fake-gitk fake-music latency-vmstat \
	latency-kmsg latency-trace latency-plan latency-summarize; do
	command -v "$p" >/dev/null 2>&1 || run_test_missing="$run_test_missing $p"
done
[ -z "$run_test_missing" ] ||
	test_skip_all "programs not built:$run_test_missing"


# The synthetic repositories of the tests stay in their trash directory.
LATENCY_CACHE_DIR=$TRASH_DIRECTORY/cache
export LATENCY_CACHE_DIR
