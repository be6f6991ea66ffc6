#!/bin/sh
# check_exports.sh LIB HEADER SONAME
# The library's exported fathom_* functions must be exactly the functions the header declares (both ways), it
# must have no other symbol in its dynamic table (the Swift runtime linked into it stays hidden), its SONAME must
# be SONAME, and it must not depend on the Swift runtime's shared libraries (the stdlib is linked statically).
# Prints every difference and a final "N passed, N failed" line; exits non-zero on any failure.
set -u

if [ $# -ne 3 ]; then
    echo "usage: $0 LIB HEADER SONAME" >&2
    exit 2
fi
LIB=$1
HEADER=$2
SONAME=$3
CC=${CC:-cc}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
finish() {
    echo "check_exports: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

[ -f "$LIB" ] || { bad "no library at $LIB (build it first)"; finish; }
[ -f "$HEADER" ] || { bad "no header at $HEADER"; finish; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fathom-abi.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Functions defined and exported by the library (T: text; W/i: weak or indirect functions count too).
if ! nm -D --defined-only "$LIB" >"$tmp/nm.txt" 2>"$tmp/nm.err"; then
    bad "nm -D --defined-only $LIB"; cat "$tmp/nm.err"; finish
fi
awk '$2 ~ /^[TtWiV]$/ && $3 ~ /^fathom_/ { sub(/@.*/, "", $3); print $3 }' "$tmp/nm.txt" | sort -u >"$tmp/lib.txt"
# Exported data symbols named fathom_* are not part of the ABI either.
awk '$2 ~ /^[BDGRSbdgrs]$/ && $3 ~ /^fathom_/ { print $3 }' "$tmp/nm.txt" | sort -u >"$tmp/lib_data.txt"

# Nothing else is in the dynamic symbol table, global or local (a local one there is still a name another Swift
# runtime in the host could be confused with by tools, and says the linker kept a relocation against it).
awk '$3 !~ /^fathom_/ { print $2, $3 }' "$tmp/nm.txt" >"$tmp/foreign.txt"
if [ -s "$tmp/foreign.txt" ]; then
    bad "dynamic symbols outside fathom_* ($(wc -l <"$tmp/foreign.txt")), the first:"
    head -n 10 "$tmp/foreign.txt" | sed 's/^/    /'
else
    ok
fi

# Functions declared by the header: preprocess it (strips comments, resolves #if), join everything onto
# one line, split at ';' and '{' / '}', and keep the declarations of the form "... fathom_name(...)".
if ! "$CC" -E -P -x c "$HEADER" >"$tmp/pre.c" 2>"$tmp/cc.err"; then
    bad "$CC -E $HEADER"; cat "$tmp/cc.err"; finish
fi
tr '\n' ' ' <"$tmp/pre.c" | tr ';{}' '\n\n\n' |
    grep -v '^[[:space:]]*typedef' |
    sed -n 's/.*[^A-Za-z0-9_]\(fathom_[A-Za-z0-9_]*\)[[:space:]]*(.*/\1/p' |
    sort -u >"$tmp/header.txt"

nlib=$(wc -l <"$tmp/lib.txt")
nhdr=$(wc -l <"$tmp/header.txt")
echo "library exports $nlib fathom_* functions; the header declares $nhdr"
if [ "$nhdr" -gt 0 ]; then ok; else bad "no fathom_* function found in $HEADER"; fi
if [ "$nlib" -gt 0 ]; then ok; else bad "no fathom_* function exported by $LIB"; fi

# Declared but not exported.
while read -r f; do
    if grep -qx "$f" "$tmp/lib.txt"; then ok; else bad "declared in the header, not exported by the library: $f"; fi
done <"$tmp/header.txt"
# Exported but not declared.
while read -r f; do
    if grep -qx "$f" "$tmp/header.txt"; then ok; else bad "exported by the library, not declared in the header: $f"; fi
done <"$tmp/lib.txt"
while read -r f; do
    [ -n "$f" ] && bad "exported data symbol with the fathom_ prefix (not in the header): $f"
done <"$tmp/lib_data.txt"

# The Swift runtime must be linked in statically: no libswiftCore, libFoundation*, libdispatch,
# libBlocksRuntime or other libswift* among the shared libraries the library needs, and nothing unresolved.
if ldd "$LIB" >"$tmp/ldd.txt" 2>&1; then ok; else bad "ldd $LIB"; cat "$tmp/ldd.txt"; fi
for pattern in libswiftCore libFoundation libswift libdispatch libBlocksRuntime 'not found'; do
    if grep -q "$pattern" "$tmp/ldd.txt"; then
        bad "ldd $LIB shows $pattern:"; grep "$pattern" "$tmp/ldd.txt" | sed 's/^/    /'
    else
        ok
    fi
done
# The same with the ELF dynamic section (what the library asks for, independent of the loader's search), and the
# SONAME there: the name programs linked with the library record and look for at run time.
if readelf -d "$LIB" >"$tmp/dyn.txt" 2>"$tmp/readelf.err"; then
    if grep 'NEEDED' "$tmp/dyn.txt" | grep -q -e 'libswift' -e 'libFoundation' -e 'libdispatch'; then
        bad "DT_NEEDED names a Swift runtime library:"; grep NEEDED "$tmp/dyn.txt" | sed 's/^/    /'
    else
        ok
    fi
    soname=$(sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p' "$tmp/dyn.txt")
    if [ "$soname" = "$SONAME" ]; then ok; else bad "SONAME is '$soname', expected $SONAME"; fi
else
    bad "readelf -d $LIB"; cat "$tmp/readelf.err"
fi

finish
