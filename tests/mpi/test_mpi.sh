#!/usr/bin/env bash
# test_mpi.sh -- warpmatch-mpi under an MPI launcher prints what one process prints.
#
#     bash tests/mpi/test_mpi.sh /path/to/warpmatch-mpi /path/to/project_root
#
# warpmatch-mpi is the tool built with MPI (the plain warpmatch has none and
# needs no MPI library; the README's "Install" says why).
# When warpmatch-mpi is started by mpirun/mpiexec/srun, N ranks share the work
# (rank r of N reads its even share of each input file's bytes) and
# the job must print on stdout exactly the bytes that a single plain process
# prints for the same arguments, and exit with the same status (0 match,
# 1 none, 2 error). For every case below this script runs the plain process
# once (the reference, outside any MPI environment) and then
# `mpirun -np N warpmatch-mpi ...` for N = 1, 2, 3, 4, and compares:
#   * the exit status (a run killed by the time limit is reported as a hang);
#   * stdout, byte for byte (with --output-per-rank PREFIX: stdout is empty,
#     PREFIX.00000 .. PREFIX.<N-1> exist, nothing else, and their
#     concatenation in rank order is the reference's stdout);
#   * no sanitizer report on stderr (an ASan/UBSan build), in either run;
#   * stderr: the distinct "warpmatch: ..." lines are the reference's (an
#     error is reported, with the same words, file and line; a message printed
#     by several ranks counts once, a "rank N: " prefix is allowed; launcher
#     noise is ignored).
# The inputs (tests/mpi/gen_inputs.py, fixed seeds) put rank borders on
# headers, CRLF pairs, blank lines, empty records, FASTQ quality lines that
# start with '@' or '+', and planted matches (see that file).
#
# Environment:
#   WM_MPIEXEC      the launcher [mpirun, else mpiexec, on PATH]
#   WM_MPI_NP       the rank counts ["1 2 3 4"; a few cases on small files
#                   use "2 3 4 5 6 8"; WM_MPI_NP overrides those too]
#   WM_MPI_CASES    run only the cases whose name matches this ERE
#   WM_MPI_SKIP     leave out the cases whose name matches this ERE
#   WM_MPI_JOBS     launches run at once [6] (the launcher mostly waits)
#   WM_MPI_TIMEOUT  seconds before a launch counts as hung [120]
#   WM_MPI_THREADS  warpmatch -j [1]
#   WM_MPI_FLAGS    extra launcher flags (word-split)
#   WM_MPI_ASAN_OPTIONS  appended to ASAN_OPTIONS for the MPI ranks only
#                   [detect_leaks=0: Open MPI leaks by design, partly from
#                   components it has unloaded, which no suppression can name;
#                   the plain reference runs keep the caller's ASAN_OPTIONS]
#   WM_PLAIN_TOOL   the plain warpmatch (no MPI): checked to stop with
#                   status 2 and a message naming warpmatch-mpi when the
#                   launcher starts it as 2 ranks [not checked]
#   WM_MPI_KEEP=1   keep the work folder (/tmp/mpitest.*) even when all pass
#                   (it is always kept after a failure, for the repro commands)
# Exit status: 0 all passed, 1 a failure, 77 no MPI launcher (skipped).
# The tool, the repository, the work folder and the pass / fail counters
# come from tests/cli/lib.sh.
export LC_ALL=C
# shellcheck disable=SC2034  # read by lib.sh
WM_TMP_NAME=mpitest
. "$(dirname "$0")/../cli/lib.sh" "$@"
command -v python3 >/dev/null 2>&1 || { echo "test_mpi.sh: python3 is needed" >&2; exit 2; }

MPIEXEC=${WM_MPIEXEC:-}
if [ -z "$MPIEXEC" ] || [ "$MPIEXEC" = "MPIEXEC_EXECUTABLE-NOTFOUND" ]; then
    MPIEXEC=$(command -v mpirun || command -v mpiexec || true)
fi
if [ -z "$MPIEXEC" ] || ! command -v "$MPIEXEC" >/dev/null 2>&1; then
    echo "test_mpi.sh: no MPI launcher (set WM_MPIEXEC): skipped"
    exit 77
fi
NPS=${WM_MPI_NP:-1 2 3 4}
ONLY=${WM_MPI_CASES:-}
SKIP=${WM_MPI_SKIP:-}
JOBS=${WM_MPI_JOBS:-6}
TIMEOUT=${WM_MPI_TIMEOUT:-120}
THREADS=${WM_MPI_THREADS:-1}
MPI_ASAN=${WM_MPI_ASAN_OPTIONS-detect_leaks=0}

MPIFLAGS=()
if "$MPIEXEC" --version 2>&1 | grep -Eqi 'open ?mpi|openrte'; then
    # More ranks than cores; let the OS place them (several launches run at
    # once); root in CI containers; ranks yield when they wait.
    MPIFLAGS+=(--oversubscribe --bind-to none)
    [ "$(id -u)" -eq 0 ] && MPIFLAGS+=(--allow-run-as-root)
    export OMPI_MCA_mpi_yield_when_idle=1
fi
# shellcheck disable=SC2206
MPIFLAGS+=(${WM_MPI_FLAGS:-})

DIR=$TMP
IN=$DIR/in
RES=$DIR/res
mkdir -p "$IN" "$RES"
cleanup() {
    local pids
    pids=$(jobs -p)
    [ -n "$pids" ] && kill $pids 2>/dev/null    # launches still running (interrupted)
    if [ "${REPORTED:-0}" = 1 ] && [ "$N_FAIL" -eq 0 ] && [ "${WM_MPI_KEEP:-0}" != 1 ]; then
        rm -rf "$DIR"
    else
        echo "(inputs and outputs kept in $DIR)"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T0=$(date +%s)
python3 "$ROOT/tests/mpi/gen_inputs.py" "$IN" "$ROOT" >"$DIR/sizes.txt" || {
    echo "test_mpi.sh: generating the inputs failed" >&2; exit 2; }
cp "$ROOT/data/lambda_phage.fa" "$ROOT/data/pacbio_sample.fastq.gz" \
   "$ROOT/data/signals/ecg_mitdb100_60s.csv" "$IN/" || exit 2
cp "$ROOT"/tests/fuzz/regress/F[145]-*.f[aq] "$IN/" || exit 2
cd "$IN" || exit 2

# Single-process runs must not think they are ranks.
NOMPI=(env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMI_SIZE -u PMI_RANK
       -u PMIX_RANK -u PMIX_NAMESPACE -u SLURM_PROCID)

# ---------------------------------------------------------------------------
# The machinery: mcase registers a case, runs the reference now and queues
# its MPI launches (at most JOBS at once); report() checks them all at the end.
# ---------------------------------------------------------------------------
NC=0
declare -a C_NAME C_EXPECT C_STDIN C_PR C_ARGS C_NP
NL=0

throttle() {
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
        wait -n 2>/dev/null || sleep 0.05
    done
}

q() { printf '%q ' "$@"; }

mpi_job() {    # ID N PER_RANK STDIN ARGS...
    local id=$1 n=$2 pr=$3 stdin=$4
    shift 4
    local base=$RES/$id.np$n
    local args=("$@")
    if [ "$pr" = 1 ]; then
        mkdir -p "$base.pr"
        args=("$1" --output-per-rank "$base.pr/out" "${@:2}")
    elif [ "$pr" = 2 ]; then
        args=("$1" --output "$base.file" "${@:2}")
    fi
    # Each launch its own TMPDIR: Open MPI 4.1 makes its session directory
    # /tmp/ompi.HOST.UID with mkdir, and two launchers starting at once can
    # both find it missing, one then failing with "File exists" (seen in CI's
    # sanitizer pass, 2026-11-26).
    mkdir -p "$base.tmp"
    local cmd=(env TMPDIR="$base.tmp" timeout -k 10 "$TIMEOUT" "$MPIEXEC" -np "$n" "${MPIFLAGS[@]}"
               "$W" "${args[@]}")
    {
        printf 'cd %q && ' "$IN"
        [ -n "$MPI_ASAN" ] && printf 'ASAN_OPTIONS=%q ' "${ASAN_OPTIONS:+$ASAN_OPTIONS:}$MPI_ASAN"
        [ "$(id -u)" -eq 0 ] && printf 'OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '
        q "${cmd[@]}"
        [ "$stdin" != /dev/null ] && printf '< %q' "$stdin"
        echo
    } >"$base.cmd"
    local t0=$EPOCHREALTIME
    if [ -n "$MPI_ASAN" ]; then
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}$MPI_ASAN "${cmd[@]}" \
            <"$stdin" >"$base.out" 2>"$base.err"
    else
        "${cmd[@]}" <"$stdin" >"$base.out" 2>"$base.err"
    fi
    echo $? >"$base.rc"
    echo "$t0 $EPOCHREALTIME" | awk '{printf "%.2f\n", $2 - $1}' >"$base.time"
}

# mcase NAME EXPECTED_STATUS [stdin=FILE] [per_rank|outfile] [np="N..."] -- COMMAND ARGS...
# COMMAND is search, align or dtw; "--backend cpu -j THREADS" is added after
# it. EXPECTED_STATUS is what the single process must return (a check of the
# test's own inputs: a case meant to match must match). np= replaces the
# rank counts (small files cut into many parts). outfile: the MPI runs write
# --output FILE (rank 0 itself), which must hold the single process's stdout.
mcase() {
    local name=$1 expect=$2 stdin=/dev/null pr=0 nps=$NPS
    shift 2
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        case $1 in
            stdin=*) stdin=${1#stdin=} ;;
            per_rank) pr=1 ;;
            outfile) pr=2 ;;
            np=*) [ -z "${WM_MPI_NP:-}" ] && nps=${1#np=} ;;
            *) echo "mcase $name: unknown option $1" >&2; exit 2 ;;
        esac
        shift
    done
    shift
    if { [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]]; } || { [ -n "$SKIP" ] && [[ $name =~ $SKIP ]]; }; then
        return
    fi
    NC=$((NC + 1))
    local id
    id=$(printf 'c%03d' "$NC")
    local args=("$1" --backend cpu -j "$THREADS" "${@:2}")
    C_NAME[NC]=$name C_EXPECT[NC]=$expect C_STDIN[NC]=$stdin C_PR[NC]=$pr C_NP[NC]=$nps
    C_ARGS[NC]=$(q "${args[@]}")
    "${NOMPI[@]}" "$W" "${args[@]}" <"$stdin" >"$RES/$id.ref.out" 2>"$RES/$id.ref.err"
    echo $? >"$RES/$id.ref.rc"
    local n
    for n in $nps; do
        NL=$((NL + 1))
        throttle
        mpi_job "$id" "$n" "$pr" "$stdin" "${args[@]}" &
    done
}

SAN_RE='runtime error: |==[0-9]+==ERROR: [A-Za-z]+Sanitizer'

# warpmatch's own stderr lines, each once, sorted; a "rank N: " after the
# program name (which rank saw it) is dropped.
wm_lines() {
    grep -a '^warpmatch: ' "$1" | sed -E 's/^warpmatch: rank [0-9]+: /warpmatch: /' | sort -u
}

report() {
    local i n id base rrc rc why out
    for ((i = 1; i <= NC; i++)); do
        id=$(printf 'c%03d' "$i")
        rrc=$(cat "$RES/$id.ref.rc")
        local ok_all=1
        if grep -Eaq "$SAN_RE" "$RES/$id.ref.err"; then
            echo "FAIL ${C_NAME[i]}: sanitizer report from the single process: $(grep -Ea -m1 "$SAN_RE" "$RES/$id.ref.err" | cut -c1-160)"
            echo "  single: cd $IN && $W ${C_ARGS[i]}$( [ "${C_STDIN[i]}" != /dev/null ] && echo "< ${C_STDIN[i]}")"
            N_FAIL=$((N_FAIL + 1))
            ok_all=0
        fi
        if [ "$rrc" != "${C_EXPECT[i]}" ]; then
            echo "FAIL ${C_NAME[i]}: the single process exits $rrc, the case expects ${C_EXPECT[i]} (inputs or tool changed?)"
            echo "  single: cd $IN && $W ${C_ARGS[i]}$( [ "${C_STDIN[i]}" != /dev/null ] && echo "< ${C_STDIN[i]}")"
            sed 's/^/    /' "$RES/$id.ref.err" | head -5
            N_FAIL=$((N_FAIL + 1))
            ok_all=0
        fi
        for n in ${C_NP[i]}; do
            base=$RES/$id.np$n
            rc=$(cat "$base.rc" 2>/dev/null || echo '?')
            why=()
            out=$base.out
            if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
                why+=("killed after ${TIMEOUT}s (a hang?)")
            elif [ "$rc" != "$rrc" ]; then
                why+=("exit status $rc, single process $rrc")
            fi
            if [ "${C_PR[i]}" = 1 ]; then
                if [ -s "$base.out" ]; then
                    why+=("stdout not empty with --output-per-rank")
                fi
                local want got r
                want=$(for ((r = 0; r < n; r++)); do printf 'out.%05d\n' "$r"; done)
                got=$(cd "$base.pr" 2>/dev/null && ls -1 2>/dev/null)
                if [ "$got" != "$want" ]; then
                    why+=("per-rank files: [$(echo $got)], expected [$(echo $want)]")
                fi
                out=$base.cat
                (cd "$base.pr" 2>/dev/null && for ((r = 0; r < n; r++)); do
                     f=$(printf 'out.%05d' "$r"); [ -f "$f" ] && cat "$f"; done) >"$out"
            fi
            if [ "${C_PR[i]}" = 2 ]; then
                [ -s "$base.out" ] && why+=("stdout not empty with --output")
                out=$base.file
            fi
            if ! cmp -s "$RES/$id.ref.out" "$out"; then
                why+=("stdout differs ($(wc -c <"$RES/$id.ref.out") bytes single, $(wc -c <"$out") mpi)")
            fi
            if [ "$(wm_lines "$RES/$id.ref.err")" != "$(wm_lines "$base.err")" ]; then
                why+=("warpmatch's stderr lines differ")
            fi
            # A sanitizer report (UBSan exits 1, the status of "no match").
            if grep -Eaq "$SAN_RE" "$base.err"; then
                why+=("sanitizer report: $(grep -Ea -m1 "$SAN_RE" "$base.err" | cut -c1-160)")
            fi
            if [ ${#why[@]} -eq 0 ]; then
                pass
                rm -rf "$base".{out,err,cat,pr,file,tmp} # keep only failures
                continue
            fi
            ok_all=0
            N_FAIL=$((N_FAIL + 1))
            echo "FAIL ${C_NAME[i]} -np $n: $(IFS=';'; echo "${why[*]}")"
            echo "  repro:  $(cat "$base.cmd")"
            echo "  single: cd $IN && $W ${C_ARGS[i]}$( [ "${C_STDIN[i]}" != /dev/null ] && echo "< ${C_STDIN[i]}")   (exit $rrc)"
            if ! cmp -s "$RES/$id.ref.out" "$out"; then
                echo "  stdout, single process < > mpi (first 16 lines of the diff):"
                diff -a "$RES/$id.ref.out" "$out" | head -16 | cut -c1-200 | sed 's/^/    /'
            fi
            if [ -s "$base.err" ]; then
                echo "  mpi stderr (first 8 lines):"
                head -8 "$base.err" | cut -c1-200 | sed 's/^/    /'
            fi
            if [ -s "$RES/$id.ref.err" ]; then
                echo "  single-process stderr (first 4 lines):"
                head -4 "$RES/$id.ref.err" | cut -c1-200 | sed 's/^/    /'
            fi
        done
        [ "$ok_all" = 1 ] && echo "ok   ${C_NAME[i]}"
    done
}

# ---------------------------------------------------------------------------
# The cases.
# ---------------------------------------------------------------------------
P10=GATTACAGGT
P16=GATTACAGGTCCATGA
IUPAC=GATNACRGGY
NONE=CCCCCCCCCCCCCCCCCCCCCCCC
BORDER=(hdr_a.fa hdr_b.fa crlf_a.fa crlf_b.fa reads_a.fq reads_b.fq reads_c.fq)
ALL=("${BORDER[@]}" multi.fa multi.fq plain.txt longline.fa tiny.fa two.txt empty.txt one.fq)

# --- search, one file at a time (a failure names the file) ---
for f in "${BORDER[@]}" multi.fa multi.fq longline.fa; do
    mcase "search one file: $f" 0 -- search -k 1 --revcomp "$P10" "$f"
done
mcase "search one file: plain.txt" 0 -- search -i -k 2 'needle in a haystack' plain.txt
mcase "search tiny and empty files" 0 -- search -k 1 "$P10" tiny.fa two.txt empty.txt one.fq
mcase "search empty file, json" 1 -- search --json "$P10" empty.txt
MANY="2 3 4 5 6 8"
mcase "search odd layouts, many rank counts" 0 np="$MANY" -- \
    search -k 1 --revcomp "$P10" weird.fa weird.fq tiny.fa two.txt one.fq
mcase "search odd layouts, text, -c --by-record" 0 np="$MANY" -- \
    search --alphabet text -c --by-record -k 2 "$P10" weird.fa weird.fq tiny.fa one.fq
mcase "search odd layouts, json, --chunk-bytes 64" 0 np="$MANY" -- \
    search --json --alphabet text --chunk-bytes 64 -k 1 "$P10" weird.fa weird.fq
mcase "set, odd layouts" 0 np="$MANY" -- search -f pats.txt --revcomp weird.fa weird.fq tiny.fa
# a set within k errors: its halo is the longest pattern plus k
mcase "set within k, odd layouts" 0 np="2 5" -- \
    search -f pats.txt -k 2 --revcomp weird.fa weird.fq tiny.fa
mcase "per-rank, odd layouts" 0 per_rank np="$MANY" -- search -k 1 "$P10" weird.fq
FZ=(fz00.fa fz01.fq fz02.fa fz03.fq fz04.fa fz05.fq fz06.fa fz07.fq fz08.fa fz09.fq
    fz10.fa fz11.fq fz12.fa fz13.fq fz14.fa fz15.fq)
mcase "search small random files" 0 np="$MANY" -- search -k 1 --revcomp "$P10" "${FZ[@]}"
mcase "search small random files -c --by-record" 0 np="$MANY" -- \
    search -c --by-record -k 2 "$P10" "${FZ[@]}"
mcase "set small random files json" 0 np="$MANY" -- search --json -f pats.txt "${FZ[@]}"
mcase "search -k 3 halo longer than a rank's bytes" 0 np="$MANY" -- \
    search -k 3 --revcomp "$P16" weird.fa tiny.fa one.fq
mcase "search blank before the first record" 0 np="$MANY" -- \
    search -c --by-record -k 1 "$P10" lead_blank.fa lead_blank.fq blank.txt
mcase "search blank before the first record, listing" 0 -- \
    search -k 2 --revcomp "$P10" lead_blank.fa lead_blank.fq blank.txt
# Issue 21, F1: a line of only '\v' before the first header is blank there
# (skipped) and a binary byte inside a record; a rank cannot tell which alone.
mcase "F1: \\v line in the blank prefix" 0 np="2 3 4 5 6 7 8" -- search AC F1-vt-blank-prefix.fa
mcase "F1: \\v line inside a record" 2 np="2 3 4 5 6 7 8" -- search AC F1-vt-in-record.fa
# F4: a control byte in a later record's name: the error names its line.
mcase "F4: control bytes in record names" 2 np="2 3 6" -- \
    search AC F4-esc-in-name.fa F4-ctl-in-name.fq F4-nul-in-name.fa
# F5: a quality shorter than its sequence (the next header is not quality).
mcase "F5: FASTQ quality shorter or longer" 2 np="2 3 6" -- \
    search AC F5-short-quality.fq F5-no-quality.fq F5-long-quality-at.fq
mcase "search lambda genome (README example)" 0 -- \
    search --revcomp -k 2 GGCGATGTGGCCATCGTCGTGTATTC lambda_phage.fa

# --- search, every file at once, each option ---
mcase "search exact" 0 -- search "$P10" "${ALL[@]}"
mcase "search -k 2 --chunk-bytes 64" 0 -- search -k 2 --chunk-bytes 64 "$P10" "${ALL[@]}"
mcase "search -k 3 --revcomp bed" 0 -- search -k 3 --revcomp --format bed "$P16" "${ALL[@]}"
mcase "search --hamming -k 2 --revcomp" 0 -- search --hamming -k 2 --revcomp "$P10" "${ALL[@]}"
mcase "search --algo myers -k 3 --chunk-bytes 64" 0 -- \
    search --algo myers -k 3 --chunk-bytes 64 "$P16" "${ALL[@]}"
mcase "search --algo bitap --hamming -k 1" 0 -- search --algo bitap --hamming -k 1 "$P10" "${ALL[@]}"
mcase "search --algo shiftor" 0 -- search --algo shiftor --revcomp "$P10" "${ALL[@]}"
mcase "search -i --alphabet text" 0 -- search -i --alphabet text -k 1 gattacaggt "${ALL[@]}"
mcase "search --alphabet dna IUPAC" 0 -- search --alphabet dna --revcomp -k 1 "$IUPAC" "${ALL[@]}"
mcase "search -c" 0 -- search -c -k 1 --revcomp "$P10" "${ALL[@]}"
mcase "search -c --by-record" 0 -- search -c --by-record -k 1 --revcomp "$P10" "${ALL[@]}"
mcase "search -c --by-record --chunk-bytes 64" 0 -- \
    search -c --by-record -k 2 --chunk-bytes 64 "$P10" "${ALL[@]}"
mcase "search json" 0 -- search --format json -k 1 --revcomp "$P10" "${ALL[@]}"
mcase "search -q" 0 -- search -q -k 1 "$P10" "${ALL[@]}"
mcase "search -q, no match" 1 -- search -q "$NONE" "${ALL[@]}"
mcase "search no match" 1 -- search "$NONE" "${ALL[@]}"
mcase "search no match, json" 1 -- search --json "$NONE" "${ALL[@]}"
mcase "search no match, -c --by-record" 1 -- search -c --by-record "$NONE" "${ALL[@]}"
mcase "search text, binary bytes in the pattern" 0 -- search "$(printf '\377bin')" plain.txt
mcase "search text, newline in the pattern" 0 -- search -k 1 "$(printf 'stack\nof')" plain.txt
# grep's text conventions (issue 20): line numbers and matched bytes cross rank borders
mcase "text: -n -o" 0 np="$MANY" -- search -n -o -k 1 -H needle plain.txt two.txt blank.txt
mcase "text: -n tsv" 0 np="$MANY" -- search -n -k 2 stack plain.txt blank.txt
mcase "text: json -n -o" 0 -- search --json -n -o -k 1 "$(printf '\377bin')" plain.txt
mcase "text: -l" 0 np="$MANY" -- search -l -k 1 "$P10" "${ALL[@]}"
mcase "text: -L" 0 np="$MANY" -- search -L -k 1 "$P10" "${ALL[@]}"

# --- pattern sets ---
for algo in ac pfac wumanber wumanber-paper qgram teddy; do
    mcase "set --algo $algo" 0 -- search -f pats.txt --algo "$algo" "${ALL[@]}"
done
mcase "set --algo ac --chunk-bytes 64 --revcomp" 0 -- \
    search -f pats.txt --algo ac --chunk-bytes 64 --revcomp "${ALL[@]}"
mcase "set --algo qgram --chunk-bytes 64" 0 -- search -f pats.txt --algo qgram --chunk-bytes 64 "${ALL[@]}"
mcase "set FASTA names --revcomp" 0 -- search -f pats.fa --revcomp "${ALL[@]}"
mcase "set -e -i, text" 0 -- search -i -e needle -e hay -e stack -e NEEDLE plain.txt multi.fa
mcase "set of bytes (newline, 0xff)" 0 -- search -f pats_text.txt --algo wumanber plain.txt
mcase "set --count-per-pattern" 0 -- search --count-per-pattern -f pats.fa "${ALL[@]}"
mcase "set --count-per-pattern --all-patterns" 0 -- \
    search --count-per-pattern --all-patterns -f pats.txt -e TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT --revcomp "${ALL[@]}"
mcase "set -c" 0 -- search -c -f pats.txt "${ALL[@]}"
mcase "set -c --by-record" 0 -- search -c --by-record --revcomp -f pats.txt "${ALL[@]}"
mcase "set json" 0 -- search --format json -f pats.fa "${ALL[@]}"
mcase "set bed --revcomp" 0 -- search --format bed --revcomp -f pats.fa "${ALL[@]}"
mcase "set -q" 0 -- search -q -f pats.txt "${ALL[@]}"
mcase "set -q, no match" 1 -- search -q -f pats_none.txt "${ALL[@]}"
mcase "set patterns from stdin (-f -)" 0 stdin=pats.txt -- search -f - multi.fa hdr_a.fa reads_b.fq

# --- several files, missing files, gzip, stdin ---
mcase "missing file among others" 2 -- search -k 1 "$P10" multi.fa missing.fa reads_a.fq
mcase "missing file only" 2 -- search -c --by-record "$P10" missing.fa
mcase "missing file, json" 2 -- search --json "$P10" hdr_b.fa missing.fa
mcase "missing file, -c" 2 -- search -c "$P10" missing.fa multi.fa
mcase "missing file, -q, match after" 0 -- search -q "$P10" missing.fa multi.fa
mcase "missing file, -q, match before" 0 -- search -q "$P10" multi.fa missing.fa
mcase "a directory as FILE" 2 -- search -k 1 "$P10" . multi.fa
mcase "gzip inputs" 0 -- search -k 1 --revcomp "$P10" multi.fa.gz reads_a.fq.gz hdr_a.fa
mcase "gzip FASTQ sample, -c --by-record" 0 -- search -c --by-record -k 2 "$P10" pacbio_sample.fastq.gz
mcase "stdin FASTA" 0 stdin=multi.fa -- search -k 1 --revcomp "$P10" -
mcase "stdin between files, json" 0 stdin=reads_a.fq -- search --json "$P10" hdr_a.fa - reads_b.fq
mcase "stdin gzip" 0 stdin=multi.fa.gz -- search -k 1 "$P10" -
mcase "stdin, no FILE" 0 stdin=reads_a.fq -- search -c --by-record -k 1 "$P10"

# --- bad input: an error, status 2, never a hang ---
mcase "binary byte late in a FASTA file" 2 -- search -k 1 "$P10" bad_late.fa
mcase "binary byte early, other files searched" 2 -- search -c "$P10" multi.fa bad_early.fa reads_a.fq
mcase "FASTA header with no name" 2 -- search --json "$P10" bad_noname.fa hdr_a.fa
mcase "two bad bytes, the first reported" 2 -- search -c --by-record "$P10" bad_two.fa
mcase "truncated gzip among files" 2 -- search -k 1 "$P10" multi.fa bad.fa.gz reads_a.fq
mcase "--output-per-rank, no such folder" 2 -- \
    search --output-per-rank /nonexistent/mpitest/out "$P10" multi.fa
mcase "--output-per-rank with -c (refused)" 2 -- search -c --output-per-rank pr "$P10" multi.fa
mcase "binary byte in an align query file" 2 -- align bad_late.fa target.fa
mcase "dtw infinity in the series" 2 -- dtw --top 2 dq.txt series_bad.txt
mcase "truncated FASTQ" 2 -- search "$P10" bad_trunc.fq
mcase "k >= m" 2 -- search -k 10 "$P10" multi.fa
mcase "set with -k as long as a pattern" 2 -- search -k 6 -f pats.txt multi.fa
mcase "binary byte in an align target" 2 -- align q.fa bad_late.fa
mcase "align --pairs, missing mate" 2 -- align --pairs r1.fa r2_short.fa
mcase "dtw NaN in a query" 2 -- dtw --top 2 dq_bad.txt series.txt

# --- --output FILE, written by rank 0 itself ---
mcase "--output, search listing" 0 outfile -- search -k 1 --revcomp "$P10" multi.fa reads_a.fq
mcase "--output, align" 0 outfile -- align --cigar q.fa target.fa
mcase "--output, dtw" 0 outfile -- dtw --top 2 dq.txt series.txt
# on one host each rank writes its own lines at their place in FILE (outfile.c)
mcase "--output, align --pairs, each rank's rows" 0 outfile np="$MANY" -- \
    align --mode global --pairs --cigar pc1.fa pc2.fa
mcase "--output, search --json over two inputs" 0 outfile -- \
    search --json -k 1 --revcomp "$P10" multi.fa reads_a.fq
mcase "--output, search listing, a rank with no lines" 0 outfile np="$MANY" -- search -k 1 "$P10" hdr_a.fa
mcase "--output, the input itself (refused)" 2 -- search "$P10" multi.fa --output multi.fa

# --- --output-per-rank (search, tsv/bed listing) ---
mcase "per-rank tsv, one FASTA file" 0 per_rank -- search -k 1 --revcomp "$P10" multi.fa
mcase "per-rank tsv, one FASTQ file, --chunk-bytes 64" 0 per_rank -- \
    search -k 2 --chunk-bytes 64 "$P10" reads_b.fq
mcase "per-rank bed, plain file" 0 per_rank -- search --format bed -i -k 1 needle plain.txt
mcase "per-rank set, one file" 0 per_rank -- search -f pats.fa --revcomp crlf_a.fa
# one FILE only: a rank's file would hold its share of each input in turn
mcase "per-rank several files refused" 2 -- search --output-per-rank "$DIR/refused" -k 1 "$P10" multi.fa hdr_a.fa
mcase "per-rank every file refused" 2 -- search --format bed --output-per-rank "$DIR/refused" -k 2 "$P10" "${ALL[@]}"
mcase "per-rank no match" 1 per_rank -- search "$NONE" multi.fa
mcase "per-rank stdin" 0 per_rank stdin=reads_b.fq -- search -k 1 "$P10" -

# --- align ---
LIT=$(cat lit.txt)
mcase "align --cigar" 0 -- align --cigar q.fa target.fa
mcase "align --all-ends" 0 -- align --all-ends q.fa target.fa
mcase "align --all-ends --cigar -k 30" 0 -- align --all-ends --cigar -k 30 q.fa target.fa
mcase "align --json --cigar -k 70" 0 -- align --json --cigar -k 70 q.fa target.fa
mcase "align -k 5 (few pairs within)" 0 -- align -k 5 --cigar q.fa target.fa
mcase "align literal query" 0 -- align -k 3 --cigar "seq:$LIT" target.fa
mcase "align plain target" 0 -- align --cigar q1.txt target.txt
mcase "align gzip target" 0 -- align --cigar q.fa target.fa.gz
mcase "align query on stdin" 0 stdin=q.fa -- align --all-ends - target.fa
mcase "align target on stdin" 0 stdin=target.fa -- align --cigar q.fa -
mcase "align plain target --all-ends -k" 0 -- align --all-ends -k 30 q1.txt target.txt
mcase "align query longer than the target" 0 -- align --cigar q.fa one.fq
mcase "align repeat, ties" 0 -- align --cigar rep_q.txt rep.fa
mcase "align repeat --all-ends" 0 -- align --all-ends --cigar rep_q.txt rep.fa
mcase "align repeat --all-ends -k 2 json" 0 -- align --all-ends -k 2 --json rep_q.txt rep.fa
mcase "align FASTQ target, many records" 0 -- align -k 25 --cigar q.fa tq.fq
mcase "align nothing within k" 1 -- align -k 2 "seq:$LIT" tq.fq
# --revcomp never makes a text target DNA: a split target is refused as one
# process refuses it (a rank, which holds no target records, once took the
# query's IUPAC letters alone for DNA). 400 kB: rank 0's range holds the first
# 64 KiB that the message counts, up to -np 4.
yes 'a quick brown fox jumps over the lazy dog' | head -c 400000 >prose.txt
mcase "align --revcomp, a text target" 2 -- align --revcomp -k 3 "seq:$LIT" prose.txt
mcase "align --pairs infix" 0 -- align --pairs -k 10 --json --cigar ip_q.fa ip_t.fa
mcase "align global all against all" 0 -- align --mode global --cigar gq.fa gt.fa
mcase "align global --pairs, fewer pairs than ranks" 0 np="$MANY" -- \
    align --mode global --pairs --cigar gq.fa gt.fa
mcase "align repeat, many rank counts" 0 np="$MANY" -- align --all-ends -k 3 rep_q.txt rep.fa
mcase "align global --pairs -k 15 --cigar" 0 -- align --mode global --pairs --cigar -k 15 r1.fa r2.fa
mcase "align global --pairs json" 0 -- align --mode global --pairs --json r1.fa r2.fa
mcase "align global --pairs four-russians" 0 -- \
    align --mode global --pairs --algo four-russians r1.fa r2.fa
mcase "align global --pairs TSV" 0 -- align --mode global --pairs --cigar pairs.tsv
# --pairs of FASTA files: each rank reads its pairs' records alone
mcase "align global --pairs, CRLF, blanks, empty records" 0 np="$MANY" -- \
    align --mode global --pairs --cigar pc1.fa pc2.fa
mcase "align --pairs infix, an empty query (read whole)" 2 -- align --pairs -k 40 --cigar pc1.fa pc2.fa
mcase "align --pairs, the alphabet from 64 KiB over ranks" 0 -- \
    align --mode global --pairs --explain-alphabet sn1.fa sn2.fa
mcase "align --pairs, queries of IUPAC codes" 1 -- align --pairs -k 30 --explain-alphabet iu1.fa nq2.fa
mcase "align --pairs, a query not IUPAC, late" 2 -- align --pairs -k 30 nq1.fa nq2.fa
mcase "align --pairs FASTQ, one record" 0 -- align --mode global --pairs --cigar one.fq one.fq
# --pairs of FASTQ files: the ranks agree on their records' starts first
mcase "align global --pairs FASTQ, multi-line, quality lines like headers" 0 np="$MANY" -- \
    align --mode global --pairs --cigar pq1.fq pq2.fq
mcase "align --pairs FASTQ against FASTA" 0 -- align --mode global --pairs --json pq1.fq pc2.fa
mcase "align --pairs FASTQ, missing mate" 2 -- align --mode global --pairs pq1.fq pq2_short.fq
mcase "align --pairs FASTQ, a broken record late (read whole)" 2 -- \
    align --mode global --pairs pq1.fq pq2_bad.fq
mcase "align --pairs, a bad byte late (read whole)" 2 -- align --mode global --pairs bad_late.fa bad_late.fa

# --- dtw ---
mcase "dtw --top 3" 0 -- dtw --top 3 dq.txt series.txt
mcase "dtw -k" 0 -- dtw -k 12 dq.txt series.txt
mcase "dtw --top -k" 0 -- dtw --top 3 -k 20 dq.txt series.txt
mcase "dtw --path" 0 -- dtw --path --top 2 dq.txt series.txt
mcase "dtw nothing within -k" 1 -- dtw -k 0.5 dq.txt series.txt
mcase "dtw global" 0 -- dtw --mode global dq.txt series_short.txt
mcase "dtw ucr" 0 -- dtw --mode ucr --window 0.1 --top 2 dq.txt series.txt
mcase "dtw ECG beats --path" 0 -- dtw --top 2 --path beats.txt ecg_mitdb100_60s.csv
mcase "dtw flat, ties, more ranks than queries" 0 np="$MANY" -- dtw --top 2 flat_q.txt flat.txt
mcase "dtw global, more ranks than queries" 0 np="$MANY" -- dtw --mode global --path flat_q.txt series_short.txt
mcase "dtw flat -k 0" 0 -- dtw -k 0 flat_q.txt flat.txt
mcase "dtw query on stdin" 0 stdin=dq.txt -- dtw --top 2 - series.txt
mcase "dtw series on stdin" 0 stdin=series.txt -- dtw --top 2 dq.txt -

wait
report
REPORTED=1

# The plain tool under the launcher: every rank would print the whole
# output, so each one stops with the message instead.
if [ -n "${WM_PLAIN_TOOL:-}" ]; then
    plain_out=$RES/plain.out
    timeout -k 10 "$TIMEOUT" "$MPIEXEC" -np 2 "${MPIFLAGS[@]}" "$WM_PLAIN_TOOL" \
        search ACGT "$IN/q.fa" >"$plain_out" 2>"$plain_out.err"
    plain_rc=$?
    if [ "$plain_rc" -ne 0 ] && [ ! -s "$plain_out" ] &&
        grep -q '^warpmatch: started by an MPI launcher.*run warpmatch-mpi' "$plain_out.err"; then
        pass
    else
        fail "plain warpmatch under $MPIEXEC -np 2: status $plain_rc, expected non-zero, no output, the message"
        sed 's/^/    /' "$plain_out.err" | head -10
    fi
fi
echo "mpi tests: $N_PASS passed, $N_FAIL failed ($NC cases, $NL launches, $(( $(date +%s) - T0 )) s)"
[ "$N_FAIL" -eq 0 ]
