#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
test_description='unbuffered: exit status, stderr, stdin, terminal set-up'
. "$abs_top_srcdir/tests/t/test-lib.sh"

(exec 3<>/dev/ptmx) 2>/dev/null ||
	test_skip_all 'no pseudo-terminals here (/dev/ptmx)'

command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID
command -v stty >/dev/null 2>&1 && test_set_prereq STTY
unshare -m true 2>/dev/null && test_set_prereq UNSHARE

test_expect_success 'exit status 0, 1 and 42 pass through' '
	test_expect_code 0 unbuffered true &&
	test_expect_code 1 unbuffered false &&
	test_expect_code 42 unbuffered sh -c "exit 42"
'

test_expect_success 'a child killed by SIGSEGV gives 139, by SIGKILL 137' '
	test_expect_code 139 unbuffered sh -c "kill -SEGV \$\$" &&
	test_expect_code 137 unbuffered sh -c "kill -KILL \$\$"
'

test_expect_success 'a missing command gives 127, a non-executable 126' '
	test_expect_code 127 unbuffered no-such-command-here 2>err &&
	grep "^unbuffered: cannot run .no-such-command-here.: No such file" err &&
	printf "x\n" >plain &&
	test_expect_code 126 unbuffered ./plain 2>err &&
	grep "^unbuffered: cannot run .\./plain.: Permission denied" err
'

test_expect_success 'the child sees a terminal on stdout only' '
	unbuffered sh -c "test -t 1 && echo out-tty; test -t 2 || echo err-file >&2; test -t 0 || echo in-file" <plain >out 2>err &&
	printf "out-tty\nin-file\n" >expect-out &&
	printf "err-file\n" >expect-err &&
	test_cmp expect-out out &&
	test_cmp expect-err err
'

test_expect_success 'stderr stays separate, and unchanged' '
	unbuffered sh -c "echo out1; echo err1 >&2; echo out2; printf \"e\\n\\r\" >&2" >out 2>err &&
	printf "out1\nout2\n" >expect-out &&
	printf "err1\ne\n\r" >expect-err &&
	test_cmp expect-out out &&
	cmp expect-err err
'

test_expect_success '--merge puts stderr on the terminal, in order' '
	unbuffered --merge sh -c "echo out1; echo err1 >&2; test -t 2 && echo err-tty" >out 2>err &&
	printf "out1\nerr1\nerr-tty\n" >expect &&
	test_cmp expect out &&
	! test -s err
'

test_expect_success 'stdin passes through to the child unchanged' '
	printf "one\ntwo\r\nthree" >in &&
	unbuffered cat <in >out &&
	cmp in out
'

test_expect_success 'a closed stdin reads as /dev/null' '
	unbuffered sh -c "cat; echo rc=\$?" <&- >out &&
	echo rc=0 >expect &&
	test_cmp expect out
'

test_expect_success SETSID 'works without a controlling terminal' '
	setsid -w unbuffered sh -c "exec 3</dev/tty && echo has-ctty; test -t 1 && echo out-tty" </dev/null >out 2>err &&
	printf "has-ctty\nout-tty\n" >expect &&
	test_cmp expect out &&
	! test -s err
'

test_expect_success SETSID 'no terminal and stdin closed, status still exact' '
	test_expect_code 139 setsid -w unbuffered sh -c "echo x; kill -SEGV \$\$" <&- >out &&
	echo x >expect &&
	test_cmp expect out
'

test_expect_success STTY 'window size: 80x24 by default, --size sets it' '
	unbuffered stty -F /dev/tty size >out &&
	unbuffered --size=132x50 stty -F /dev/tty size >>out &&
	printf "24 80\n50 132\n" >expect &&
	test_cmp expect out
'

test_expect_success STTY 'on a terminal, the child gets the same window size' '
	unbuffered --size=100x30 unbuffered stty -F /dev/tty size >out &&
	echo "30 100" >expect &&
	test_cmp expect out
'

test_expect_success 'bad --size values and a missing command are usage errors' '
	test_expect_code 2 unbuffered --size=0x24 true 2>err &&
	grep "^unbuffered: invalid value .0x24. for --size" err &&
	test_expect_code 2 unbuffered --size=80 true &&
	test_expect_code 2 unbuffered --size=80x65536 true &&
	test_expect_code 2 unbuffered --size=x24 true &&
	test_expect_code 2 unbuffered 2>err &&
	grep "^unbuffered: no command given" err &&
	grep "^Try .unbuffered --help." err
'

test_expect_success 'options after the command belong to the command' '
	unbuffered echo --stamp -s >out &&
	echo "--stamp -s" >expect &&
	test_cmp expect out
'

test_expect_success ROOT,UNSHARE 'no pseudo-terminal to be had exits 3' '
	test_expect_code 3 unshare -m sh -c \
		"mount --bind /dev/null /dev/ptmx && exec unbuffered true" 2>err &&
	grep "^unbuffered: cannot open a pseudo-terminal: " err
'

test_expect_success 'an output error exits 1 with a message' '
	test_expect_code 1 unbuffered echo hi >/dev/full 2>err &&
	grep "^unbuffered: write error: No space left on device" err &&
	test_expect_code 1 unbuffered echo hi >&- 2>err &&
	grep "^unbuffered: write error: Bad file descriptor" err
'

test_done
