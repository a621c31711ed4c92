# SPDX-License-Identifier: GPL-2.0-or-later
# result.sh: sourced by run-test.sh.  Writes summary.txt and result.json
# (contract 3 and 4) from what the programs left in the result directory:
# their JSON outputs are copied, never computed on; the mean and standard
# deviation come from latency-summarize (cmd_summarize).
#
# Uses from the caller: run_dir, cfg_*, version, command_line, runs_done,
# cmd_summarize.

# json_number FILE KEY: the first number given for "KEY" in a JSON file
# written by one of our programs (copied as text, never computed on).
json_number() {
	grep -o "\"$2\": *-\{0,1\}[0-9][0-9.eE+-]*" "$1" | sed -n '1s/.*: *//p'
}

# JSON string literal of $1 (labels and paths: escape \ and ").
json_string() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

# field_or_null FILE KEY
field_or_null() {
	_v=
	[ -f "$1" ] && _v=$(json_number "$1" "$2")
	printf '%s' "${_v:-null}"
}

collect_elapsed() {
	elapsed=
	_i=1
	while [ $_i -le "${runs_done:-0}" ]; do
		_e=$(json_number "$run_dir/fake-gitk-$_i.json" elapsed_s)
		[ -n "$_e" ] || die "no elapsed_s in fake-gitk-$_i.json"
		elapsed="$elapsed $_e"
		_i=$((_i + 1))
	done
}

write_result_json() { # PARTIAL_BOOL
	_oom=$(field_or_null "$run_dir/kmsg.json" oom_kills)
	_out=$(field_or_null "$run_dir/vmstat.json" pswpout_delta)
	_in=$(field_or_null "$run_dir/vmstat.json" pswpin_delta)
	{
		printf '{\n  "format_version": 1,\n  "program": "run-test.sh",\n'
		printf '  "version": %s,\n' "$(json_string "$version")"
		printf '  "command_line": %s,\n' "$(json_string "$command_line")"
		printf '  "label": %s,\n' "$(json_string "$cfg_run_label")"
		printf '  "kernel": %s,\n' "$(json_string "$(uname -r)")"
		printf '  "seed": %s,\n' "$cfg_seed"
		printf '  "partial": %s,\n' "$1"
		printf '  "gitk_runs": ['
		_sep=
		for _e in $elapsed; do
			printf '%s{"elapsed_s": %s}' "$_sep" "$_e"
			_sep=', '
		done
		printf '],\n'
		printf '  "elapsed_mean_s": %s,\n' "${mean_s:-null}"
		printf '  "elapsed_stddev_s": %s,\n' "${stddev_s:-null}"
		printf '  "failures": %s,\n' "${failures_json:-null}"
		printf '  "oom_kills": %s,\n' "$_oom"
		printf '  "pswpout_delta": %s,\n' "$_out"
		printf '  "pswpin_delta": %s,\n' "$_in"
		printf '  "mem_limit": %s,\n' "$(json_string "$cfg_mem_limit")"
		printf '  "swap": %s,\n' "$(json_string "$cfg_swap")"
		printf '  "latency": {'
		_sep=
		for _r in "$run_dir"/*.report.json; do
			[ -s "$_r" ] || continue
			_name=${_r##*/}
			printf '%s\n    %s: ' "$_sep" "$(json_string "${_name%.report.json}")"
			cat "$_r"
			_sep=,
		done
		printf '\n  },\n  "monitors": {'
		_sep=
		for _m in vmstat kmsg trace; do
			[ -s "$run_dir/$_m.json" ] || continue
			printf '%s\n    "%s": ' "$_sep" "$_m"
			cat "$run_dir/$_m.json"
			_sep=,
		done
		printf '\n  }'
		if [ -s "$run_dir/seqbench.json" ]; then
			printf ',\n  "seqbench": '
			cat "$run_dir/seqbench.json"
		fi
		printf '\n}\n'
	} >"$run_dir/result.json.tmp"
	mv "$run_dir/result.json.tmp" "$run_dir/result.json"
}

write_summary() { # STATE (complete, or why it is partial)
	{
		if [ -n "$elapsed" ]; then
			# shellcheck disable=SC2086 # the list of elapsed times
			cmd_summarize text $elapsed
		else
			echo "$cfg_run_label partial: no fake-gitk run completed"
		fi
		[ "$1" = complete ] || echo "PARTIAL: $1"
		echo
		echo "runs: ${runs_done:-0} of $cfg_gitk_runs counted fake-gitk runs (warmup $cfg_warmup)"
		_i=1
		for _e in $elapsed; do
			echo "  fake-gitk-$_i elapsed_s=$_e"
			_i=$((_i + 1))
		done
		if [ "$(field_or_null "$run_dir/vmstat.json" cg_swap_bytes_max)" != null ]; then
			echo "workloads' cgroup: cg_swap_bytes_max=$(field_or_null "$run_dir/vmstat.json" cg_swap_bytes_max) bytes swapped at most, cg_pgmajfault_delta=$(field_or_null "$run_dir/vmstat.json" cg_pgmajfault_delta) major faults"
		fi
		echo "swapped: pswpout_delta=$(field_or_null "$run_dir/vmstat.json" pswpout_delta) pswpin_delta=$(field_or_null "$run_dir/vmstat.json" pswpin_delta) pages (page size $(getconf PAGESIZE) bytes)"
		if [ "$failures_json" = null ]; then
			echo "failures: unknown (no kernel log: the headline's Failures:0 is not a count), OOM kills unknown"
		else
			echo "failures: $failures_json page allocation failures, $(field_or_null "$run_dir/kmsg.json" oom_kills) OOM kills"
		fi
		echo "reclaim: direct_reclaim_total_s=$(field_or_null "$run_dir/trace.json" direct_reclaim_total_s) direct_reclaim_max_s=$(field_or_null "$run_dir/trace.json" direct_reclaim_max_s) memcg_reclaim_total_s=$(field_or_null "$run_dir/trace.json" memcg_reclaim_total_s)"
		echo "stalls (gaps over $cfg_stall):"
		for _r in "$run_dir"/*.report.json; do
			[ -s "$_r" ] || continue
			_name=${_r##*/}
			echo "  ${_name%.report.json} stall_count=$(field_or_null "$_r" stall_count) stall_time_s=$(field_or_null "$_r" stall_time_s) p99_s=$(field_or_null "$_r" p99_s) max_s=$(field_or_null "$_r" max_s)"
		done
		echo "confinement: mem-limit=$cfg_mem_limit swap=$cfg_swap"
		[ ! -f "$run_dir/notes" ] || sed 's/^/note: /' "$run_dir/notes"
	} >"$run_dir/summary.txt.tmp"
	mv "$run_dir/summary.txt.tmp" "$run_dir/summary.txt"
}

# finish STATE: write summary.txt and result.json from what exists.
finish() {
	collect_elapsed
	failures_json=$(field_or_null "$run_dir/kmsg.json" failures)
	failures=$failures_json
	[ "$failures" != null ] || failures=0
	mean_s='' stddev_s=''
	if [ -n "$elapsed" ]; then
		# shellcheck disable=SC2086 # the list of elapsed times
		cmd_summarize csv $elapsed >"$run_dir/elapsed.csv"
		IFS=, read -r _runs mean_s stddev_s <<EOF
$(sed -n 2p "$run_dir/elapsed.csv")
EOF
	fi
	if [ "$1" = complete ]; then
		write_result_json false
	else
		write_result_json true
	fi
	write_summary "$1"
}

# tidy: an empty diagnostics file says nothing; remove it.
tidy() {
	for _f in "$run_dir"/*.err "$run_dir/kmsg.out" "$run_dir/plot.log"; do
		if [ -f "$_f" ] && ! [ -s "$_f" ]; then
			rm -f "$_f"
		fi
	done
}
