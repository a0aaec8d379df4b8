#!/usr/bin/env bash
# test_set_k.sh -- pattern sets within k errors (issue 17, item 5): the set
# run against the single-pattern path, and against a brute-force oracle.
#
# 1. Random cases (set_k_case.py gen; seeded, the seed and case are printed
#    on failure): DNA FASTA with several records (some shorter than the
#    patterns or empty, N runs, soft-masked stretches, periodic stretches,
#    repeats, a name used twice), FASTQ, plain DNA, two files at once, prose
#    with binary bytes (text alphabet, -i, -w); sets of 1-12 patterns of
#    mixed lengths 5-300 (pieces of the text with planted edits, random ones,
#    IUPAC codes, duplicates, prefixes and suffixes of each other, reverse
#    complements), numbered or named (FASTA PATFILE) or given as -e; k 0-8
#    and up to m-1 for short patterns; edit and --hamming; with and without
#    --revcomp, and --best-per-locus apart. Expected: every pattern run alone
#    (`search -k K -e P`), labelled and merged (set_k_case.py merge, records
#    keyed by their order in the file). The set run must print those bytes
#    with -j 1 and 2, default and tiny chunks (64 bytes, 1K), -f and -e,
#    --backend cuda where `warpmatch info` lists a GPU; and
#    -c, --by-record, --count-per-pattern [--all-patterns], -m, -o (plain
#    files), --json and --format bed must agree with the same rows, and so
#    must a run on standard input (with --alphabet dna given, for DNA).
#    k = 0 keeps the exact-set format (no errors column). k >= a pattern's
#    length: exit 2 and a message naming that pattern.
# 2. set_k_oracle.py: tiny texts and sets of 1-6 patterns against a brute
#    force written from the contract of a match (no tool output reused).
#
# WM_TEST_SCALE multiplies the number of cases; WM_SEED picks them;
# WM_CASE=N runs random case N alone (part 1), keeping its folder
# (printed) when WM_KEEP=1.
#
#     bash tests/cli/test_set_k.sh /path/to/warpmatch /path/to/project_root
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C

HERE=$ROOT/tests/cli
SEED=${WM_SEED:-20261117}
SCALE=${WM_TEST_SCALE:-1}
N_CASES=$(python3 -c "import sys; print(max(1, int(30 * float(sys.argv[1]))))" "$SCALE")
N_ORACLE=$(python3 -c "import sys; print(max(1, int(250 * float(sys.argv[1]))))" "$SCALE")

# The thread counts and chunk sizes a set run is tried with (three a case).
CONFIGS=("-j 1" "-j 2 --chunk-bytes 64" "-j 2 --chunk-bytes 1K"
         "-j 1 --chunk-bytes 64 --backend cpu" "-j 2" "-j 1 --chunk-bytes 1K")

# singles DIR: each pattern of DIR/pats.txt alone over DIR/u/FILES, into
# DIR/single.N (N from 1); fails (and says why) when one run errs.
singles() {
    local d=$1 i=0 p rc
    while IFS= read -r p || [ -n "$p" ]; do
        i=$((i + 1))
        # shellcheck disable=SC2086  # FLAGS and FILES are word lists
        (cd "$d/u" && "$W" search -k "$K" $FLAGS -e "$p" $FILES) \
            >"$d/single.$i" 2>"$d/single.err"
        rc=$?
        if [ "$rc" -gt 1 ]; then
            fail "$NAME: the single run of pattern $i failed ($rc): $(head -c 300 "$d/single.err")"
            return 1
        fi
    done <"$d/pats.txt"
}

# set_run DIR ARGS...: the set run in DIR/d (the files as the single runs
# name them), patterns from the PATFILE, or as -e when USE_E is 1.
set_run() {
    local d=$1
    shift
    local pargs=() p
    if [ "$USE_E" = 1 ]; then
        while IFS= read -r p || [ -n "$p" ]; do pargs+=(-e "$p"); done <"$d/pats.txt"
    else
        pargs=(-f "../$PATFILE")
    fi
    # shellcheck disable=SC2086
    run_at "$d/d" search -k "$K" $FLAGS "${pargs[@]}" "$@" $FILES
}

# expect_same NAME EXPECTED_FILE RC: the last run's status and bytes.
expect_same() {
    check_rc "$1" "$3"
    check_no_err "$1"
    check_out "$1" "$2"
}

# one_case CASE: builds random case CASE in its own folder and checks it.
one_case() {
    local c=$1 d=$TMP/case$1 failed_before=$N_FAIL
    mkdir -p "$d"
    python3 "$HERE/set_k_case.py" gen "$SEED" "$c" "$d" || {
        fail "case $c: set_k_case.py gen"
        return
    }
    # shellcheck disable=SC1091
    . "$d/case.sh"
    NAME="seed $SEED case $c ($KIND, k $K, $NPAT patterns, $FLAGS)"
    USE_E=0
    [ "$PATFILE" = pats.txt ] && [ "$NPAT" -ge 2 ] && [ "$NPAT" -le 6 ] && [ $((c % 3)) = 0 ] && USE_E=1
    singles "$d" || return
    python3 "$HERE/set_k_case.py" merge "$d" >"$d/expect" || {
        fail "$NAME: merge"
        return
    }
    local want_rc=1
    [ -s "$d/expect" ] && want_rc=0

    local i cfg
    for i in 0 1 2; do
        cfg=${CONFIGS[$(((c + 2 * i) % ${#CONFIGS[@]}))]}
        # shellcheck disable=SC2086
        set_run "$d" $cfg
        expect_same "$NAME, $cfg" "$d/expect" "$want_rc"
    done
    if have_gpu; then # the same bytes from the CUDA backend; a set the GPU
        # does not take (bytes, -i, -w, regions with edits) says so, no more
        set_run "$d" --backend cuda -j 2
        check_rc "$NAME, --backend cuda" "$want_rc"
        if grep -qv '^warpmatch: note: .*pattern set within k errors runs on the CPU threads' "$ERR"; then
            fail "$NAME, --backend cuda: unexpected stderr"
            sed 's/^/    /' "$ERR" | head -20
        else
            pass
        fi
        check_out "$NAME, --backend cuda" "$d/expect"
    fi

    # The count modes and the other formats carry the same rows.
    case $((c % 4)) in
    0)
        python3 "$HERE/set_k_case.py" counts "$d" c >"$d/expect.c"
        set_run "$d" -c
        expect_same "$NAME, -c" "$d/expect.c" "$want_rc"
        python3 "$HERE/set_k_case.py" counts "$d" by-record >"$d/expect.r"
        set_run "$d" --by-record -j 2 --chunk-bytes 64
        expect_same "$NAME, --by-record" "$d/expect.r" "$want_rc"
        ;;
    1)
        # --count-per-pattern counts every match (no -w, --best-per-locus)
        case " $FLAGS " in
        *" -w "* | *" --best-per-locus "*) ;;
        *)
            python3 "$HERE/set_k_case.py" counts "$d" per >"$d/expect.p"
            set_run "$d" --count-per-pattern
            expect_same "$NAME, --count-per-pattern" "$d/expect.p" "$want_rc"
            python3 "$HERE/set_k_case.py" counts "$d" all >"$d/expect.a"
            set_run "$d" --count-per-pattern --all-patterns -j 2 --chunk-bytes 1K
            expect_same "$NAME, --all-patterns" "$d/expect.a" "$want_rc"
            ;;
        esac
        ;;
    2)
        python3 "$HERE/set_k_case.py" full "$d" >"$d/expect.f"
        set_run "$d" --json -j 2 --chunk-bytes 64
        check_rc "$NAME, --json" "$want_rc"
        check_no_err "$NAME, --json"
        python3 "$HERE/set_k_case.py" json "$d" "$OUT" >"$d/got.f" 2>"$d/json.err" || {
            fail "$NAME, --json: not JSON Lines of matches: $(head -c 300 "$d/json.err")"
            return
        }
        if cmp -s "$d/got.f" "$d/expect.f"; then pass; else
            fail "$NAME, --json: the rows (source record start end pattern errors strand) differ"
            diff "$d/expect.f" "$d/got.f" | head -10 | sed 's/^/    /'
        fi
        ;;
    3)
        python3 "$HERE/set_k_case.py" bed "$d" >"$d/expect.b"
        set_run "$d" --format bed
        expect_same "$NAME, --format bed" "$d/expect.b" "$want_rc"
        python3 "$HERE/set_k_case.py" head "$d" 3 >"$d/expect.m"
        set_run "$d" -m 3 -j 2 --chunk-bytes 64
        expect_same "$NAME, -m 3" "$d/expect.m" "$want_rc"
        if [ "$KIND" = plain ] || [ "$KIND" = text ]; then
            python3 "$HERE/set_k_case.py" only "$d" >"$d/expect.o"
            set_run "$d" -o
            expect_same "$NAME, -o" "$d/expect.o" "$want_rc"
        fi
        ;;
    esac

    # Standard input (source "-") and, for DNA, --alphabet dna given: the
    # same rows.
    if [ $((c % 3)) = 1 ] && [ "$FILES" = "${FILES%% *}" ]; then
        sed "s|^$FILES$TAB|-$TAB|" "$d/expect" >"$d/expect.in"
        local alpha=()
        [ "$KIND" != text ] && alpha=(--alphabet dna)
        # shellcheck disable=SC2086
        run_cmd "$W" search -k "$K" $FLAGS -f "$d/$PATFILE" "${alpha[@]}" -j 2 \
            --chunk-bytes 64 - <"$d/d/$FILES"
        expect_same "$NAME, standard input ${alpha[*]}" "$d/expect.in" "$want_rc"
    fi

    # k >= a pattern's length: exit 2, naming the (first) pattern that short.
    if [ $((c % 5)) = 0 ]; then
        local lab pat
        lab=$(sed -n "${SHORTEST_I}p" "$d/labels")
        pat=$(sed -n "${SHORTEST_I}p" "$d/pats.txt")
        local k_saved=$K
        K=$SHORTEST
        set_run "$d"
        K=$k_saved
        check_rc "$NAME, -k $SHORTEST = the length of pattern $lab" 2
        check_empty_out "$NAME, -k $SHORTEST"
        if grep -q '^warpmatch: ' "$ERR" &&
            { grep -Eq "(pattern|#)[^0-9A-Za-z]{0,3}$lab([^0-9]|$)" "$ERR" ||
                { [ "$PATFILE" = pats.fa ] && grep -qF -- "$lab" "$ERR"; } ||
                grep -qF -- "$pat" "$ERR"; }; then
            pass
        else
            fail "$NAME, -k $SHORTEST: the message does not name pattern $lab ($pat)"
            sed 's/^/    /' "$ERR" | head -5
        fi
    fi

    # --best-per-locus (a locus: one pattern and strand): each pattern alone
    # with it, merged, against the set with it, and -c counting those rows.
    if [ "$BEST" = 1 ]; then
        local flags_saved=$FLAGS
        FLAGS="$FLAGS --best-per-locus"
        if singles "$d" && python3 "$HERE/set_k_case.py" merge "$d" >"$d/expect.best"; then
            want_rc=1
            [ -s "$d/expect.best" ] && want_rc=0
            set_run "$d" -j 2 --chunk-bytes 64
            expect_same "$NAME, --best-per-locus" "$d/expect.best" "$want_rc"
            set_run "$d" -j 1
            expect_same "$NAME, --best-per-locus -j 1" "$d/expect.best" "$want_rc"
            python3 "$HERE/set_k_case.py" counts "$d" c >"$d/expect.bc"
            set_run "$d" -c
            expect_same "$NAME, --best-per-locus -c" "$d/expect.bc" "$want_rc"
        fi
        FLAGS=$flags_saved
    fi

    [ "$N_FAIL" -gt "$failed_before" ] &&
        echo "  reproduce: WM_SEED=$SEED WM_CASE=$c WM_KEEP=1 bash $0 $W $ROOT"
    if [ -n "${WM_KEEP:-}" ]; then
        cp -r "$d" "${TMPDIR:-/tmp}/set_k_case$c" && echo "kept: ${TMPDIR:-/tmp}/set_k_case$c"
    fi
    rm -rf "$d"
}

# expect_rows NAME EXPECTED ARGS...: lib.sh's expect_match, its stdout check
# fed by a here-string: expect_match pipes into check_tsv, whose pass or fail
# is then counted in a subshell and lost.
expect_rows() {
    local name=$1 want=$2
    shift 2
    run "$@"
    check_rc "$name" 0
    check_no_err "$name"
    check_tsv "$name" <<<"$want"
}

# ---- 0. hand-worked ---------------------------------------------------------------------
cd "$TMP" || exit 2
printf 'ACGTA' >h1.txt # A0 C1 G2 T3 A4 (DNA)
printf 'TACGT' >h2.txt # T0 A1 C2 G3 T4; TACGT is ACGTA's reverse complement
if [ -z "${WM_CASE:-}" ]; then
    # ACGTA within 1: [0,4) (its last A deleted) and [0,5); CCCCC nowhere.
    expect_rows "hand: 2 patterns, k 1" "h1.txt . 0 4 1 1
h1.txt . 0 5 1 0" search -k 1 -e ACGTA -e CCCCC h1.txt
    # A duplicate: once under each number, by end then pattern.
    expect_rows "hand: a duplicate" "h1.txt . 0 4 1 1
h1.txt . 0 4 2 1
h1.txt . 0 5 1 0
h1.txt . 0 5 2 0" search -k 1 -e ACGTA -e ACGTA h1.txt
    # Both strands: ACGTA + at [1,5) (ACGT, one deletion), - (TACGT) at [0,4)
    # and [0,5); GG + at G [3,4) and GT [3,5), - (CC) at C [2,3) and CG [2,4).
    expect_rows "hand: --revcomp" "h2.txt . 2 3 2 1 -
h2.txt . 0 4 1 1 -
h2.txt . 3 4 2 1 +
h2.txt . 2 4 2 1 -
h2.txt . 1 5 1 1 +
h2.txt . 0 5 1 0 -
h2.txt . 3 5 2 1 +" search -k 1 --revcomp -e ACGTA -e GG h2.txt
    # --best-per-locus: [0,4) and [0,5) of ACGTA are one locus; its best is
    # [0,5) (0 errors), for each copy of a duplicate.
    expect_rows "hand: --best-per-locus" "h1.txt . 0 5 1 0" \
        search -k 1 -e ACGTA -e CCCCC --best-per-locus h1.txt
    expect_rows "hand: --best-per-locus, a duplicate" "h1.txt . 0 5 1 0
h1.txt . 0 5 2 0" search -k 1 -e ACGTA -e ACGTA --best-per-locus h1.txt
    # k = 0: the exact set's columns (no errors).
    expect_rows "hand: k 0" "h1.txt . 1 4 2
h1.txt . 0 5 1" search -k 0 -e ACGTA -e CGT h1.txt
fi

# ---- 1. the set against its patterns run alone ------------------------------------------
if [ -n "${WM_CASE:-}" ]; then
    one_case "$WM_CASE"
    finish
fi
for c in $(seq 0 $((N_CASES - 1))); do
    one_case "$c"
done

# ---- 2. tiny cases against the brute force ------------------------------------------------
python3 "$HERE/set_k_oracle.py" "$W" "$SEED" "$N_ORACLE" "$TMP" >"$TMP/oracle.log" 2>&1
grep -v '^set_k_oracle: [0-9]* passed, 0 failed' "$TMP/oracle.log" | head -n 60
read -r n_ok n_bad < <(sed -n 's/^set_k_oracle: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$TMP/oracle.log")
if [ -z "${n_ok:-}" ]; then
    fail "set_k_oracle.py did not finish"
else
    N_PASS=$((N_PASS + n_ok))
    N_FAIL=$((N_FAIL + n_bad))
fi
finish
