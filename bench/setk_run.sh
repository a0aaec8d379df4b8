#!/usr/bin/env bash
# setk_run.sh -- the k-error set benchmarks (issue 17 item 6): warpmatch beside
# RazerS 3 and Bowtie 1, on the same host in the same run, and what each reports.
#
#   bash bench/setk_run.sh OUTDIR
#
# The full run on a host with no network (seqan-apps and bowtie carried as
# .debs, bench/peers/fetch_setk_debs.sh):
#   bash bench/setk_prep.sh -b build OUT          # 1 M reads, 10,000 guides, ...
#   PEERS_DEBS=.gpu/debs/setk THREADS=16 bash bench/setk_run.sh OUT
# A smoke run on 2 cores: setk_prep.sh --small, and ONLY=reads_ecoli,reads_chrx
# (the guides and primers take minutes per 100 patterns there).
#
# OUTDIR holds bench/setk_prep.sh's inputs (setk_inputs.tsv names the
# workloads). Results go to OUTDIR/results/: each tool's output of the last
# repeat (TOOL.WORKLOAD.out), its stderr and times, setk_results.tsv (one row
# per tool and workload) and setk_results.md (the same table, then the
# comparisons), which is also printed on stdout.
#
# Per workload (name, k, metric from setk_inputs.tsv):
#   warpmatch-cpu    warpmatch search -f PATTERNS -k K [--hamming] --revcomp
#                    --best-per-locus --backend cpu -j THREADS GENOME
#   warpmatch-cuda   the same with --backend cuda, when nvidia-smi lists a GPU
#                    and this warpmatch runs --backend cuda (its bytes are
#                    compared with warpmatch-cpu's: they must be identical)
#   warpmatch-cpu+x  the same plus the workload's extra flags (guides:
#                    --exact-suffix 3), when this warpmatch's --help has them
#   razers3          razers3 -i I -rr 100 -m RAZERS_MAX_HITS -tc THREADS [-ng]
#                    [-mN] -o OUT.razers GENOME PATTERNS: full sensitivity, every
#                    hit up to RAZERS_MAX_HITS per read (-m is "the best
#                    RAZERS_MAX_HITS"; -dr is left at "all"). I = 100 * (1 - x)
#                    with x in the middle of [k / Lmin, (k + 1) / Lmax), so
#                    that RazerS 3's floor(L * x) error bound is k for every
#                    pattern length L (n/a when no x does it). -ng for Hamming,
#                    -mN when a pattern holds N (guides' NGG; RazerS 3 then also
#                    lets a genome N match, warpmatch does not). RazerS 3 has no
#                    exact-suffix rule: on guides it also reports hits with a
#                    mismatch in the PAM's GG, as does warpmatch-cpu
#   bowtie           bowtie -f -v KB -a -p THREADS -x INDEX PATTERNS
#                    (bowtie-align-s, the program behind the wrapper): Hamming
#                    only, and KB = min(k, 3): 3 mismatches is bowtie 1's limit
#                    (-v 0..3), so on the k = 4 workloads bowtie runs k = 3 and
#                    is compared with warpmatch-cpu-hamKB, warpmatch with
#                    --hamming -k KB. bowtie counts a pattern's N as a mismatch
#                    everywhere (guides: the PAM's N costs one of the 3).
#                    bowtie-build runs once per genome (its own row; the index
#                    is kept in OUTDIR/bowtie/)
#   warpmatch-cpu-1by1  only when this warpmatch has no k-error sets yet (issue
#                    17 not merged): the first EMULATE_MAX patterns, one
#                    `warpmatch search -k K --revcomp --best-per-locus -e P`
#                    per pattern (the single-pattern path), rows labelled with
#                    the pattern: today's way, and the expected output of the
#                    set path for those patterns
#
# Timing: /usr/bin/time (wall seconds, peak RSS) around the whole command
# (start-up, reading the genome and writing the output included, as a user
# sees it), median of REPEATS runs; REPEATS_BIG for workloads of BIG_COUNT or
# more patterns; with REPEAT_UNDER, the repeats only when the first run took
# under that many seconds. Per workload, warpmatch-cuda runs before
# warpmatch-cpu (a run cut by PEER_TIMEOUT or DEADLINE loses the slow one
# first); when warpmatch-cpu goes over PEER_TIMEOUT, its variants (+x, -hamKB)
# on that workload are not run (the same scan). Rows: the lines a tool printed; pairs: distinct (pattern,
# strand, reference, start); patterns hit: patterns with a row. RazerS 3 with
# -tc 1 or more (its parallel code) printed some matches twice, identical
# lines, where -tc 0 did not: rows > pairs in its rows. PEER_TIMEOUT bounds
# warpmatch's runs too.
#
# Comparisons (bench/setk_compare.py, needs python3-edlib): warpmatch-cpu vs
# razers3 and warpmatch-cpu-hamKB vs bowtie: rows in both (same pattern,
# strand and reference, start or end within +-k), only in one, and the edlib
# oracle's word on each row only one tool has (with warpmatch's rows before
# --best-per-locus, to tell a hit chained into a neighbour's row from one
# missed); how many planted origins (*.truth.tsv) each tool reports.
#
# Environment:
#   BUILD           build folder holding warpmatch [build]; WARPMATCH: the
#                   binary itself [BUILD/warpmatch]
#   THREADS         threads for every tool [all online CPUs]
#   REPEATS [3], REPEATS_BIG [1], BIG_COUNT [500000], REPEAT_UNDER [0: always]
#   ONLY            workloads to run, comma separated, in that order [all of
#                   setk_inputs.tsv, in its order]
#   TOOLS           any of "warpmatch razers3 bowtie" [all three]
#   PEERS_DIR       a folder where bench/peers/unpack_debs.sh unpacked
#                   seqan-apps and bowtie (PEERS_DIR/usr/bin); PEERS_DEBS: the
#                   .deb folder of bench/peers/fetch_setk_debs.sh, unpacked into
#                   OUTDIR/peers first. Else razers3 and bowtie come from PATH
#   PEER_TIMEOUT    seconds per run of any tool [3600]; PEER_TIMEOUT_<workload>
#                   (e.g. PEER_TIMEOUT_guides_chrx=30): the same for one
#                   workload's runs (bowtie-build keeps PEER_TIMEOUT)
#   DEADLINE        a time (seconds since the epoch) by which everything ends:
#                   each run (timed or not) is cut at the time left, none starts
#                   after it (rows "not run: past DEADLINE"), and the report is
#                   written [none]
#   RAZERS_MAX_HITS [100000]
#   EMULATE_MAX     patterns for warpmatch-cpu-1by1 [200; 0 = never]
#   PYTHON          a python3 with edlib [python3, else /usr/bin/python3]
#   COMPARE         0 skips the comparisons [1]
#   ALL_ENDS        0: no untimed warpmatch run without --best-per-locus for
#                   the comparisons (its output is about 2k + 1 rows per
#                   occurrence for edits) [1]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)

# ---- internal: the one-pattern-a-pass fallback, run under /usr/bin/time -----
# Prints the set's TSV (the pattern's name put before errors), pattern by
# pattern: not sorted as the set path sorts, which the comparisons ignore.
if [[ "${1:-}" == "--one-by-one" ]]; then
  shift
  wm=$1 patterns=$2 genome=$3 k=$4 metric=$5 threads=$6 max=$7
  ham=()
  [[ "$metric" == hamming ]] && ham=(--hamming)
  one=$(mktemp)
  trap 'rm -f "$one"' EXIT
  awk -v max="$max" '
    /^>/ { if (n == max) exit; n++; sub(/^>/, ""); split($0, w, /[ \t]/); names[n] = w[1]; next }
    n { seq[n] = seq[n] $0 }
    END { for (i = 1; i <= n; i++) print names[i] "\t" seq[i] }' "$patterns" |
    while IFS=$'\t' read -r name seq; do
      "$wm" search -k "$k" "${ham[@]}" --revcomp --best-per-locus --backend cpu -j "$threads" \
        -e "$seq" "$genome" >"$one"
      (( $? <= 1 )) || exit 2
      awk -F '\t' -v OFS='\t' -v p="$name" '{ print $1, $2, $3, $4, p, $5, $6 }' "$one"
    done
  exit "${PIPESTATUS[1]}"
fi

if (( $# != 1 )); then
  sed -n '5p' "$0" >&2
  exit 2
fi
out=$1
inputs=$out/setk_inputs.tsv
[[ -r "$inputs" ]] || { echo "setk_run: $inputs not found (run bench/setk_prep.sh $out first)" >&2; exit 2; }
out=$(cd "$out" && pwd)
res=$out/results
mkdir -p "$res"

build=${BUILD:-build}
wm=${WARPMATCH:-$build/warpmatch}
[[ -x "$wm" ]] || { echo "setk_run: $wm not built (cmake --build $build --target warpmatch_cli)" >&2; exit 2; }
wm=$(cd "$(dirname "$wm")" && pwd)/$(basename "$wm")
threads=${THREADS:-$(nproc)}
repeats=${REPEATS:-3}
repeats_big=${REPEATS_BIG:-1}
big_count=${BIG_COUNT:-500000}
tools=" ${TOOLS:-warpmatch razers3 bowtie} "
limit=${PEER_TIMEOUT:-3600}
wl_limit=$limit
repeat_under=${REPEAT_UNDER:-0}
deadline=${DEADLINE:-}
max_hits=${RAZERS_MAX_HITS:-100000}
emulate_max=${EMULATE_MAX:-200}
compare=${COMPARE:-1}
all_ends_on=${ALL_ENDS:-1}
only=",${ONLY:-},"

py=${PYTHON:-}
if [[ -z "$py" ]]; then
  for c in python3 /usr/bin/python3; do
    "$c" -c 'import edlib' 2>/dev/null && { py=$c; break; }
  done
  [[ -n "$py" ]] || { py=python3; echo "setk_run: no python3 with edlib (python3-edlib): no comparisons" >&2; compare=0; }
fi
cmp_py=$here/setk_compare.py

# ---- the peers: PATH, or a folder of unpacked .debs ---------------------------
if [[ -n "${PEERS_DEBS:-}" ]]; then
  eval "$(bash "$here/peers/unpack_debs.sh" "$PEERS_DEBS" "$out/peers")" || exit 2
elif [[ -n "${PEERS_DIR:-}" ]]; then
  arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  export PATH="$PEERS_DIR/usr/bin:$PATH"
  export LD_LIBRARY_PATH="$PEERS_DIR/usr/lib/$arch${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
peer_ok() {  # NAME VERSION_ARGS...: prints why not, or nothing
  local name=$1; shift
  if ! command -v "$name" >/dev/null; then echo "$name not found (PATH, PEERS_DIR or PEERS_DEBS)"; return; fi
  "$name" "$@" >/dev/null 2>"$res/$name.version.err" ||
    echo "$name does not start: $(head -1 "$res/$name.version.err")"
}
# bowtie and bowtie-build are python3 wrappers around bowtie-align-s and
# bowtie-build-s (small indexes: genomes under 4 Gb): call those when present,
# so that a host without python3 runs them too.
bowtie=bowtie bowtie_build=bowtie-build
command -v bowtie-align-s >/dev/null && bowtie=bowtie-align-s
command -v bowtie-build-s >/dev/null && bowtie_build=bowtie-build-s
razers_why="" bowtie_why=""
[[ "$tools" == *" razers3 "* ]] && razers_why=$(peer_ok razers3 --version)
[[ "$tools" == *" bowtie "* ]] && bowtie_why=$(peer_ok "$bowtie" --version)

have_time=0
[[ -x /usr/bin/time ]] && have_time=1
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -1)
gpu=""
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  gpu=$(nvidia-smi -L | head -1)
fi

# ---- what this warpmatch can do -------------------------------------------------
probe=$res/probe.fa
printf '>probe\nACGTACGTACGTTTGCAGGACCATTGACACGT\n' >"$probe"
wm_sets=1
"$wm" search -k 1 -e ACGTACGTAC -e TTGCAGGACC --revcomp "$probe" >/dev/null 2>"$res/probe.err"
(( $? <= 1 )) || wm_sets=0
wm_cuda=""
if [[ -n "$gpu" ]]; then
  if "$wm" search --backend cuda -e ACGTACGTAC "$probe" >/dev/null 2>"$res/probe_cuda.err" || (( $? == 1 )); then
    wm_cuda=1
  else
    echo "setk_run: a GPU is listed but warpmatch --backend cuda fails: $(head -1 "$res/probe_cuda.err")" >&2
  fi
fi
wm_help=$("$wm" search --help 2>&1)

# ---- running and timing ----------------------------------------------------------
median() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# cap LIMIT: prints the seconds a run may take, LIMIT or the time left before
# DEADLINE, whichever is less (0: do not start it).
cap() {
  local left
  if [[ -z "$deadline" ]]; then echo "$1"; return; fi
  left=$(( deadline - $(date +%s) ))
  if (( left < 2 )); then echo 0; elif (( left < $1 )); then echo "$left"; else echo "$1"; fi
}
# bounded CMD...: CMD under cap's limit (untimed runs: all_ends, the
# comparisons); exit 124 when there is no time left.
bounded() {
  local lim
  lim=$(cap "$limit")
  (( lim > 0 )) || return 124
  timeout "$lim" "$@"
}

# timed TOOL WORKLOAD REPS OUTFILE CMD...: runs CMD REPS times (stdout to
# OUTFILE, stderr to RES/TOOL.WORKLOAD.err), each under PEER_TIMEOUT; sets
# t_median (seconds), t_rss (peak KiB, the largest), t_why (empty when all
# runs succeeded). With OK1=1 (warpmatch), exit 1 is "nothing found", not a
# failure. Its limit: TLIM [the workload's PEER_TIMEOUT], cut at DEADLINE; a
# repeat is left out (the median of those made) when the first run took
# REPEAT_UNDER seconds or more, or when twice its time is not left.
timed() {
  local tool=$1 wl=$2 reps=$3 dst=$4; shift 4
  local tag=$tool.$wl r rc t0 t1 lim full=${TLIM:-$wl_limit} first
  : >"$res/$tag.times"
  t_median=n/a t_rss=n/a t_why=""
  for (( r = 0; r < reps; r++ )); do
    lim=$(cap "$full")
    if (( r > 0 )); then
      first=$(awk 'NR == 1 { print $1 }' "$res/$tag.times")
      awk -v f="$first" -v u="$repeat_under" -v l="$lim" -v c="$full" \
        'BEGIN { exit !((u > 0 && f >= u) || (l < c && 2 * f + 2 > l)) }' && break
    fi
    if (( lim <= 0 )); then t_why="not run: past DEADLINE"; return; fi
    if (( have_time )); then
      timeout "$lim" /usr/bin/time -f '%e %M' -o "$res/$tag.time1" "$@" >"$dst" 2>"$res/$tag.err"
      rc=$?
      [[ -s "$res/$tag.time1" ]] && tail -1 "$res/$tag.time1" >>"$res/$tag.times"
    else
      t0=$(date +%s.%N)
      timeout "$lim" "$@" >"$dst" 2>"$res/$tag.err"
      rc=$?
      t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f n/a\n", b - a }' >>"$res/$tag.times"
    fi
    if (( rc == 124 )); then
      if (( lim < full )); then t_why="cut at DEADLINE after ${lim}s"; else t_why="over PEER_TIMEOUT=${lim}s"; fi
      return
    fi
    if (( rc > ${OK1:-0} )); then
      t_why="exit $rc: $(grep -v '^Command exited' "$res/$tag.err" | head -1 | cut -c1-160)"
      return
    fi
  done
  t_median=$(awk '{ print $1 }' "$res/$tag.times" | median)
  t_rss=$(awk '$2 != "n/a" { if ($2 > m) m = $2 } END { print (m ? m : "n/a") }' "$res/$tag.times")
}

rows_tsv=$res/setk_results.tsv
printf 'tool\tworkload\tpatterns\tk\tmetric\tthreads\tseconds\tpatterns_per_s\tpeak_rss_mib\trows\tpairs\tpatterns_hit\tnote\n' >"$rows_tsv"
# row TOOL WORKLOAD N K METRIC FORMAT FILE NOTE: one line of the table, from
# timed's results and FILE's counts.
row() {
  local tool=$1 wl=$2 n=$3 k=$4 metric=$5 fmt=$6 file=$7 note=$8 counts rate rss lim
  local nrows=n/a pairs=n/a hit=n/a
  if [[ -z "$t_why" && -n "$fmt" ]]; then
    # Python's count holds every row: tens of millions (primers: hundreds of
    # hits each in chrX's repeats) take minutes, so it has the run's limit.
    lim=$(cap "$wl_limit")
    counts=$( (( lim > 0 )) && timeout "$lim" "$py" "$cmp_py" count "$fmt" "$file" 2>/dev/null)
    if [[ -z "$counts" ]]; then
      if (( lim > 0 )); then note="${note:+$note; }rows not counted (count failed or over ${lim}s)"
      else note="${note:+$note; }rows not counted (past DEADLINE)"; fi
    fi
    nrows=$(sed -n 's/.*rows=\([0-9]*\).*/\1/p' <<<"$counts")
    pairs=$(sed -n 's/.*pairs=\([0-9]*\).*/\1/p' <<<"$counts")
    hit=$(sed -n 's/.*patterns=\([0-9]*\).*/\1/p' <<<"$counts")
  fi
  [[ -n "$t_why" ]] && note="${note:+$note; }$t_why"
  rate=$(awk -v n="$n" -v t="$t_median" 'BEGIN { if (n == 0) print "-"; else if (t == "n/a" || t + 0 <= 0) print "n/a"; else printf "%.0f", n / t }')
  rss=$(awk -v k="$t_rss" 'BEGIN { if (k == "n/a") print "n/a"; else printf "%.0f", k / 1024 }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$wl" "$n" "$k" "$metric" \
    "$threads" "$t_median" "$rate" "$rss" "${nrows:-n/a}" "${pairs:-n/a}" "${hit:-n/a}" "${note:--}" >>"$rows_tsv"
  echo "setk_run: $tool $wl: ${t_median}s ${nrows:-n/a} rows${note:+ ($note)}" >&2
}
skip() {  # TOOL WORKLOAD N K METRIC WHY
  t_median=n/a t_rss=n/a t_why=$6
  row "$1" "$2" "$3" "$4" "$5" "" "" ""
}

# razers3's -i for k errors over patterns of Lmin..Lmax: see the header.
razers_identity() {  # K LMIN LMAX: prints I, or nothing
  awk -v k="$1" -v a="$2" -v b="$3" 'BEGIN { lo = k / a; hi = (k + 1) / b;
    if (lo >= hi) exit; x = (lo + hi) / 2; if (x > 0.5) exit; printf "%.4f", 100 * (1 - x) }'
}

# all_ends WORKLOAD K [--hamming]: warpmatch-cpu's run again without
# --best-per-locus (every end position; not timed), for the comparisons to
# tell a hit it chained away from one it missed; prints the file, or nothing.
all_ends() {
  local wl=$1 k=$2; shift 2
  local f=$res/warpmatch-cpu-allends-k$k${1:+-ham}.$wl.out
  (( compare && all_ends_on )) || return 0
  bounded "$wm" search -f "$P" -k "$k" "$@" --revcomp --backend cpu -j "$threads" "$G" >"$f" 2>/dev/null
  (( $? <= 1 )) && echo "$f"
}

compares=$res/setk_compare.md
: >"$compares"
cmp_section() {  # TITLE then setk_compare.py compare's arguments
  local title=$1; shift
  (( compare )) || return 0
  {
    echo "## $title"
    echo
    bounded "$py" "$cmp_py" compare "$@" 2>&1 || (( $? != 124 )) || echo "(cut: PEER_TIMEOUT or DEADLINE)"
    echo
  } >>"$compares"
}

# ---- the workloads ------------------------------------------------------------------
# The workloads in ONLY's order (else the file's), on fd 3: no command in the
# loop can read them as its stdin.
workloads() {
  local w
  if [[ "$only" == ",," ]]; then
    tail -n +2 "$inputs"
    return
  fi
  for w in ${ONLY//,/ }; do
    awk -F '\t' -v w="$w" 'NR > 1 && $1 == w { print; found = 1 } END { exit !found }' "$inputs" ||
      echo "setk_run: workload $w not in $inputs" >&2
  done
}
declare -A index_built
while IFS=$'\t' read -r -u 3 wl pats genome n k metric extra what; do
  [[ "$wl" == name ]] && continue
  P=$out/$pats G=$out/$genome
  v=PEER_TIMEOUT_$wl
  wl_limit=${!v:-$limit}
  [[ -r "$P" && -r "$G" ]] || { echo "setk_run: $wl: $pats or $genome missing in $out" >&2; exit 2; }
  reps=$repeats
  (( n >= big_count )) && reps=$repeats_big
  ham=()
  [[ "$metric" == hamming ]] && ham=(--hamming)
  lens=$(awk '!/^>/ { l = length($0); if (!n++ || l < a) a = l; if (l > b) b = l } END { print a, b }' "$P")
  read -r lmin lmax <<<"$lens"
  has_n=0
  grep -v '^>' "$P" | grep -q '[Nn]' && has_n=1
  kb=$(( k < 3 ? k : 3 ))
  truth=()
  [[ -r "$out/${pats%.fa}.truth.tsv" ]] && truth=(--truth "$out/${pats%.fa}.truth.tsv")
  echo "setk_run: $wl: $n patterns of $lmin-$lmax, k = $k $metric, $reps repeat(s), ${wl_limit}s a run" >&2

  wm_main="" wm_ham="" wm_all="" wm_ham_all="" first=()
  if [[ "$tools" == *" warpmatch "* ]]; then
    if (( wm_sets )); then
      f=$res/warpmatch-cpu.$wl.out
      g=$res/warpmatch-cuda.$wl.out
      # The GPU's run first (its row second): fast, and kept when the CPU's
      # is cut.
      if [[ -n "$wm_cuda" ]]; then
        OK1=1 timed warpmatch-cuda "$wl" "$reps" "$g" "$wm" search -f "$P" -k "$k" "${ham[@]}" --revcomp \
          --best-per-locus --backend cuda "$G"
        cuda_t=("$t_median" "$t_rss" "$t_why")
      fi
      OK1=1 timed warpmatch-cpu "$wl" "$reps" "$f" "$wm" search -f "$P" -k "$k" "${ham[@]}" --revcomp \
        --best-per-locus --backend cpu -j "$threads" "$G"
      row warpmatch-cpu "$wl" "$n" "$k" "$metric" wm "$f" ""
      cpu_over=""
      [[ "$t_why" == over* || "$t_why" == cut* || "$t_why" == "not run"* ]] &&
        cpu_over="not run: warpmatch-cpu ${t_why#not run: }"
      [[ -z "$t_why" ]] && wm_main=$f
      [[ -n "$wm_main" ]] && wm_all=$(all_ends "$wl" "$k" "${ham[@]}")
      if [[ -n "$wm_cuda" ]]; then
        t_median=${cuda_t[0]} t_rss=${cuda_t[1]} t_why=${cuda_t[2]}
        note="bytes differ from warpmatch-cpu"
        [[ -z "$wm_main" ]] && note="warpmatch-cpu has no output to compare"
        [[ -n "$wm_main" ]] && cmp -s "$f" "$g" && note="bytes identical to warpmatch-cpu"
        row warpmatch-cuda "$wl" "$n" "$k" "$metric" wm "$g" "$note; $gpu"
      fi
      if [[ "$extra" != "-" ]]; then
        read -r -a xf <<<"$extra"
        if grep -q -- "${xf[0]}" <<<"$wm_help"; then
          for be in ${wm_cuda:+cuda} cpu; do
            if [[ "$be" == cpu && -n "$cpu_over" ]]; then
              skip "warpmatch-cpu+x" "$wl" "$n" "$k" "$metric" "$cpu_over"
              continue
            fi
            x=$res/warpmatch-$be+x.$wl.out
            OK1=1 timed "warpmatch-$be+x" "$wl" "$reps" "$x" "$wm" search -f "$P" -k "$k" "${ham[@]}" --revcomp \
              --best-per-locus "${xf[@]}" --backend "$be" -j "$threads" "$G"
            row "warpmatch-$be+x" "$wl" "$n" "$k" "$metric" wm "$x" "with $extra"
          done
        else
          skip warpmatch-cpu+x "$wl" "$n" "$k" "$metric" "this warpmatch has no ${xf[0]}"
        fi
      fi
      if [[ "$tools" == *" bowtie "* ]]; then
        if [[ "$metric" == hamming && "$k" == "$kb" ]]; then
          wm_ham=$wm_main wm_ham_all=$wm_all
        elif [[ -n "$cpu_over" ]]; then
          skip "warpmatch-cpu-ham$kb" "$wl" "$n" "$kb" hamming "$cpu_over"
        else
          h=$res/warpmatch-cpu-ham$kb.$wl.out
          OK1=1 timed "warpmatch-cpu-ham$kb" "$wl" "$reps" "$h" "$wm" search -f "$P" -k "$kb" --hamming \
            --revcomp --best-per-locus --backend cpu -j "$threads" "$G"
          row "warpmatch-cpu-ham$kb" "$wl" "$n" "$kb" hamming wm "$h" "bowtie's problem"
          [[ -z "$t_why" ]] && wm_ham=$h
          [[ -n "$wm_ham" ]] && wm_ham_all=$(all_ends "$wl" "$kb" --hamming)
        fi
      fi
    else
      why="this warpmatch has no k-error sets: $(head -1 "$res/probe.err")"
      skip warpmatch-cpu "$wl" "$n" "$k" "$metric" "$why"
      if (( emulate_max > 0 )); then
        m=$(( n < emulate_max ? n : emulate_max ))
        f=$res/warpmatch-cpu-1by1.$wl.out
        OK1=1 timed warpmatch-cpu-1by1 "$wl" 1 "$f" bash "$here/setk_run.sh" --one-by-one "$wm" "$P" "$G" "$k" "$metric" "$threads" "$m"
        row warpmatch-cpu-1by1 "$wl" "$m" "$k" "$metric" wm "$f" "one -e pattern a pass, the first $m"
        [[ -z "$t_why" ]] && wm_main=$f
        first=(--first "$m")
        if [[ "$tools" == *" bowtie "* ]]; then
          if [[ "$metric" == hamming && "$k" == "$kb" ]]; then
            wm_ham=$wm_main
          else
            h=$res/warpmatch-cpu-1by1-ham$kb.$wl.out
            OK1=1 timed "warpmatch-cpu-1by1-ham$kb" "$wl" 1 "$h" bash "$here/setk_run.sh" --one-by-one "$wm" "$P" "$G" "$kb" hamming "$threads" "$m"
            row "warpmatch-cpu-1by1-ham$kb" "$wl" "$m" "$kb" hamming wm "$h" "one -e pattern a pass, the first $m"
            [[ -z "$t_why" ]] && wm_ham=$h
          fi
        fi
      fi
    fi
  fi

  if [[ "$tools" == *" razers3 "* ]]; then
    ident=$(razers_identity "$k" "$lmin" "$lmax")
    if [[ -n "$razers_why" ]]; then
      skip razers3 "$wl" "$n" "$k" "$metric" "$razers_why"
    elif [[ -z "$ident" ]]; then
      skip razers3 "$wl" "$n" "$k" "$metric" "no -i gives k = $k for lengths $lmin-$lmax"
    else
      ropt=(-i "$ident" -rr 100 -m "$max_hits" -tc "$threads")
      [[ "$metric" == hamming ]] && ropt+=(-ng)
      (( has_n )) && ropt+=(-mN)
      r=$res/razers3.$wl.razers
      timed razers3 "$wl" "$reps" /dev/null razers3 "${ropt[@]}" -o "$r" "$G" "$P"
      row razers3 "$wl" "$n" "$k" "$metric" razers "$r" "${ropt[*]}"
      if [[ -z "$t_why" && -n "$wm_main" ]]; then
        cmp_section "$wl: warpmatch vs RazerS 3" --genome "$G" --patterns "$P" -k "$k" "${ham[@]}" "${truth[@]}" \
          "${first[@]}" ${wm_all:+--a-all "$wm_all"} "warpmatch:wm:$wm_main" "razers3:razers:$r"
      fi
    fi
  fi

  if [[ "$tools" == *" bowtie "* ]]; then
    idx=$out/bowtie/${genome%.fa}
    if [[ -n "$bowtie_why" ]]; then
      skip bowtie "$wl" "$n" "$kb" hamming "$bowtie_why"
    else
      # The index is built under a temporary name and renamed when whole, so
      # that a run cut short leaves no half index to be taken as done.
      if [[ -z "${index_built[$genome]:-}" && ! -s "$idx.rev.2.ebwt" ]]; then
        mkdir -p "$out/bowtie"
        TLIM=$limit timed bowtie-build "${genome%.fa}" 1 /dev/null "$bowtie_build" -q --threads "$threads" "$G" "$idx.tmp"
        row bowtie-build "${genome%.fa}" 0 - - "" "" "index of $genome, once"
        if [[ -z "$t_why" ]]; then
          for x in "$idx".tmp.*.ebwt; do mv "$x" "$idx${x#"$idx".tmp}"; done
          index_built[$genome]=1
        else
          index_built[$genome]="bowtie-build failed"
        fi
      elif [[ -z "${index_built[$genome]:-}" ]]; then
        skip bowtie-build "${genome%.fa}" 0 - - "index of $genome kept from an earlier run, not timed"
        index_built[$genome]=1
      fi
    fi
    if [[ -z "$bowtie_why" && "${index_built[$genome]}" != 1 ]]; then
      skip bowtie "$wl" "$n" "$kb" hamming "${index_built[$genome]}"
    elif [[ -z "$bowtie_why" ]]; then
      b=$res/bowtie.$wl.out
      timed bowtie "$wl" "$reps" /dev/null "$bowtie" -f -v "$kb" -a -p "$threads" -x "$idx" "$P" "$b"
      note="-v $kb -a (Hamming, bowtie 1's limit is 3)"
      (( has_n )) && note="$note; an N in a pattern is a mismatch"
      row bowtie "$wl" "$n" "$kb" hamming bowtie "$b" "$note"
      if [[ -z "$t_why" && -n "$wm_ham" ]]; then
        cmp_section "$wl: warpmatch --hamming -k $kb vs Bowtie 1 -v $kb" --genome "$G" --patterns "$P" -k "$kb" \
          --hamming "${truth[@]}" "${first[@]}" ${wm_ham_all:+--a-all "$wm_ham_all"} "warpmatch:wm:$wm_ham" "bowtie:bowtie:$b"
      fi
    fi
  fi
done 3< <(workloads)

# ---- the report ----------------------------------------------------------------------
md=$res/setk_results.md
rep_note="" lim_note=""
awk -v u="$repeat_under" 'BEGIN { exit !(u > 0) }' && rep_note="; one when the first took $repeat_under s or more"
for v in $(compgen -v PEER_TIMEOUT_); do lim_note+="; $v=${!v} s"; done
{
  echo "# k-error pattern sets: warpmatch, RazerS 3, Bowtie 1"
  echo
  echo "Host: ${model:-unknown CPU}, $(nproc) logical CPUs, $threads threads for every tool; GPU: ${gpu:-none}."
  echo "warpmatch $("$wm" --version 2>/dev/null | head -1); $(razers3 --version 2>&1 | grep -i 'razers3 version' | head -1 | sed 's/^ *//'); $("$bowtie" --version 2>/dev/null | head -1 | sed 's|.*/||')."
  echo "Seconds: median of $repeats runs ($repeats_big for $big_count+ patterns$rep_note), wall clock of the whole command; patterns/s = patterns / seconds. A run is stopped after $limit s (PEER_TIMEOUT$lim_note)${deadline:+, and none runs past DEADLINE}."
  echo
  echo "| tool | workload | patterns | k | metric | seconds | patterns/s | peak RSS MiB | rows | pairs | patterns hit | note |"
  echo "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  tail -n +2 "$rows_tsv" | awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $7, $8, $9, $10, $11, $12, $13 }'
  echo
  cat "$compares"
} >"$md"
cat "$md"
