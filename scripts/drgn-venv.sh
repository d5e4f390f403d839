#!/usr/bin/env bash
# drgn for scripts/check-kdump.sh, from PyPI in a venv under build/tools:
# Debian 12's python3-drgn (0.0.22) does not relocate this arm64 vmlinux by
# KASLR's offset (no symbol of it reads from the vmcore).  Only make kdump
# needs it, so make check never reaches for PyPI.
set -euo pipefail
. "$(dirname "$0")/common.sh"

venv=$BUILD/tools/drgn-venv
drgn=drgn==0.3.0
"$venv/bin/python" -c 'import drgn' 2> /dev/null && exit 0
if ! /usr/bin/python3 -c 'import ensurepip' 2> /dev/null; then
	[ "$(id -u)" -eq 0 ] || die "python3-venv is missing; as root run: apt-get install python3-venv"
	note "installing python3-venv"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >&2 ||
		die "cannot install python3-venv"
fi
note "installing $drgn from PyPI into $venv"
/usr/bin/python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q "$drgn" >&2 ||
	die "cannot install $drgn into $venv (pip from PyPI)"
