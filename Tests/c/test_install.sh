#!/bin/sh
# `make install` into a temporary prefix, then build a small C program against the installed copy through
# pkg-config and run it; check bin/fathom and that the installed library needs no Swift runtime.
# Usage: sh test_install.sh   (MAKE may name the make program; the prefix is removed afterwards)
set -u

REPO=$(cd "$(dirname "$0")/../.." && pwd)
MAKE=${MAKE:-make}
CC=${CC:-cc}
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
finish() {
    echo "test_install: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fathom-install-test.XXXXXX") || { echo "FAIL: mktemp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
prefix="$tmp/prefix"

# DESTDIR is cleared so that only PREFIX decides where files go.
if $MAKE -C "$REPO" install PREFIX="$prefix" DESTDIR= >"$tmp/install.log" 2>&1; then
    ok "make install PREFIX=$prefix"
else
    bad "make install PREFIX=$prefix"
    tail -n 30 "$tmp/install.log"
    finish
fi

for f in lib/libfathom.so include/fathom.h lib/pkgconfig/fathom.pc; do
    if [ -f "$prefix/$f" ]; then ok "installed $f"; else bad "installed $f"; fi
done
if [ -x "$prefix/bin/fathom" ]; then ok "installed bin/fathom (executable)"; else bad "installed bin/fathom (executable)"; fi
if cmp -s "$REPO/include/fathom.h" "$prefix/include/fathom.h"; then ok "installed header = include/fathom.h"
else bad "installed header = include/fathom.h"; fi

# The installed library and executable must run without the Swift toolchain: no Swift runtime libraries.
if ldd "$prefix/lib/libfathom.so" >"$tmp/ldd.txt" 2>&1; then ok "ldd libfathom.so"; else bad "ldd libfathom.so"; cat "$tmp/ldd.txt"; fi
if grep -q 'libswiftCore' "$tmp/ldd.txt"; then bad "libfathom.so needs libswiftCore"; grep libswift "$tmp/ldd.txt"
else ok "libfathom.so does not need libswiftCore"; fi
if grep -q 'not found' "$tmp/ldd.txt"; then bad "libfathom.so has unresolved dependencies"; grep 'not found' "$tmp/ldd.txt"
else ok "libfathom.so dependencies all resolved"; fi
if [ -x "$prefix/bin/fathom" ]; then
    if ldd "$prefix/bin/fathom" 2>&1 | grep -q 'libswiftCore'; then bad "bin/fathom needs libswiftCore"
    else ok "bin/fathom does not need libswiftCore"; fi
fi

# pkg-config of the installed fathom.pc.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
version=$(sed -n 's/^#define FATHOM_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$REPO/include/fathom.h" | paste -sd. -)
if flags=$(pkg-config --cflags --libs fathom 2>"$tmp/pc.err"); then ok "pkg-config --cflags --libs fathom: $flags"
else bad "pkg-config --cflags --libs fathom"; cat "$tmp/pc.err"; finish; fi
if [ "$(pkg-config --modversion fathom)" = "$version" ]; then ok "pkg-config version $version"
else bad "pkg-config version $(pkg-config --modversion fathom), expected $version"; fi
case "$flags" in
    *"-I$prefix/include"*) ok "Cflags point into the prefix" ;;
    *) bad "Cflags point into the prefix ($flags)" ;;
esac

# A small program: prints the version, checks it against the header, computes a box's corners.
cat >"$tmp/app.c" <<'APP'
#include <fathom.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    fathom_vec3 center = {0.0f, 1.0f, 0.0f}, scale = {2.0f, 2.0f, 4.0f};
    fathom_vec3 c[8];
    fathom_box box;
    char expected[32];
    int i;
    printf("fathom %s\n", fathom_version());
    snprintf(expected, sizeof expected, "%d.%d.%d", FATHOM_VERSION_MAJOR, FATHOM_VERSION_MINOR, FATHOM_VERSION_PATCH);
    if (strcmp(fathom_version(), expected) != 0 || fathom_version_number() != FATHOM_VERSION_NUMBER) {
        printf("version mismatch: library %s, header %s\n", fathom_version(), expected);
        return 1;
    }
    if (fathom_box_init(center, scale, 0.0f, &box) != FATHOM_OK || fathom_box_corners(&box, c) != FATHOM_OK) {
        printf("error: %s\n", fathom_last_error());
        return 1;
    }
    for (i = 0; i < 8; i++) printf("corner %d: %g %g %g\n", i, (double)c[i].x, (double)c[i].y, (double)c[i].z);
    /* top_left_front = (-1, 2, -2), bot_right_back = (1, 0, 2) */
    if (c[0].x != -1.0f || c[0].y != 2.0f || c[0].z != -2.0f || c[6].x != 1.0f || c[6].y != 0.0f || c[6].z != 2.0f) {
        printf("wrong corners\n");
        return 1;
    }
    return 0;
}
APP
# shellcheck disable=SC2086  # the flags are meant to split
if $CC -std=c99 -Wall -Wextra -Werror "$tmp/app.c" -o "$tmp/app" $flags >"$tmp/cc.log" 2>&1; then
    ok "cc app.c \$(pkg-config --cflags --libs fathom)"
else
    bad "cc app.c \$(pkg-config --cflags --libs fathom)"
    cat "$tmp/cc.log"
    finish
fi
# It must find the installed library by itself (rpath from fathom.pc), not the build tree's.
if (cd "$tmp" && env -u LD_LIBRARY_PATH ./app >"$tmp/app.out" 2>&1); then ok "app runs"; else bad "app runs"; fi
cat "$tmp/app.out"
if grep -qx "fathom $version" "$tmp/app.out"; then ok "app prints fathom $version"; else bad "app prints fathom $version"; fi
if env -u LD_LIBRARY_PATH ldd "$tmp/app" | grep 'libfathom.so' | grep -q "$prefix/lib/libfathom.so"; then
    ok "app uses the installed libfathom.so"
else
    bad "app uses the installed libfathom.so"; ldd "$tmp/app" | grep libfathom
fi

finish
