#!/bin/sh
# The wheel `make wheel` built, installed as a user installs it: into a new virtual environment, then used from a
# folder outside the repository with neither FATHOM_LIBRARY nor PYTHONPATH set and no Swift toolchain on PATH, so
# nothing of the checkout or of the build machine can stand in for what the wheel should bring.
#
# Usage: test_wheel.sh WHEEL_DIR HEADER PACKAGE_SOURCE README...
#   WHEEL_DIR       the folder holding the one wheel to test
#   HEADER          include/fathom.h, whose FATHOM_VERSION_* the wheel's version must equal
#   PACKAGE_SOURCE  Bindings/python/fathom, whose modules the wheel must hold
#   README...       Markdown files whose ```python blocks must run against the installed package
# PYTHON names the interpreter that makes the environment (python3 by default). WHEEL_CPU_FLAGS, which must be set
# (empty for a portable build), is the CPU_FLAGS the library was built with: the wheel must hold fathom/_cpu.txt
# exactly when it is not empty.
set -eu

if [ -z "${WHEEL_CPU_FLAGS+set}" ]; then
    echo "test_wheel: set WHEEL_CPU_FLAGS to the CPU_FLAGS the wheel's library was built with (empty: portable)" >&2
    exit 2
fi

if [ $# -lt 4 ]; then
    echo "usage: $0 WHEEL_DIR HEADER PACKAGE_SOURCE README..." >&2
    exit 2
fi
wheel_dir=$1
# Absolute paths: the checks run from another folder.
header=$(realpath "$2")
package_source=$(realpath "$3")
shift 3
for readme do
    set -- "$@" "$(realpath "$readme")"
    shift
done

count=$(find "$wheel_dir" -maxdepth 1 -name '*.whl' | wc -l)
if [ "$count" -ne 1 ]; then
    echo "test_wheel: $wheel_dir holds $count wheels, not one (make wheel builds it)" >&2
    exit 1
fi
wheel=$(cd "$wheel_dir" && echo "$(pwd)/$(ls ./*.whl | sed 's|^\./||')")
here=$(cd "$(dirname "$0")" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/fathom-wheel-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# Every folder holding a `swift` leaves PATH (the toolchain's runtime libraries sit beside it).
path=$PATH
while swift=$(PATH=$path command -v swift); do
    swift_dir=$(dirname "$swift")
    path=$(printf '%s\n' "$path" | tr ':' '\n' | grep -vxF "$swift_dir" | paste -sd: -)
done

# The environment's own pip would take 10 s to set up (ensurepip): this python's pip (22.3 or newer, for --python)
# installs into it instead, and compiles nothing (the checks import each module once).
python=${PYTHON:-python3}
"$python" -m venv --without-pip "$work/venv"
# numpy (the package's one dependency) and dask.distributed (its [dask] extra, for the README's cluster example)
# come from PyPI, which the project's machines reach: the environment sees nothing of the system's site-packages, so
# a dependency the package does not declare fails here.
"$python" -m pip --python "$work/venv/bin/python" install -q --no-compile --disable-pip-version-check "$wheel[dask]"

mkdir "$work/run"
cd "$work/run"
env -u FATHOM_LIBRARY -u PYTHONPATH PATH="$path" "$work/venv/bin/python" "$here/check_wheel.py" --wheel "$wheel" \
    --header "$header" --package-source "$package_source" --cpu-flags="$WHEEL_CPU_FLAGS" "$@"
