#!/usr/bin/env bash
# calibrate_auto.sh -- issue 16's grid for `--backend auto` on a GPU host:
# every cell run with --backend cpu, cuda and auto (wall clock of the whole
# process, median of REPEATS), auto's choice and its ratio to the faster
# backend, the cost model's predictions beside them, and the constants of
# src/core/choose.c refitted from the measurements.
#
#   bash bench/calibrate_auto.sh WARPMATCH [CARRY] [--big]
#
# WARPMATCH  the built tool (a CUDA build: cmake -DCMAKE_BUILD_TYPE=Release;
#            gen_pairs is taken from its bench/ folder when built, else the
#            pairs are made here with awk)
# CARRY      where the data are [.gpu, else ../shared/data's folders]:
#            human_GRCh37_chrX_first70Mb.fa.gz, ecoli_k12_mg1655.fa.gz,
#            mitdb100.csv.gz (found in CARRY or CARRY/{dna,timeseries/ecg})
# --big      add 8 GiB search cells and a 64 M-sample dtw cell (needs ~10
#            GB free in $WORK and RAM to keep it in the page cache)
# Environment: REPEATS [3] (cells whose cpu run takes over 3 s run once),
# WORK [/tmp/wm_calib] for the inputs, OUT [.] for calibrate_auto.log,
# CALIB_QUICK=1 (a smoke test of the script: the smallest size of each row).
#
# The grid: search -c, m = 32 (a chrX substring), k = 0..3 over 10 MB,
# 100 MB, 1 GiB (and 8 GiB) of chrX sequence (plain bytes, repeated); a set
# of 16,000 8-mers sampled from chrX (-c -f); align infix of 10,000 bases of
# E. coli against 10 MB and the 70 Mb chrX; align --mode global --pairs
# --cigar of 10 k, 100 k, 1 M pairs of 150 bp (~5% edits); dtw m = 1,024 (V5
# lead) over 1 M, 4 M, 16 M (64 M) samples of the MLII lead repeated. Plus
# -j 1 runs for the per-thread rates and `info` / a tiny search for the
# start-up. The whole run takes about 4-6 minutes on 16 cores.
set -u
export LC_ALL=C # byte strings: gawk's substr on a 70 MB line is slow in UTF-8
W=${1:?usage: bash bench/calibrate_auto.sh WARPMATCH [CARRY] [--big]}
W=$(cd "$(dirname "$W")" && pwd)/$(basename "$W")
carry=${2:-.gpu}
big=0
for a in "$@"; do [ "$a" = --big ] && big=1; done
[ "$carry" = --big ] && carry=.gpu
reps=${REPEATS:-3}
work=${WORK:-/tmp/wm_calib}
out=${OUT:-.}
mkdir -p "$work" "$out"
log=$out/calibrate_auto.log
: >"$log"
say() { echo "$*" | tee -a "$log"; }

find_data() { # NAME: the first of CARRY, CARRY/dna, CARRY/timeseries/ecg, shared data
    local d
    for d in "$carry" "$carry/dna" "$carry/timeseries/ecg" ../shared/data/dna \
             ../shared/data/timeseries/ecg /work/shared/data/dna /work/shared/data/timeseries/ecg; do
        [ -f "$d/$1" ] && { echo "$d/$1"; return 0; }
    done
    echo "calibrate_auto: $1 not found (CARRY=$carry)" >&2
    exit 2
}
chrx_gz=$(find_data human_GRCh37_chrX_first70Mb.fa.gz)
ecoli_gz=$(find_data ecoli_k12_mg1655.fa.gz)
ecg_gz=$(find_data mitdb100.csv.gz)

say "== calibrate_auto.sh $(date -u +%F) on $(hostname)"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /' | tee -a "$log"
say "cpu: $(nproc) threads; $("$W" info | tr '\n' ';')"

# ---- the inputs -------------------------------------------------------------------

t0=$(date +%s)
# repeat_to SRC BYTES DST: SRC end to end, cut at BYTES.
repeat_to() {
    [ -s "$3" ] && [ "$(stat -c %s "$3")" -eq "$2" ] && return 0
    local n=$(( $2 / $(stat -c %s "$1") + 1 ))
    for ((i = 0; i < n; i++)); do cat "$1"; done | head -c "$2" >"$3"
}
seq=$work/chrX.seq
[ -s "$seq" ] || zcat "$chrx_gz" | grep -v '>' | tr -d '\n' >"$seq"
repeat_to "$seq" 10000000 "$work/t10M.seq"
repeat_to "$seq" 100000000 "$work/t100M.seq"
quick=${CALIB_QUICK:-0}
sizes="10M 100M 1G"
pair_sizes="10000 100000 1000000"
dtw_sizes="1000000 4000000 16000000"
if [ "$quick" = 1 ]; then sizes="10M 100M"; pair_sizes="10000 100000"; dtw_sizes="1000000 4000000"; fi
[ "$quick" = 1 ] || repeat_to "$seq" 1073741824 "$work/t1G.seq"
if [ "$big" = 1 ]; then repeat_to "$work/t1G.seq" 8589934592 "$work/t8G.seq"; sizes="$sizes 8G"; fi
pat=$(head -c 30000032 "$seq" | tail -c 32)
case "$pat" in *[!ACGT]*) pat=$(head -c 40000032 "$seq" | tail -c 32) ;; esac
# 16,000 8-mers sampled from 1 MB of chrX without N (duplicates kept).
[ -s "$work/kmers16k.txt" ] || head -c 31000000 "$seq" | tail -c 1000000 |
    awk 'BEGIN { srand(42) } { s = s $0 } END { n = 0; while (n < 16000) {
         k = substr(s, int(rand() * (length(s) - 8)) + 1, 8); if (k ~ /^[ACGT]+$/) { print k; n++ } } }' \
    >"$work/kmers16k.txt"
# 10,000 bases of E. coli; the 70 Mb chrX sample as the target.
[ -s "$work/read10k.seq" ] || zcat "$ecoli_gz" | grep -v '>' | tr -d '\n' | head -c 1010000 |
    tail -c 10000 >"$work/read10k.seq"
# Pairs of 150 bp: gen_pairs when built beside the tool, else awk (substitutions only).
gen=$(dirname "$W")/bench/gen_pairs
for n in $pair_sizes; do
    a=$work/pairs${n}_a.fa b=$work/pairs${n}_b.fa
    [ -s "$a" ] && [ -s "$b" ] && continue
    if [ -x "$gen" ]; then
        "$gen" reads "$chrx_gz" "$n" 150 0.10 42 "$a" "$b" 2>/dev/null
    else
        awk -v n="$n" -v A="$a" -v B="$b" 'BEGIN { srand(42); split("A C G T", base, " ") }
             { s = s $0; if (length(s) > 20000000) exit } END {
             for (i = 0; i < n; i++) {
                 do { p = int(rand() * (length(s) - 150)) + 1; r = substr(s, p, 150) } while (r !~ /^[ACGT]+$/)
                 q = r; e = int(rand() * 16)
                 for (j = 0; j < e; j++) { x = int(rand() * 150) + 1
                     q = substr(q, 1, x - 1) base[int(rand() * 4) + 1] substr(q, x + 1) }
                 print ">r" i > A; print r > A; print ">r" i > B; print q > B } }' \
            <(head -c 20000000 "$seq")
    fi
done
# dtw: the V5 lead as the query (1,024 samples), MLII repeated as the series.
zcat "$ecg_gz" | tail -n +3 | cut -d, -f1 >"$work/mlii.txt"
zcat "$ecg_gz" | tail -n +100003 | head -1024 | cut -d, -f2 >"$work/q1024.txt"
[ "$big" = 1 ] && dtw_sizes="$dtw_sizes 64000000"
for n in $dtw_sizes; do
    f=$work/s$n.txt
    [ -s "$f" ] && continue
    copies=$(( n / $(wc -l <"$work/mlii.txt") + 1 ))
    for ((i = 0; i < copies; i++)); do cat "$work/mlii.txt"; done | head -n "$n" >"$f"
done
say "inputs ready in $(( $(date +%s) - t0 )) s under $work"
cat "$work"/*.seq "$work"/*.fa "$work"/s*.txt >/dev/null 2>&1 # into the page cache

# ---- timing ---------------------------------------------------------------------------

# wall ARGS...: seconds of one run of the tool (output to /dev/null).
wall() {
    local a b
    a=$(date +%s.%N)
    "$W" "$@" >/dev/null 2>"$work/err"
    b=$(date +%s.%N)
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b - a }'
}
# median_of N ARGS...: the median of N runs.
median_of() {
    local n=$1 i
    shift
    for ((i = 0; i < n; i++)); do wall "$@"; echo; done | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

fits=$work/fits.txt
: >"$fits"
printf '%-28s %8s %8s %8s %6s %9s %8s %8s\n' cell "cpu s" "cuda s" "auto s" choice "auto/best" \
    "pred cpu" "pred gpu" | tee -a "$log"
# cell NAME ROW ARGS...: one grid cell; ROW names the model's row for the fit.
cell() {
    local name=$1 row=$2
    shift 2
    local r=$reps tc tg ta choice best ratio ex work_amt pc pg
    tc=$(wall "$@" --backend cpu)
    if awk -v t="$tc" 'BEGIN { exit !(t > 3) }'; then r=1; else tc=$(median_of "$r" "$@" --backend cpu); fi
    tg=$(median_of "$r" "$@" --backend cuda)
    # auto, with its one line of explanation (the last run's stderr)
    ta=$(median_of "$r" "$@" --explain-backend)
    ex=$(grep '^warpmatch: backend' "$work/err" | head -1)
    choice=$(sed -nE 's/^warpmatch: backend (cpu|cuda):.*/\1/p' <<<"$ex")
    pc=$(sed -nE 's/.* ([0-9.]+) s on [0-9]+ CPU thread.*/\1/p' <<<"$ex")
    pg=$(sed -nE 's/.* ([0-9.]+) s on the GPU.*/\1/p' <<<"$ex")
    work_amt=$(sed -nE 's/.*, ([0-9.e+]+ [kMGTPE]? ?(B|cells))\)$/\1/p' <<<"$ex")
    best=$(awk -v a="$tc" -v b="$tg" 'BEGIN { print (a < b) ? a : b }')
    ratio=$(awk -v a="$ta" -v b="$best" 'BEGIN { printf "%.2f", a / b }')
    printf '%-28s %8s %8s %8s %6s %9s %8s %8s\n' "$name" "$tc" "$tg" "$ta" "$choice" "$ratio" \
        "${pc:--}" "${pg:--}" | tee -a "$log"
    echo "$row|$work_amt|$tc|$tg" >>"$fits"
}

for k in 0 1 2 3; do
    for s in $sizes; do cell "search k=$k m=32 $s" "search k=$k" search -c -k "$k" "$pat" "$work/t$s.seq"; done
done
for s in $sizes; do cell "set 16,000 8-mers $s" "search set" search -c -f "$work/kmers16k.txt" "$work/t$s.seq"; done
cell "align infix 10 kb x 10 MB" "align infix" align "$work/read10k.seq" "$work/t10M.seq"
[ "$quick" = 1 ] || cell "align infix 10 kb x chrX" "align infix" align "$work/read10k.seq" "$seq"
for n in $pair_sizes; do
    cell "pairs --cigar $n x 150 bp" "align pairs --cigar" align --mode global --pairs --cigar \
        "$work/pairs${n}_a.fa" "$work/pairs${n}_b.fa"
done
for n in $dtw_sizes; do cell "dtw m=1024 n=$n" dtw dtw "$work/q1024.txt" "$work/s$n.txt"; done

# ---- one thread, and the start-up --------------------------------------------------

say ""
say "-- one CPU thread (per-thread rates), --backend cpu -j 1, one run each"
one() { # ROW ARGS...
    local row=$1
    shift
    local t
    t=$(wall "$@" --backend cpu -j 1 --explain-backend)
    local w1
    w1=$(sed -nE 's/.*, ([0-9.e+]+ [kMGTPE]? ?(B|cells))\)$/\1/p' "$work/err" | head -1)
    say "$row: $t s ($w1)"
    echo "$row|j1|$t|$w1" >>"$fits"
}
for k in 0 1 2 3; do one "search k=$k" search -c -k "$k" "$pat" "$work/t100M.seq"; done
one "search set" search -c -f "$work/kmers16k.txt" "$work/t100M.seq"
one "align infix" align "$work/read10k.seq" "$work/t10M.seq"
one "align pairs --cigar" align --mode global --pairs --cigar "$work/pairs100000_a.fa" "$work/pairs100000_b.fa"
one dtw dtw "$work/q1024.txt" "$work/s1000000.txt"

head -c 1000 "$seq" >"$work/tiny.seq"
ti=$(median_of 5 info)
tcpu=$(median_of 5 search -c --backend cpu "$pat" "$work/tiny.seq")
tcuda=$(median_of 5 search -c --backend cuda "$pat" "$work/tiny.seq")
say ""
say "-- start-up: info $ti s; tiny search cpu $tcpu s, cuda $tcuda s: the GPU's start-up + set-up = $(awk -v a="$tcuda" -v b="$tcpu" 'BEGIN { printf "%.3f", a - b }') s"

# ---- the fit -----------------------------------------------------------------------

# Per row, over the sizes: t = a + b x work (least squares) for the CPU (16
# threads: cpu_fixed_s = a, cpu_cap_rate = 1 / b) and the GPU (gpu_fixed_s
# + start-up = a, end-to-end rate = 1 / b); the -j 1 run gives
# cpu_thread_rate = work(j1 input) / (t - a). Work is what --explain-backend
# printed (the model's units), so the fitted rates drop into choose.c.
say ""
say "-- fitted constants (src/core/choose.c's table; start-up measured above)"
awk -F'|' -v startup="$(awk -v a="$tcuda" -v b="$tcpu" 'BEGIN { print a - b }')" '
    function num(s,   v, p) { # "1.07 GB" / "7.02 T cells" -> a number
        split(s, p, " "); v = p[1] + 0
        if (p[2] ~ /^k/) v *= 1e3; else if (p[2] ~ /^M/) v *= 1e6; else if (p[2] ~ /^G/) v *= 1e9
        else if (p[2] ~ /^T/) v *= 1e12; else if (p[2] ~ /^P/) v *= 1e15
        return v }
    $2 == "j1" { j1[$1] = $3; j1w[$1] = num($4); next }
    { w = num($2); r = $1; n[r]++; sx[r] += w; sxx[r] += w * w
      sc[r] += $3; sxc[r] += w * $3; sg[r] += $4; sxg[r] += w * $4 }
    END {
        for (r in n) {
            d = n[r] * sxx[r] - sx[r] * sx[r]
            if (n[r] < 2 || d <= 0) { printf "%-20s one size only: not fitted\n", r; continue }
            bc = (n[r] * sxc[r] - sx[r] * sc[r]) / d; ac = (sc[r] - bc * sx[r]) / n[r]
            bg = (n[r] * sxg[r] - sx[r] * sg[r]) / d; ag = (sg[r] - bg * sx[r]) / n[r]
            printf "%-20s cpu_fixed_s %.3f  cpu_cap_rate %.3g/s  gpu_fixed_s %.3f (after %.3f s start-up)  gpu end-to-end %.3g/s", \
                r, ac, (bc > 0 ? 1 / bc : 0), ag - startup, startup, (bg > 0 ? 1 / bg : 0)
            if ((r in j1) && j1[r] > ac) printf "  cpu_thread_rate %.3g/s", j1w[r] / (j1[r] - ac)
            printf "\n"
        }
    }' "$fits" | sort | tee -a "$log"
say ""
say "cpu_thread_rate = the -j 1 run's work / (its time - cpu_fixed_s); rates are in the model's"
say "units (search: bytes; set: bytes x (1 + n / 5660); align, dtw: cells), as --explain-backend prints"
say "search rows: the GPU's end-to-end rate is choose.c's gpu_move_rate (the kernels are 50-100x faster);"
say "other rows: gpu_rate = 1 / (1 / end-to-end - bytes per unit / gpu_move_rate)"
say "log: $log"
