#!/bin/sh
# REPL tests: runs each cases/NAME.fathom script and compares its output (stdout and stderr, in order)
# with cases/NAME.expected, whose values were derived by hand; then checks piped input, --bail, exit
# codes, and that the README's REPL examples run without error.
# usage: run.sh PATH/TO/fathom-cli
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
passed=0; failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }

for script in "$here"/cases/*.fathom; do
  name=$(basename "$script" .fathom)
  actual=$(cd "$here/cases" && "$cli" run "$name.fathom" 2>&1)
  if [ "$actual" = "$(cat "$here/cases/$name.expected")" ]; then pass; else
    fail "$name"; printf '%s\n' "$actual" | diff "$here/cases/$name.expected" - | head -20; fi
done

# Exit status: 1 when a script line failed, 0 otherwise.
(cd "$here/cases" && "$cli" run errors.fathom >/dev/null 2>&1); [ $? -eq 1 ] && pass || fail "exit status after errors"
(cd "$here/cases" && "$cli" run pose.fathom >/dev/null 2>&1) && pass || fail "exit status of a clean script"

# Piped standard input: no prompt, errors name <stdin>, the session goes on after an error.
out=$(printf 'b = box((0,0,0),(1,1,1))\nb.set_scale((0,1,1))\nb.volume()\n' | "$cli" 2>&1)
expected=$(printf '<stdin>:2:3: error: scale.x must be > 0, got 0.0\n1')
[ "$out" = "$expected" ] && pass || { fail "piped input"; echo "$out"; }

# --bail stops at the first error.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'deg(1)\nfoo()\ndeg(2)\n' > "$tmp/bail.fathom"
out=$("$cli" run "$tmp/bail.fathom" --bail 2>&1)
case "$out" in *"unknown function 'foo'"*) case "$out" in *114.592*) fail "--bail ran past the error";; *) pass;; esac;; *) fail "--bail"; echo "$out";; esac

# help: an index of names by capability; help GROUP one group's table; help all every usage; help NAME one.
"$cli" -c 'help' > "$tmp/help.txt" 2>&1
grep -q '^  Boxes: box, obb, load_manifest, fit_pca, fit_upright$' "$tmp/help.txt" && ! grep -q 'fit_upright(cloud)' "$tmp/help.txt" \
  && pass || { fail "help index"; cat "$tmp/help.txt"; }
"$cli" -c 'help cameras' > "$tmp/help.txt" 2>&1
grep -q '^Cameras:$' "$tmp/help.txt" && grep -q 'project(' "$tmp/help.txt" && ! grep -q 'fit_upright' "$tmp/help.txt" \
  && pass || { fail "help GROUP"; cat "$tmp/help.txt"; }
"$cli" run /dev/stdin <<'EOS' > "$tmp/help.txt" 2>&1
help all
help extend_side
EOS
grep -q 'fit_upright(cloud)' "$tmp/help.txt" && grep -q 'b.extend_side(offset)' "$tmp/help.txt" && pass || fail "help all"
# Every function the REPL defines (a "name": Builtin( entry in its sources) is in the help index.
"$cli" -c 'help' > "$tmp/help.txt" 2>&1
missing=$(grep -ho '^ *"[a-z_0-9]*": Builtin(' "$here"/../../Sources/fathom-cli/*.swift | sed 's/^ *"\([a-z_0-9]*\)".*/\1/' \
  | while read -r name; do grep -Eq "(^|[:,]) +$name(,|\$)" "$tmp/help.txt" || echo "$name"; done)
[ -z "$missing" ] && pass || fail "help index misses: $missing"

# -c runs statements from the command line (one may span lines); its exit status says whether any failed.
out=$("$cli" -c 'x = deg(1)
x + max(1,
        2)' 2>&1) && [ "$out" = "59.2958" ] && pass || { fail "-c"; echo "$out"; }
out=$("$cli" -c 'nosuch()' 2>&1); [ $? -eq 1 ] && [ "$out" = "-c:1:1: error: unknown function 'nosuch'; type 'help' for the list" ] && pass || { fail "-c error"; echo "$out"; }

# The README's REPL examples (```fathom blocks) run without error.
readme="$here/../../README.md"
if [ -f "$readme" ]; then
  awk '/^```fathom$/{on=1; next} /^```$/{on=0} on' "$readme" > "$tmp/readme.fathom"
  if [ -s "$tmp/readme.fathom" ]; then
    (cd "$tmp" && "$cli" run readme.fathom > "$tmp/readme.out" 2>&1) && pass || { fail "README REPL examples"; cat "$tmp/readme.out"; }
  else fail "README has no fathom example block"; fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
