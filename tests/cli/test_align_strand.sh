#!/usr/bin/env bash
# test_align_strand.sh -- both strands in `warpmatch align` (issue 20, item 2):
#
#  1. a read cut from the minus strand of the lambda genome, with three edits,
#     is placed at its origin on strand '-' (the default for DNA in infix
#     mode, and with --revcomp), its CIGAR replaying against the reverse
#     complement; --no-revcomp gives the old, wrong placement;
#  2. a real PacBio read that minimap2 2.24 maps to the minus strand of E.
#     coli (shared data) lands where minimap2 puts it, and live minimap2
#     agrees on a few reads when it is installed;
#  3. a brute-force oracle (Python: the plain DP over every substring, both
#     strands, the tie rules of --help) on random DNA, all-vs-all;
#  4. --best: only the target records at the query's best distance, ties all
#     printed; the query length in every row of every format;
#  5. the rules: '+' wins a strand tie, --revcomp needs DNA, global mode is
#     one strand unless --revcomp;
#  6. the progress line (WM_PROGRESS=always stands in for a terminal; none on
#     a pipe or with --no-progress) and rows reaching a pipe while a slow
#     query still runs.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2

revcomp() { printf '%s' "$1" | rev | tr ACGTacgt TGCAtgca; }

# replay FILE QSEQ TSEQ: the one row of FILE (query target distance start end
# cigar strand qlen) replays against QSEQ (reverse-complemented on '-') and
# TSEQ: = on equal bases, X on unequal, the whole query and target[start, end)
# spanned, X + I + D = distance. Prints "ok" or why not.
replay() {
    python3 - "$@" <<'PYEOF'
import re, sys
row = open(sys.argv[1]).read().split("\n")[0].split("\t")
q, t = sys.argv[2], sys.argv[3]
d, s, e, cig, strand = int(row[2]), int(row[3]), int(row[4]), row[5], row[6]
if strand == "-":
    q = q[::-1].translate(str.maketrans("ACGTacgt", "TGCAtgca"))
i, j, cost, why = 0, s, 0, ""
for n, op in re.findall(r"(\d+)([=XID])", cig):
    for _ in range(int(n)):
        if op in "=X":
            if (q[i].upper() == t[j].upper()) != (op == "="):
                why = "%s on %s/%s" % (op, q[i], t[j])
            i += 1; j += 1; cost += op == "X"
        elif op == "I": i += 1; cost += 1
        else: j += 1; cost += 1
if not why and (i != len(q) or j != e): why = "spans %d of %d, ends at %d not %d" % (i, len(q), j, e)
if not why and cost != d: why = "costs %d, distance %d" % (cost, d)
print(why or "ok")
PYEOF
}

have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# ---- 1. a minus-strand read of lambda ---------------------------------------------------

LAMBDA=$SHARED/dna/lambda_phage.fa
if [ -r "$LAMBDA" ]; then
    REC=$(head -1 "$LAMBDA" | cut -c2- | cut -d' ' -f1)
    SEQ=$(awk 'NR > 1' "$LAMBDA" | tr -d '\n\r')
    # [30000, 30300) of the forward strand with a substitution at 40, a
    # deletion at 150 and an insertion before 220, then reverse-complemented.
    S=${SEQ:30000:300}
    c=${S:40:1}
    case $c in A) c2=C ;; C) c2=G ;; G) c2=T ;; *) c2=A ;; esac
    FWD=${S:0:40}$c2${S:41:109}${S:151:69}A${S:220}
    READ=$(revcomp "$FWD")
    printf '>minus1 lambda 30000-30300 reverse strand, 3 edits\n%s\n' "$READ" >minus.fa
    for how in "" --revcomp; do
        run align $how --cigar minus.fa "$LAMBDA"
        check_rc "minus-strand read ${how:-default}" 0
        check_no_err "minus-strand read ${how:-default}"
        got=$(cut -f1-5,7-8 "$OUT" | tr '\t' ' ')
        [ "$got" = "minus1 $REC 3 30000 30300 - 300" ] && pass ||
            fail "minus-strand read ${how:-default}: got '$got'"
        if [ $have_py = 1 ]; then
            why=$(replay "$OUT" "$READ" "$SEQ")
            [ "$why" = ok ] && pass || fail "minus-strand read ${how:-default}: CIGAR: $why"
        fi
    done
    # The old answer, now only on request: the forward strand alone is far off.
    run align --no-revcomp minus.fa "$LAMBDA"
    check_rc "--no-revcomp" 0
    d=$(cut -f3 "$OUT")
    st=$(cut -f6 "$OUT")
    [ "$st" = "+" ] && [ "$d" -gt 100 ] && pass || fail "--no-revcomp: strand $st distance $d"
    # The forward read is still '+', at the same place.
    printf '>plus1\n%s\n' "$FWD" >plus.fa
    run align plus.fa "$LAMBDA"
    got=$(cut -f3-7 "$OUT" | tr '\t' ' ')
    [ "$got" = "3 30000 30300 + 300" ] && pass || fail "forward read: got '$got'"
    # Both as one FASTA against the genome gzip'd: query-major, one row each.
    cat plus.fa minus.fa >both.fa
    gzip -c "$LAMBDA" >lambda.fa.gz
    run align both.fa lambda.fa.gz
    got=$(cut -f1,6 "$OUT" | tr '\t' ' ' | tr '\n' ' ')
    [ "$got" = "plus1 + minus1 - " ] && pass || fail "two reads: got '$got'"
else
    echo "skipped: $LAMBDA not found (the shared data set)"
fi

# ---- 2. a real PacBio read from the minus strand of E. coli -----------------------------

ECOLI=$SHARED/dna/ecoli_k12_mg1655.fa.gz
READS=$SHARED/reads/ecoli_k12_pacbio_subsetA.fastq.gz
if [ -r "$ECOLI" ] && [ -r "$READS" ]; then
    # minimap2 2.24 -c: 862 bp, query [7, 862) on '-' at [4160843, 4161653)
    # of K-12-MG1655 (NM 141); here the whole read is aligned, so the end
    # may reach a few bases further.
    zcat "$READS" | head -400 | grep -A3 '/9500/0_862$' >pb.fq
    run align -k 300 pb.fq "$ECOLI"
    check_rc "PacBio read" 0
    read -r _ tn d s e st ql <"$OUT"
    [ "$tn" = K-12-MG1655 ] && [ "$st" = - ] && [ "$ql" = 862 ] &&
        [ "$s" -ge 4160830 ] && [ "$s" -le 4160860 ] && [ "$e" -ge 4161640 ] && [ "$e" -le 4161670 ] &&
        [ "$d" -lt 200 ] && pass ||
        fail "PacBio read: got $(cat "$OUT")"
    # On a terminal (script(1) gives one): the progress line, then the row.
    if command -v script >/dev/null 2>&1; then
        # (shown after 1 s: a run that ends sooner on a fast machine shows none)
        t0=$(date +%s%N)
        script -qec "'$W' align -j 1 pb.fq '$ECOLI'" /dev/null >tty.out 2>&1
        ms=$((($(date +%s%N) - t0) / 1000000))
        if tr '\r' '\n' <tty.out | grep -Eq '^warpmatch: [0-9.]+ of [0-9.]+ Gcells, '; then
            pass
        elif [ $ms -lt 1500 ]; then
            echo "skipped: the terminal run took $ms ms, too short for the progress line"
        else
            fail "no progress line on a terminal in $ms ms: $(cat -v tty.out | head -3)"
        fi
        tr '\r' '\n' <tty.out | grep -q "K-12-MG1655${TAB}[0-9]*${TAB}4160" && pass ||
            fail "no row on a terminal: $(cat -v tty.out | head -3)"
        script -qec "'$W' align --no-progress -k 300 pb.fq '$ECOLI'" /dev/null >tty.out 2>&1
        ! grep -q 'cells' tty.out && pass || fail "--no-progress on a terminal: $(cat -v tty.out)"
    fi
    # The forward strand alone: nothing within 300 (it was 46% off).
    run align -k 300 --no-revcomp pb.fq "$ECOLI"
    check_rc "PacBio read, --no-revcomp -k 300" 1
    if command -v minimap2 >/dev/null 2>&1; then
        # Live minimap2: three short reads (both strands among them), its
        # strand and target span against ours (within 60 bases: it clips
        # the read's ends, we align all of it).
        zcat "$READS" | head -400 | awk 'NR % 4 == 1 { keep = /\/(9500\/0_862|5422\/0_1270|2280\/0_1499)$/ } keep' >mm.fq
        minimap2 -c --secondary=no "$ECOLI" mm.fq 2>/dev/null | cut -f1,5,8,9 | sort >mm.paf
        run align -k 400 --format paf mm.fq "$ECOLI"
        cut -f1,5,8,9 "$OUT" | sort >wm.paf
        bad=$(join -t "$TAB" mm.paf wm.paf | awk -F '\t' '$2 != $5 || ($3 - $6) ^ 2 > 3600 || ($4 - $7) ^ 2 > 3600')
        [ "$(wc -l <mm.paf)" -eq 3 ] && [ "$(join -t "$TAB" mm.paf wm.paf | wc -l)" -eq 3 ] && [ -z "$bad" ] &&
            pass || fail "minimap2 disagrees: $bad $(cat mm.paf wm.paf)"
    else
        echo "skipped: minimap2 not installed (apt-get install minimap2)"
    fi
else
    echo "skipped: E. coli genome or PacBio reads not found (the shared data set)"
fi

# ---- 3. a brute-force oracle on random DNA ------------------------------------------------

if [ $have_py = 1 ]; then
    python3 - <<'PYEOF'
import random
rnd = random.Random(20)
def rs(n): return "".join(rnd.choice("ACGT") for _ in range(n))
ts = [rs(n) for n in (1, 7, 30, 45, 60)]
qs = []
for i, m in enumerate((1, 3, 5, 8, 12, 15, 20)):
    if i % 2 and m < 30:  # a piece of a target, mutated, often reverse-complemented
        p = rnd.randrange(0, 30 - m); s = list(ts[2][p:p + m])
        s[rnd.randrange(m)] = rnd.choice("ACGT")
        s = "".join(s)
        if i % 4 == 1: s = s[::-1].translate(str.maketrans("ACGT", "TGCA"))
        qs.append(s)
    else:
        qs.append(rs(m))
with open("o_q.fa", "w") as f:
    for i, q in enumerate(qs): f.write(">q%d\n%s\n" % (i, q))
with open("o_t.fa", "w") as f:
    for i, t in enumerate(ts): f.write(">t%d\n%s\n" % (i, t))
PYEOF
    python3 - o_q.fa o_t.fa >o.expect <<'PYEOF'
import sys
def read(p):
    recs, name = [], None
    for l in open(p):
        l = l.strip()
        if l.startswith(">"): recs.append([l[1:], ""])
        else: recs[-1][1] += l
    return recs
def edit(a, b):  # plain DP, the definition
    D = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, D[0] = D[0], i
        for j in range(1, len(b) + 1):
            cur = min(D[j] + 1, D[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev, D[j] = D[j], cur
    return D[len(b)]
def infix(q, t):  # leftmost end at the best distance, then its largest start
    best = None
    for e in range(len(t) + 1):
        for s in range(e, -1, -1):
            d = edit(q, t[s:e])
            if best is None or d < best[0] or (d == best[0] and e == best[2] and s > best[1]):
                best = (d, s, e)
    return best
rc = lambda s: s[::-1].translate(str.maketrans("ACGT", "TGCA"))
for qn, q in read(sys.argv[1]):
    for tn, t in read(sys.argv[2]):
        f, r = infix(q, t), infix(rc(q), t)
        d, s, e, st = (f + ("+",)) if f[0] <= r[0] else (r + ("-",))
        print("%s\t%s\t%d\t%d\t%d\t%s\t%d" % (qn, tn, d, s, e, st, len(q)))
PYEOF
    run align o_q.fa o_t.fa
    check_rc "oracle: random DNA" 0
    check_out "oracle: random DNA, both strands" o.expect
    grep -q "$TAB-$TAB" o.expect && pass || fail "oracle: no '-' row in the random set"
    for al in wavefront bitvector; do
        for th in 1 3; do
            run align --algo $al -j $th o_q.fa o_t.fa
            check_out "oracle: --algo $al -j $th" o.expect
        done
    done
    # Each CIGAR replays on its strand.
    run align --cigar o_q.fa o_t.fa
    bad=0
    while IFS="$TAB" read -r qn tn rest; do
        printf '%s\t%s\t%s\n' "$qn" "$tn" "$rest" >row
        qs=$(awk -v n=">$qn" '$0 == n { getline; print }' o_q.fa)
        tsq=$(awk -v n=">$tn" '$0 == n { getline; print }' o_t.fa)
        [ "$(replay row "$qs" "$tsq")" = ok ] || bad=$((bad + 1))
    done <"$OUT"
    [ $bad -eq 0 ] && pass || fail "oracle: $bad CIGARs do not replay"
else
    echo "skipped: python3 not found (the oracle)"
fi

# ---- 4. --best and the query length ----------------------------------------------------------

# q1 GATTACA is in a [2,9) and in c [2,9) as TGTAATC, its reverse
# complement; b is one substitution away: --best prints a and c, in order.
# q2 (8 C): one C in a (7 inserted, [7,8); its reverse complement's G
# [2,3) is as good: '+' wins), CC in b (6, [4,6)); in c its complement
# GGGGGGGG fits GGTG [0,4) with 4 inserted and T/G (5, '-'). Worked out
# by hand and by the oracle of section 3.
printf '>q1\nGATTACA\n>q2\nCCCCCCCC\n' >bq.fa
printf '>a\nTTGATTACATT\n>b\nGATTCCA\n>c\nGGTGTAATCGG\n' >bt.fa
run align bq.fa bt.fa
check_tsv "every record" <<'EOF'
q1 a 0 2 9 + 7
q1 b 1 0 7 + 7
q1 c 0 2 9 - 7
q2 a 7 7 8 + 8
q2 b 6 4 6 + 8
q2 c 5 0 4 - 8
EOF
run align --best bq.fa bt.fa
check_rc "--best" 0
check_tsv "--best: ties all printed" <<'EOF'
q1 a 0 2 9 + 7
q1 c 0 2 9 - 7
q2 c 5 0 4 - 8
EOF
run align --best -k 5 --json bq.fa bt.fa
check_out_text "--best --json -k 5" '{"query":"q1","target":"a","distance":0,"start":2,"end":9,"strand":"+","qlen":7}
{"query":"q1","target":"c","distance":0,"start":2,"end":9,"strand":"-","qlen":7}
{"query":"q2","target":"c","distance":5,"start":0,"end":4,"strand":"-","qlen":8}'
run align --best --mode global bq.fa bt.fa
check_tsv "--best, global mode (one strand)" <<'EOF'
q1 b 1 0 7 + 7
q2 b 6 0 7 + 8
EOF
# The query length in every row of every format.
for f in tsv json sam paf; do
    run align --format $f bq.fa bt.fa
    case $f in
        tsv) bad=$(awk -F '\t' '($1 == "q1" && $NF != 7) || ($1 == "q2" && $NF != 8)' "$OUT") ;;
        json) bad=$(grep -v -e '"query":"q1".*"qlen":7}$' -e '"query":"q2".*"qlen":8}$' "$OUT") ;;
        sam) bad=$(awk -F '\t' '!/^@/ && $10 != "*" && length($10) != ($1 == "q1" ? 7 : 8)' "$OUT") ;;
        paf) bad=$(awk -F '\t' '$2 != ($1 == "q1" ? 7 : 8)' "$OUT") ;;
    esac
    [ -s "$OUT" ] && [ -z "$bad" ] && pass || fail "--format $f: the query length: $bad"
done

# ---- 5. the rules ---------------------------------------------------------------------------

# ACGT is its own reverse complement: one row, '+'.
run align seq:ACGT seq:TTACGTTT
check_tsv "a palindrome: '+' wins the tie" <<'EOF'
query target 0 2 6 + 4
EOF
run align --all-ends --cigar seq:ACGT seq:TTACGTTT
check_tsv "--all-ends keeps one strand" <<'EOF'
query target 0 2 6 4= + 4
EOF
# Literal DNA is DNA under auto (the data decides): both strands; text: one.
run align seq:AACG seq:TTCGTTAA
check_tsv "auto, DNA literals: both" <<'EOF'
query target 0 2 6 - 4
EOF
run align --alphabet text seq:AACG seq:TTCGTTAA
check_tsv "text: one strand" <<'EOF'
query target 2 2 4 + 4
EOF
run align --alphabet dna seq:AACG seq:TTCGTTAA
check_tsv "--alphabet dna: both" <<'EOF'
query target 0 2 6 - 4
EOF
# --revcomp under auto: the target's data must be DNA; --revcomp never makes
# it so (a target of IUPAC letters that is not DNA by the data stays text).
run align --revcomp seq:AACG seq:TTCGTTAA
check_tsv "--revcomp: literals of nucleotides" <<'EOF'
query target 0 2 6 - 4
EOF
expect_error "--revcomp with text" '^warpmatch: --revcomp needs DNA: the alphabet is text here \(the target seq:hello is not DNA: 0\.0% of the first 5 sequence bytes' \
    align --revcomp seq:AACG seq:hello
expect_error "--revcomp, IUPAC letters that are not DNA" '^warpmatch: --revcomp needs DNA: .*give --alphabet dna' \
    align --revcomp seq:AACG seq:RYKMSWBDHVAC
run align --revcomp --alphabet dna seq:AACG seq:RYKMSWBDHVAC
check_rc "--revcomp --alphabet dna, IUPAC letters" 0
expect_error "--revcomp --alphabet text" '^warpmatch: --revcomp needs DNA: the alphabet is text here \(--alphabet text\)' \
    align --revcomp --alphabet text bq.fa bt.fa
printf 'AACG\tCGTX\n' >xpairs.tsv
expect_error "--revcomp, a pair file with X" '^warpmatch: --revcomp needs DNA' align --revcomp --pairs xpairs.tsv
# Global mode: one strand unless --revcomp.
run align --mode global --alphabet dna seq:AACG seq:CGTT
check_tsv "global: one strand" <<'EOF'
query target 4 0 4 + 4
EOF
run align --mode global --revcomp --cigar --alphabet dna seq:AACG seq:CGTT
check_tsv "global --revcomp" <<'EOF'
query target 0 0 4 4= - 4
EOF
printf 'AACG\tCGTT\nAACG\tAACG\n' >pairs.tsv
run align --pairs --revcomp --alphabet dna pairs.tsv
check_tsv "--pairs PAIRS.tsv --revcomp" <<'EOF'
1 1 0 0 4 - 4
2 2 0 0 4 + 4
EOF
# --no-revcomp, then --revcomp: the last one counts.
run align --no-revcomp --revcomp --alphabet dna seq:AACG seq:TTCGTTAA
check_tsv "the last of --no-revcomp/--revcomp" <<'EOF'
query target 0 2 6 - 4
EOF

# ---- 6. progress and rows as they become final ------------------------------------------------

run align bq.fa bt.fa
check_no_err "no progress line on a pipe"
WM_PROGRESS=always run align bq.fa bt.fa
tr '\r' '\n' <"$ERR" | grep -Eq '^warpmatch: [0-9.]+ of [0-9.]+ (k|M|G)?cells, [0-9.]+ (k|M|G)?cells/s' &&
    pass || fail "WM_PROGRESS=always: no progress line: $(cat -v "$ERR")"
tr '\r' '\n' <"$ERR" | grep -q 'ETA' && pass || fail "the progress line has no ETA: $(cat -v "$ERR")"
cmp -s "$OUT" "$TMP/out.$((N_RUN - 1))" && pass || fail "the progress line changed stdout"
WM_PROGRESS=always run align --no-progress bq.fa bt.fa
check_no_err "--no-progress"
WM_PROGRESS=always run align --mode global --pairs pairs.tsv
check_err "progress in batches" 'cells'

if [ -r "${ECOLI:-}" ]; then
    # One long pair (a random 6 kb query against E. coli, one thread: seconds):
    # the line moves while it runs, reported by the library between pieces
    # of the target, not only when the pair is done.
    python3 -c "
import random
random.seed(7)
print('>r6k')
print(''.join(random.choice('ACGT') for _ in range(6000)))" >r6k.fa
    WM_PROGRESS=always run align --no-revcomp -j 1 --backend cpu r6k.fa "$ECOLI"
    check_rc "one long pair" 0
    partial=$(tr '\r' '\n' <"$ERR" | grep -E '^warpmatch: [0-9.]+ of [0-9.]+ Gcells' |
        awk '{ if ($2 + 0 < $4 + 0) n++ } END { print n + 0 }')
    [ "$partial" -ge 2 ] && pass ||
        fail "one long pair: $partial progress lines before its end: $(tr '\r' '\n' <"$ERR" | head -5)"

    # A short query, then four of 4 kb against E. coli (seconds, even on a
    # fast machine): the first row reaches the pipe while the others run.
    zcat "$ECOLI" | awk 'NR > 1' | head -c 30000 | tr -d '\n' >ec.txt
    printf '>fast\n%s\n' "$(cut -c 1001-1100 ec.txt)" >fs.fa
    for i in 0 1 2 3; do
        printf '>slow%d\n%s\n' $i "$(cut -c $((5001 + 4000 * i))-$((9000 + 4000 * i)) ec.txt)" >>fs.fa
    done
    "$W" align --no-revcomp -j 1 fs.fa "$ECOLI" >fs.out 2>fs.err &
    out_while_running fs.out $! && pass ||
        fail "the first row did not reach the pipe before the run ended"
    [ "$RC" = 0 ] && [ "$(cut -f1 fs.out | tr '\n' ' ')" = "fast slow0 slow1 slow2 slow3 " ] && pass ||
        fail "fast/slow: exit $RC, $(cat fs.out fs.err)"
fi

finish
