#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Test bodies are single-quoted and eval'd by test-lib.sh; variables it
# sets and uses are invisible here.
# shellcheck disable=SC1091,SC1094,SC2016,SC2034,SC2154
test_description='fake-music: links planted in the destination, shared directories, -o checked first'
. "$abs_top_srcdir/tests/t/test-lib.sh"
. "$abs_top_srcdir/tests/t/fake-music-lib.sh"

# Another user's files: root makes them, then gives them away (chown -h
# gives a link itself), as if that user had planted them.
nobody=65534

# pull_fails SRC DST LINE: a pull of SRC (served for it) into DST exits 1
# with LINE as its last line on stderr.
pull_fails() {
	start_server "$1" "$1.srv" || return 1
	test_expect_code 1 fake-music --from "127.0.0.1:$(cat "$1.srv.port")" \
		--to "$2" --bwlimit 0 -q 2>err
	_r=$?
	stop_server "$1.srv"
	test "$_r" = 0 &&
	echo "$3" >expect &&
	tail -n 1 err >last &&
	test_cmp expect last
}

test_expect_success 'setup: the album and a private directory' '
	fake-music --generate album --songs 1 --song-size 64k &&
	mkdir -m 700 private &&
	mkdir -m 1777 shared
'

test_expect_success ROOT 'a planted .fm-part link is replaced, never written through' '
	mkdir shared/album &&
	ln -s "$PWD/private/new" shared/album/.track-01.mp3.fm-part &&
	chown -h $nobody:$nobody shared/album/.track-01.mp3.fm-part \
		shared/album &&
	fake-music --to shared/album --songs 1 --song-size 64k --bwlimit 0 \
		-q 2>err &&
	! test -e private/new &&
	same_files album shared/album track-01.mp3 &&
	ls -a shared/album >list &&
	printf "%s\n" . .. track-01.mp3 >expect &&
	test_cmp expect list
'

test_expect_success ROOT '--generate replaces a planted link too' '
	mkdir shared/gen &&
	ln -s "$PWD/private/gen" shared/gen/.track-01.mp3.fm-part &&
	chown -h $nobody:$nobody shared/gen/.track-01.mp3.fm-part shared/gen &&
	fake-music --generate shared/gen --songs 1 --song-size 64k &&
	! test -e private/gen &&
	same_files album shared/gen track-01.mp3
'

test_expect_success ROOT,JQ 'a planted .fm-part link is not read as the basis of a delta' '
	mkdir shared/leak &&
	cp album/track-01.mp3 private/secret &&
	ln -s "$PWD/private/secret" shared/leak/.track-01.mp3.fm-part &&
	chown -h $nobody:$nobody shared/leak/.track-01.mp3.fm-part \
		shared/leak &&
	fake-music --to shared/leak --songs 1 --song-size 64k --bwlimit 0 \
		-q --format json -o leak.json &&
	test "$(json_get leak.json .deltas)" = 0 &&
	test "$(json_get leak.json .bytes_wire_in)" -gt 65536 &&
	same_files album shared/leak track-01.mp3 &&
	! test -e shared/leak/.track-01.mp3.fm-basis &&
	test -f private/secret
'

test_expect_success 'a link in place of a subdirectory is not followed' '
	mkdir src src/disc2 elsewhere &&
	cp album/track-01.mp3 src/disc2/bonus.mp3 &&
	mkdir dst &&
	ln -s ../elsewhere dst/disc2 &&
	pull_fails src dst "fake-music: cannot create directories for ${SQ}dst/disc2/bonus.mp3${SQ}: Too many levels of symbolic links" &&
	ls -a elsewhere >list &&
	printf "%s\n" . .. >expect &&
	test_cmp expect list
'

test_expect_success 'a name with a control character is printed as one line' '
	nl="$(printf "x\ny.mp3")" &&
	mkdir src3 dst3 "dst3/$nl" &&
	cp album/track-01.mp3 "src3/$nl" &&
	pull_fails src3 dst3 "fake-music: cannot rename ${SQ}dst3/.x?y.mp3.fm-part${SQ}: Is a directory"
'

for mode in 777 775; do
	case $mode in
	777) who=others ;;
	775) who="its group" ;;
	esac
	test_expect_success ROOT "another user's directory, mode $mode, is refused" '
		mkdir -m $mode ww$mode &&
		chmod $mode ww$mode &&
		chown $nobody ww$mode &&
		echo "fake-music: refusing to write into ${SQ}ww$mode${SQ}: owned by uid $nobody and writable by $who without the sticky bit" >expect &&
		test_expect_code 1 fake-music --to ww$mode --songs 1 \
			--song-size 64k --bwlimit 0 -q 2>err &&
		test_cmp expect err &&
		test_expect_code 1 fake-music --generate ww$mode --songs 1 \
			--song-size 64k 2>err &&
		test_cmp expect err &&
		ls -a ww$mode >list &&
		printf "%s\n" . .. >expect &&
		test_cmp expect list
	'
done

test_expect_success ROOT "another user's sticky directory is fine (the sticky bit protects)" '
	mkdir -m 1777 sticky &&
	chown $nobody sticky &&
	fake-music --to sticky --songs 1 --song-size 64k --bwlimit 0 -q \
		2>err &&
	same_files album sticky track-01.mp3
'

test_expect_success ROOT 'a subdirectory that another user shares is refused' '
	mkdir src2 src2/disc2 &&
	cp album/track-01.mp3 src2/disc2/bonus.mp3 &&
	mkdir dst2 dst2/disc2 &&
	chmod 777 dst2/disc2 &&
	chown $nobody dst2/disc2 &&
	pull_fails src2 dst2 "fake-music: refusing to write into ${SQ}dst2/disc2${SQ}: owned by uid $nobody and writable by others without the sticky bit"
'

test_expect_success ROOT "another user's link as the destination, in a sticky directory, is not followed" '
	ln -s "$PWD/private" shared/dest &&
	chown -h $nobody:$nobody shared/dest &&
	test_expect_code 1 fake-music --to shared/dest --songs 1 \
		--song-size 64k --bwlimit 0 -q 2>err &&
	echo "fake-music: cannot create ${SQ}shared/dest${SQ}: Too many levels of symbolic links" >expect &&
	test_cmp expect err &&
	ls -a private >list &&
	printf "%s\n" . .. secret >expect &&
	test_cmp expect list
'

test_expect_success 'our own link as the destination is followed' '
	mkdir real &&
	ln -s real mine &&
	fake-music --to mine --songs 1 --song-size 64k --bwlimit 0 -q \
		2>err &&
	same_files album real track-01.mp3
'

test_expect_success '-o into a missing directory fails before any transfer' '
	test_expect_code 1 fake-music --to never --songs 1 --song-size 64k \
		--bwlimit 0 -q -o missing/sum.json 2>err &&
	echo "fake-music: cannot create ${SQ}missing/sum.json${SQ}: No such file or directory" >expect &&
	test_cmp expect err &&
	! test -e never &&
	test_expect_code 1 fake-music --serve album --port-file p \
		-o missing/sum.json 2>err &&
	test_cmp expect err &&
	! test -e p &&
	test_expect_code 1 fake-music --play album -o missing/sum.json \
		2>err &&
	test_cmp expect err
'

test_done
