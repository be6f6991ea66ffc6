#!/bin/sh
# Compiles the README's C example (its ```c block) with -Wall -Wextra -Werror against include/ and the
# built library, runs it, and checks what it prints.
# usage: check_c_example.sh README LIB_DIR INCLUDE_DIR
set -eu
readme=$1; lib_dir=$2; include_dir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk '/^```c$/{on=1; next} /^```$/{on=0} on' "$readme" > "$tmp/example.c"
[ -s "$tmp/example.c" ] || { echo "FAIL: README has no C example"; echo "0 passed, 1 failed"; exit 1; }
cc -std=c99 -Wall -Wextra -Werror -I"$include_dir" "$tmp/example.c" -L"$lib_dir" -lfathom -Wl,-rpath,"$lib_dir" -o "$tmp/example"
out=$("$tmp/example")
echo "$out"
case "$out" in
  *"FATHOM_ERR_OUT_OF_RANGE: fathom_box_shrink_side:"*"1 of 2 points inside"*) echo "1 passed, 0 failed" ;;
  *) echo "FAIL: unexpected output"; echo "0 passed, 1 failed"; exit 1 ;;
esac
