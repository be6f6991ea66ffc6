#!/bin/sh
# `make install` into a temporary prefix, then check what it installed: the versioned library (stripped, its SONAME,
# nothing exported but fathom_*) and its two links, the header, bin/fathom, fathom.pc (a C program built through
# pkg-config) and the CMake package (Tests/cmake/consumer built through find_package; newer versions refused);
# that a second install into the same prefix builds nothing and writes nothing into the repository; and that the
# CMake package still works once the prefix is moved elsewhere.
# Usage: sh test_install.sh   (MAKE and CMAKE may name the programs; the prefix is removed afterwards)
set -u

REPO=$(cd "$(dirname "$0")/../.." && pwd)
MAKE=${MAKE:-make}
CMAKE=${CMAKE:-cmake}
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

# The version the header states and the ABI major version the Makefile gives the SONAME.
version_part() { sed -n "s/^#define FATHOM_VERSION_$1 \([0-9]*\)\$/\1/p" "$REPO/include/fathom.h"; }
major=$(version_part MAJOR)
minor=$(version_part MINOR)
version=$major.$minor.$(version_part PATCH)
abi=$(sed -n 's/^ABI_MAJOR := *\([0-9]*\)$/\1/p' "$REPO/Makefile")
lib="$prefix/lib/libfathom.so.$version"

# DESTDIR is cleared so that only PREFIX decides where files go.
if $MAKE -C "$REPO" install PREFIX="$prefix" DESTDIR= >"$tmp/install.log" 2>&1; then
    ok "make install PREFIX=$prefix"
else
    bad "make install PREFIX=$prefix"
    tail -n 30 "$tmp/install.log"
    finish
fi

# The library under its full version, and the links to it: the SONAME (what programs load) and libfathom.so
# (what -lfathom finds).
if [ -f "$lib" ] && [ ! -L "$lib" ]; then ok "installed lib/libfathom.so.$version"
else bad "installed lib/libfathom.so.$version (a file, not a link)"; finish; fi
for link in "libfathom.so.$abi" libfathom.so; do
    if [ -L "$prefix/lib/$link" ] && [ "$(readlink "$prefix/lib/$link")" = "libfathom.so.$version" ]; then
        ok "lib/$link -> libfathom.so.$version"
    else
        bad "lib/$link -> libfathom.so.$version: $(ls -l "$prefix/lib/$link" 2>&1)"
    fi
done
for f in include/fathom.h lib/pkgconfig/fathom.pc lib/cmake/fathom/fathomConfig.cmake \
         lib/cmake/fathom/fathomConfigVersion.cmake; do
    if [ -f "$prefix/$f" ]; then ok "installed $f"; else bad "installed $f"; fi
done
if [ -x "$prefix/bin/fathom" ]; then ok "installed bin/fathom (executable)"; else bad "installed bin/fathom (executable)"; fi
if cmp -s "$REPO/include/fathom.h" "$prefix/include/fathom.h"; then ok "installed header = include/fathom.h"
else bad "installed header = include/fathom.h"; fi

soname=$(readelf -d "$lib" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
if [ "$soname" = "libfathom.so.$abi" ]; then ok "SONAME libfathom.so.$abi"
else bad "SONAME '$soname', expected libfathom.so.$abi"; fi

# Stripped on install only: the build's copy keeps its symbol table for debugging.
if readelf -S -W "$lib" | grep -q ' \.symtab '; then bad "installed library has a .symtab (not stripped)"
else ok "installed library stripped (no .symtab)"; fi
if readelf -S -W "$REPO/.build/release/libfathom.so" | grep -q ' \.symtab '; then
    ok "the build's libfathom.so keeps its .symtab"
else
    bad "the build's libfathom.so was stripped"
fi

# Exports: nm prints global and weak symbols' types in upper case. Only fathom_*; and stripping kept every one of
# the build's.
nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ { print $2, $3 }' | sort >"$tmp/exports.txt"
nm -D --defined-only "$REPO/.build/release/libfathom.so" | awk '$2 ~ /^[A-Z]$/ { print $2, $3 }' | sort \
    >"$tmp/build-exports.txt"
grep -v -e ' fathom_' "$tmp/exports.txt" >"$tmp/foreign.txt"
if [ -s "$tmp/foreign.txt" ]; then
    bad "exports outside fathom_*:"; head -n 10 "$tmp/foreign.txt"
else
    ok "exports only fathom_* ($(grep -c ' fathom_' "$tmp/exports.txt") functions)"
fi
if cmp -s "$tmp/exports.txt" "$tmp/build-exports.txt"; then ok "same exports as the build's libfathom.so"
else bad "exports differ from the build's libfathom.so"; diff "$tmp/build-exports.txt" "$tmp/exports.txt" | head; fi

# The installed library and executable must run without the Swift toolchain: no Swift runtime libraries.
if ldd "$lib" >"$tmp/ldd.txt" 2>&1; then ok "ldd libfathom.so.$version"
else bad "ldd libfathom.so.$version"; cat "$tmp/ldd.txt"; fi
if grep -q 'libswiftCore' "$tmp/ldd.txt"; then bad "libfathom.so needs libswiftCore"; grep libswift "$tmp/ldd.txt"
else ok "libfathom.so does not need libswiftCore"; fi
if grep -q 'not found' "$tmp/ldd.txt"; then bad "libfathom.so has unresolved dependencies"; grep 'not found' "$tmp/ldd.txt"
else ok "libfathom.so dependencies all resolved"; fi
if [ -x "$prefix/bin/fathom" ]; then
    if ldd "$prefix/bin/fathom" 2>&1 | grep -q 'libswiftCore'; then bad "bin/fathom needs libswiftCore"
    else ok "bin/fathom does not need libswiftCore"; fi
    out=$(printf 'b = box((0,0,0),(1,2,3))\nb.volume()\n' | env -u LD_LIBRARY_PATH "$prefix/bin/fathom" 2>&1)
    if [ "$out" = "6" ]; then ok "bin/fathom runs: a 1 x 2 x 3 box's volume is 6"
    else bad "bin/fathom: '$out', expected 6"; fi
fi

# pkg-config of the installed fathom.pc.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
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
if env -u LD_LIBRARY_PATH ldd "$tmp/app" | grep -q "libfathom.so.$abi => $prefix/lib/libfathom.so.$abi "; then
    ok "app loads $prefix/lib/libfathom.so.$abi"
else
    bad "app loads $prefix/lib/libfathom.so.$abi"; env -u LD_LIBRARY_PATH ldd "$tmp/app" | grep libfathom
fi

# The CMake package: configure Tests/cmake/consumer against PREFIX (build dir NAME, version WANTED).
command -v "$CMAKE" >/dev/null 2>&1 || { bad "no $CMAKE (make deps installs cmake)"; finish; }
consumer="$REPO/Tests/cmake/consumer"
configure() {
    $CMAKE -S "$consumer" -B "$tmp/$2" -DCMAKE_PREFIX_PATH="$1" -DFATHOM_WANTED="$3" \
        -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >"$tmp/$2.log" 2>&1
}
# Builds and runs the consumer against PREFIX: it must load PREFIX's library with no LD_LIBRARY_PATH (CMake's
# build rpath to the imported target's directory).
consume() {
    if configure "$1" "$2" "$major.$minor" && $CMAKE --build "$tmp/$2" >>"$tmp/$2.log" 2>&1; then
        ok "cmake: find_package(fathom $major.$minor REQUIRED), fathom::fathom ($1)"
    else
        bad "cmake: find_package(fathom $major.$minor REQUIRED), fathom::fathom ($1)"; tail -n 30 "$tmp/$2.log"; return
    fi
    if env -u LD_LIBRARY_PATH "$tmp/$2/app" >"$tmp/$2.out" 2>&1 && grep -qx 'consumer: ok' "$tmp/$2.out"; then
        ok "consumer runs: $(head -n 1 "$tmp/$2.out")"
    else
        bad "consumer runs"; cat "$tmp/$2.out"
    fi
    if env -u LD_LIBRARY_PATH ldd "$tmp/$2/app" | grep -q "libfathom.so.$abi => $1/lib/libfathom.so.$abi "; then
        ok "consumer loads $1/lib/libfathom.so.$abi"
    else
        bad "consumer loads $1/lib/libfathom.so.$abi"; env -u LD_LIBRARY_PATH ldd "$tmp/$2/app" | grep libfathom
    fi
}
consume "$prefix" cmake-build
# SameMajorVersion: the next major version and a newer minor one are refused, naming the installed config file.
for wanted in "$((major + 1)).0" "$major.$((minor + 1))"; do
    if configure "$prefix" "cmake-refused-$wanted" "$wanted"; then
        bad "find_package(fathom $wanted) accepted $version"
    elif grep -q "$prefix/lib/cmake/fathom/fathomConfig.cmake, version: $version" "$tmp/cmake-refused-$wanted.log"; then
        ok "find_package(fathom $wanted) refuses $version"
    else
        bad "find_package(fathom $wanted) failed for another reason:"; tail -n 20 "$tmp/cmake-refused-$wanted.log"
    fi
done

# A second install of the same build: no Swift build (not even a no-op `swift build`), nothing written into the
# repository (git-ignored files included, such as the Python package's copy of the library).
status_before=$(git -C "$REPO" status --porcelain)
touch "$tmp/stamp"
if $MAKE -C "$REPO" install PREFIX="$prefix" DESTDIR= >"$tmp/install2.log" 2>&1; then ok "second make install"
else bad "second make install"; tail -n 30 "$tmp/install2.log"; fi
if grep -e 'swift build' -e 'Compiling' -e 'Linking' -e 'Build complete' "$tmp/install2.log" >"$tmp/built.txt"; then
    bad "second make install ran the Swift build:"; head -n 5 "$tmp/built.txt"
else
    ok "second make install ran no Swift build"
fi
if [ "$(git -C "$REPO" status --porcelain)" = "$status_before" ]; then ok "git status unchanged by the second install"
else bad "git status changed by the second install"; fi
find "$REPO" -path "$REPO/.git" -prune -o -newer "$tmp/stamp" -print >"$tmp/written.txt"
if [ -s "$tmp/written.txt" ]; then bad "the second install wrote into the repository:"; head -n 10 "$tmp/written.txt"
else ok "the second install wrote nothing into the repository"; fi

# The CMake package finds the prefix from its own place: moved elsewhere, it still works.
mv "$prefix" "$tmp/moved"
consume "$tmp/moved" cmake-moved

finish
