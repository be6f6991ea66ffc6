#!/bin/sh
# Compiles each of the README's C examples (```c blocks) with -Wall -Wextra -Werror against include/ and
# the built library, runs it, and checks what it prints.
# usage: check_c_example.sh README LIB_DIR INCLUDE_DIR
set -eu
readme=$1; lib_dir=$2; include_dir=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk -v dir="$tmp" '/^```c$/{n++; on=1; next} /^```$/{on=0} on{print > (dir "/example" n ".c")}' "$readme"
passed=0; failed=0
check() {  # check N PATTERN: example N compiles, runs with status 0, and prints PATTERN
  n=$1; pattern=$2
  if [ ! -f "$tmp/example$n.c" ]; then echo "FAIL: README has no C example $n"; failed=$((failed + 1)); return; fi
  if cc -std=c99 -Wall -Wextra -Werror -I"$include_dir" "$tmp/example$n.c" -L"$lib_dir" -lfathom -lm \
       -Wl,-rpath,"$lib_dir" -o "$tmp/example$n" && out=$("$tmp/example$n"); then
    echo "$out"
    case "$out" in *$pattern*) passed=$((passed + 1)); return;; esac
  fi
  echo "FAIL: C example $n"; failed=$((failed + 1))
}
check 1 "FATHOM_ERR_OUT_OF_RANGE: fathom_box_shrink_side:*1 of 2 points inside"
# 35 degrees down from 1.5 m: the floor is 1.5 / sin(35 deg) = 2.62 m away, 2.14 m ahead of z = 1.
check 2 "hit the floor 2.62 m away at (0.00, 0.00, -1.14), class 2*batch: hit, miss*compact: 2.62 m, inf"
# The scan written by example 3 is read back: frame 10's camera is 0.10 m along x, 1 m above the floor.
here=$(pwd); cd "$tmp"
check 3 "30 frames of 256x192; frame 10 sees the floor at (0.10, 0.00, 0.00)*floor at y = 0.000, box source 0, path 0.29 m"
check 4 "4 points, colors 1, last (0, 0, 1)*2 frames, frame 1 at x = 0.50, t = 33333333 ns, fx = 1500"
cd "$here"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
