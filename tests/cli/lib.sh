# lib.sh -- what the CLI tests share (sourced, not a test itself): the tool
# and the folders, a temporary folder, running the tool, and the checks,
# which count passes and failures and print what differed.
#
# Each tests/cli/test_*.sh is run as
#     bash tests/cli/test_X.sh /path/to/warpmatch /path/to/project_root
# and passes when it exits 0; `finish` ends the script with the right
# status and the line "test_X.sh: N checks passed, N failed".
#
# Set by sourcing: W (the tool), ROOT (the repository), GOLDEN, DATA, SHARED
# (the shared data sets: $WM_SHARED_DATA, else ../shared/data beside the
# repository; it may be absent), TMP (a fresh folder, removed at exit; its
# name starts with $WM_TMP_NAME, else wm_cli), TAB. Every run sets OUT and
# ERR (files holding its stdout and stderr) and RC (its status).

set -u

if [ $# -lt 2 ]; then
    echo "usage: bash $0 /path/to/warpmatch /path/to/project_root" >&2
    exit 2
fi
W=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$2" && pwd)
GOLDEN=$ROOT/tests/cli/golden
DATA=$ROOT/data
SHARED=${WM_SHARED_DATA:-$ROOT/../shared/data}
[ -x "$W" ] || { echo "not executable: $W" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/${WM_TMP_NAME:-wm_cli}.XXXXXX")
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

# ---- running ----------------------------------------------------------------------

# run_cmd COMMAND ARGS...: runs any command (a timeout around the tool, say);
# sets OUT, ERR and RC. Standard input is the caller's.
N_RUN=0
run_cmd() {
    N_RUN=$((N_RUN + 1))
    OUT=$TMP/out.$N_RUN
    ERR=$TMP/err.$N_RUN
    "$@" >"$OUT" 2>"$ERR"
    RC=$?
}

# run ARGS...: runs the tool.
run() {
    run_cmd "$W" "$@"
}

# run_in FILE ARGS...: runs the tool with standard input from FILE (a
# process substitution, <(...), makes it a pipe).
run_in() {
    local in=$1
    shift
    run_cmd "$W" "$@" <"$in"
}

# run_at DIR ARGS...: runs the tool in folder DIR (file names relative to it).
run_at() {
    local dir=$1
    shift
    N_RUN=$((N_RUN + 1))
    OUT=$TMP/out.$N_RUN
    ERR=$TMP/err.$N_RUN
    (cd "$dir" && "$W" "$@") >"$OUT" 2>"$ERR"
    RC=$?
}

# have_gpu: true when `warpmatch info` lists a GPU (asked once).
have_gpu() {
    if [ -z "${HAVE_GPU:-}" ]; then
        HAVE_GPU=0
        "$W" info 2>/dev/null | grep -q '^gpu [0-9]' && HAVE_GPU=1
    fi
    [ "$HAVE_GPU" = 1 ]
}

# ---- checks of the last run -----------------------------------------------------------

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

# check_tsv NAME: stdout equals the lines on stdin, spaces turned into tabs
# (kept in $TMP/expect, for a later check_out against the same lines).
check_tsv() {
    tr ' ' '\t' >"$TMP/expect"
    check_out "$1" "$TMP/expect"
}

# check_out_re NAME REGEX: some stdout line matches REGEX (grep -E).
check_out_re() {
    if grep -Eq -- "$2" "$OUT"; then
        pass
    else
        fail "$1: no stdout line matches /$2/"
        sed 's/^/    /' "$OUT" | head -20
    fi
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

# ---- a run and its checks ---------------------------------------------------------------

# expect_match NAME EXPECTED ARGS...: exit 0, no stderr, stdout = EXPECTED
# (spaces = tabs).
expect_match() {
    local name=$1 want=$2
    shift 2
    run "$@"
    check_rc "$name" 0
    check_no_err "$name"
    check_tsv "$name" <<<"$want" # not a pipe: a subshell would lose the count
}

# expect_error NAME REGEX ARGS...: exit 2, a message matching REGEX, no stdout.
expect_error() {
    local name=$1 re=$2
    shift 2
    run "$@"
    check_rc "$name" 2
    check_err "$name" "$re"
    check_empty_out "$name"
}

# out_while_running FILE PID: wait (at most 30 s) until FILE holds bytes or
# process PID has ended, then for PID itself (its status in RC); succeeds
# when FILE held bytes while PID still ran: output that leaves a process as
# it is found, not at its end.
out_while_running() {
    local seen=1
    for _ in $(seq 1 600); do
        if [ -s "$1" ]; then
            kill -0 "$2" 2>/dev/null && seen=0
            break
        fi
        kill -0 "$2" 2>/dev/null || break
        sleep 0.05
    done
    wait "$2"
    RC=$?
    return $seen
}

finish() {
    echo "$(basename "$0"): $N_PASS checks passed, $N_FAIL failed"
    [ "$N_FAIL" -eq 0 ]
    exit $?
}
