# lib.sh -- helpers for the CLI golden tests (sourced, not a test itself).
#
# Each tests/cli/test_*.sh is run as
#     bash tests/cli/test_X.sh /path/to/warpmatch /path/to/project_root
# and passes when it exits 0. The helpers below count failures and print
# what differed; `finish` ends the script with the right status.

set -u

if [ $# -lt 2 ]; then
    echo "usage: bash $0 /path/to/warpmatch /path/to/project_root" >&2
    exit 2
fi
W=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$2" && pwd)
GOLDEN=$ROOT/tests/cli/golden
DATA=$ROOT/data
[ -x "$W" ] || { echo "not executable: $W" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/wm_cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
N_FAIL=0
N_PASS=0
TAB=$(printf '\t')

fail() {
    echo "FAIL: $*"
    N_FAIL=$((N_FAIL + 1))
}

pass() {
    N_PASS=$((N_PASS + 1))
}

# run ARGS...: runs the tool; sets OUT (stdout file), ERR (stderr file), RC.
N_RUN=0
run() {
    N_RUN=$((N_RUN + 1))
    OUT=$TMP/out.$N_RUN
    ERR=$TMP/err.$N_RUN
    "$W" "$@" >"$OUT" 2>"$ERR"
    RC=$?
}

# check_rc NAME EXPECTED: the last run's exit status.
check_rc() {
    if [ "$RC" -eq "$2" ]; then
        pass
    else
        fail "$1: exit status $RC, expected $2"
        echo "  stderr:"; sed 's/^/    /' "$ERR" | head -20
    fi
}

# check_out NAME EXPECTED_FILE: the last run's stdout, byte for byte.
check_out() {
    if cmp -s "$OUT" "$2"; then
        pass
    else
        fail "$1: stdout differs from $2 (expected < > got)"
        diff "$2" "$OUT" | head -30 | sed 's/^/    /'
    fi
}

# check_out_text NAME TEXT: stdout equals TEXT (a trailing newline is added
# unless TEXT is empty).
check_out_text() {
    if [ -z "$2" ]; then
        : >"$TMP/expect"
    else
        printf '%s\n' "$2" >"$TMP/expect"
    fi
    check_out "$1" "$TMP/expect"
}

# check_err NAME REGEX: some stderr line matches REGEX (grep -E).
check_err() {
    if grep -Eq -- "$2" "$ERR"; then
        pass
    else
        fail "$1: no stderr line matches /$2/"
        echo "  stderr:"; sed 's/^/    /' "$ERR" | head -20
    fi
}

# check_no_err NAME: stderr is empty.
check_no_err() {
    if [ -s "$ERR" ]; then
        fail "$1: unexpected stderr"
        sed 's/^/    /' "$ERR" | head -20
    else
        pass
    fi
}

# check_empty_out NAME: nothing on stdout.
check_empty_out() {
    if [ -s "$OUT" ]; then
        fail "$1: unexpected stdout"
        head -20 "$OUT" | sed 's/^/    /'
    else
        pass
    fi
}

finish() {
    echo "$(basename "$0"): $N_PASS checks passed, $N_FAIL failed"
    [ "$N_FAIL" -eq 0 ]
    exit $?
}
