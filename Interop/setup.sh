#!/usr/bin/env bash
# Creates the interop peer's virtual environment and installs Interop/requirements.txt into it.
#
#   Interop/setup.sh [VENV_DIR]        (default: Interop/.venv)
#
# Idempotent: a stamp file in the venv holds the sha256 of requirements.txt (and of the Python
# that made the venv); when it matches, nothing is installed and no network is used. Wheels are
# kept in Interop/.wheels, so a venv made anew installs from that cache without PyPI. Prints the
# venv's python path as its last line. Exits non-zero, saying why, when PyPI cannot be reached and
# nothing is cached.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-$here/.venv}"
requirements="$here/requirements.txt"
wheels="$here/.wheels"
stamp="$venv/.baton-interop-stamp"

python="${PYTHON:-python3}"
if ! command -v "$python" >/dev/null 2>&1; then
    echo "Interop/setup.sh: $python not found; the interop peer needs Python 3.10 or newer" >&2
    exit 1
fi
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "Interop/setup.sh: $("$python" --version 2>&1) is too old; the peer needs 3.10 or newer" >&2
    exit 1
fi

want="$( { sha256sum "$requirements" | cut -d' ' -f1; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
    echo "$venv/bin/python"
    exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv" || {
        echo "Interop/setup.sh: '$python -m venv' failed (on Debian: apt-get install python3-venv)" >&2
        exit 1
    }
fi
rm -f "$stamp"

pip=("$venv/bin/python" -m pip --disable-pip-version-check --no-input -q)
mkdir -p "$wheels"
# First from the wheel cache alone (no network); otherwise fetch into the cache from PyPI.
if ! "${pip[@]}" install --no-index --find-links "$wheels" -r "$requirements" >/dev/null 2>&1; then
    if ! "${pip[@]}" download --timeout 30 --retries 2 -d "$wheels" -r "$requirements"; then
        echo "Interop/setup.sh: cannot download the interop peer's packages from PyPI" \
            "(is PyPI reachable?) and $wheels does not hold them all" >&2
        exit 1
    fi
    "${pip[@]}" install --no-index --find-links "$wheels" -r "$requirements"
fi
"${pip[@]}" check >/dev/null
echo "$want" >"$stamp"
echo "$venv/bin/python"
