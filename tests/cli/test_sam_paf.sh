#!/usr/bin/env bash
# test_sam_paf.sh -- `warpmatch align --format sam|paf` (issue 20, item 3):
#
#  1. golden files (tests/cli/golden/sp_*, worked by hand in its README): a
#     FASTQ query set against two records, --best -k 1, SAM and PAF;
#     --cigar-m; the same with the query on standard input (QUAL *);
#  2. reads cut from lambda (both strands, with edits, FASTQ qualities)
#     against lambda cut into three records: `samtools quickcheck`, `view`,
#     `sort` and `index` of a BAM, `calmd` finding no NM to correct, and a
#     Python replay of every record: the CIGAR against the reference and
#     SEQ, NM, FLAG 16 exactly for the reads cut from the minus strand, 256
#     for all but one row a read, 4 for the random read, SEQ and QUAL
#     reverse-complemented and reversed on '-';
#  3. PAF of the same run: the 12 columns and tags checked against the
#     sequences in Python (qend - qstart, tend - tstart, matches = '=' bases,
#     block = M + I + D, NM, tp);
#  4. global mode and --pairs PAIRS.tsv as SAM; bad flags.
. "$(dirname "$0")/lib.sh" "$@"
export LC_ALL=C
cd "$TMP" || exit 2

have_samtools=0
command -v samtools >/dev/null 2>&1 && have_samtools=1
have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# ---- 1. golden files -----------------------------------------------------------------------

run_at "$GOLDEN" align --format sam --best -k 1 sp_q.fq sp_t.fa
check_rc "golden SAM" 0
check_no_err "golden SAM"
check_out "golden SAM" "$GOLDEN/sp_best_k1.sam"
run_at "$GOLDEN" align --format paf --best -k 1 sp_q.fq sp_t.fa
check_rc "golden PAF" 0
check_out "golden PAF" "$GOLDEN/sp_best_k1.paf"
# --cigar-m: the same records with M for = and X.
run_at "$GOLDEN" align --format sam --cigar-m --best -k 1 sp_q.fq sp_t.fa
sed -e 's/\t7=\t/\t7M\t/' -e 's/\t4=1I3=\t/\t4M1I3M\t/' -e 's/--best/--cigar-m --best/' \
    "$GOLDEN/sp_best_k1.sam" >m.sam
check_out "--cigar-m" m.sam
# The query on standard input: read once, so no qualities (QUAL *).
run_in "$GOLDEN/sp_q.fq" align --format sam --best -k 1 - "$GOLDEN/sp_t.fa"
awk -F '\t' '!/^@/ { print $1, $10, $11 }' "$OUT" >stdin.got
printf '%s\n' 'r1 GATTACA *' 'r2 TTGCAAC *' 'r3 GGGGGGGG *' 'r4 GATTCACA *' >stdin.want
cmp -s stdin.got stdin.want && pass || fail "FASTQ on stdin: $(cat stdin.got)"
# Without --best: every record, the first best row primary, the rest 256.
run_at "$GOLDEN" align --format sam -k 3 sp_q.fq sp_t.fa
awk -F '\t' '!/^@/ { print $1, $2, $3, $5 }' "$OUT" >flags.got
cat >flags.want <<'EOF'
r1 0 chrA 60
r1 272 chrB 0
r2 256 chrA 0
r2 16 chrB 60
r3 16 chrB 60
r4 0 chrA 60
r4 272 chrB 0
EOF
cmp -s flags.got flags.want && pass || { fail "FLAG and MAPQ without --best"; diff flags.want flags.got; }
# Nothing within k at all: one unmapped record, exit 1 (no alignment).
run_at "$GOLDEN" align --format sam -k 0 sp_q.fq sp_t.fa
check_rc "SAM, some unmapped" 0
# GTGTGTGT: neither it nor ACACACAC is in sp_t.fa.
run_at "$GOLDEN" align --format sam -k 0 seq:GTGTGTGT sp_t.fa
check_rc "SAM, all unmapped" 1
awk -F '\t' '!/^@/' "$OUT" >un.got
printf 'query\t4\t*\t0\t0\t*\t*\t0\t0\tGTGTGTGT\t*\n' >un.want
cmp -s un.got un.want && pass || fail "unmapped record: $(cat un.got)"
run_at "$GOLDEN" align --format paf -k 0 seq:GTGTGTGT sp_t.fa
check_rc "PAF, nothing within k" 1
check_empty_out "PAF, nothing within k"

# ---- 2. lambda reads: samtools and a replay --------------------------------------------------

LAMBDA=$SHARED/dna/lambda_phage.fa
if [ -r "$LAMBDA" ] && [ $have_py = 1 ]; then
    # 24 reads of 150-400 bases from both strands with 0-8 edits, one random
    # read; lambda cut into three records of 16,000+ bases.
    python3 - "$LAMBDA" <<'PYEOF'
import random, sys
seq = "".join(l.strip() for l in open(sys.argv[1]) if not l.startswith(">")).upper()
rnd = random.Random(7)
parts = [(0, 16000), (16000, 32000), (32000, len(seq))]
with open("ref.fa", "w") as f:
    for i, (a, b) in enumerate(parts):
        s = seq[a:b]
        f.write(">part%d\n" % (i + 1))
        for k in range(0, len(s), 60): f.write(s[k:k + 60] + "\n")
rc = lambda s: s[::-1].translate(str.maketrans("ACGT", "TGCA"))
with open("reads.fq", "w") as f, open("truth.tsv", "w") as t:
    for i in range(24):
        L = rnd.randint(150, 400); p = rnd.randint(0, len(seq) - L)
        r = list(seq[p:p + L])
        for _ in range(rnd.randint(0, 8)):
            k = rnd.randrange(len(r)); c = rnd.random()
            if c < 0.4: r[k] = rnd.choice("ACGT")
            elif c < 0.7: del r[k]
            else: r.insert(k, rnd.choice("ACGT"))
        r = "".join(r); strand = "-" if i % 3 == 1 else "+"
        if strand == "-": r = rc(r)
        q = "".join(chr(33 + rnd.randint(0, 40)) for _ in r)
        f.write("@read%d pos=%d\n%s\n+\n%s\n" % (i, p, r, q))
        t.write("read%d\t%s\n" % (i, strand))
    r = "".join(rnd.choice("ACGT") for _ in range(200))
    f.write("@random\n%s\n+\n%s\n" % (r, "I" * 200))
    t.write("random\t*\n")
PYEOF
    run align --format sam -k 40 reads.fq ref.fa
    check_rc "lambda SAM" 0
    check_no_err "lambda SAM"
    cp "$OUT" lam.sam
    python3 - lam.sam reads.fq ref.fa truth.tsv <<'PYEOF' >replay.out
import re, sys
sam, fq, fa, truth = sys.argv[1:]
ref, name = {}, None
for l in open(fa):
    l = l.strip()
    if l.startswith(">"): name = l[1:]; ref[name] = ""
    else: ref[name] += l
lines = open(fq).read().split("\n")
reads = {lines[i][1:].split()[0]: (lines[i + 1], lines[i + 3]) for i in range(0, len(lines) - 3, 4)}
want = dict(l.split("\t") for l in open(truth).read().split("\n") if l)
rc = lambda s: s[::-1].translate(str.maketrans("ACGT", "TGCA"))
bad, n_rec, primaries, sq = [], 0, {}, []
for l in open(sam):
    l = l.rstrip("\n")
    if l.startswith("@SQ"):
        f = dict(x.split(":", 1) for x in l.split("\t")[1:]); sq.append((f["SN"], int(f["LN"])))
        continue
    if l.startswith("@"): continue
    n_rec += 1
    f = l.split("\t"); qn, flag, rn, pos, mapq, cig, seq, qual = f[0], int(f[1]), f[2], int(f[3]), f[4], f[5], f[9], f[10]
    tags = dict((t[:2], t[5:]) for t in f[11:])
    r, q = reads[qn]
    if flag & 4:
        if want[qn] != "*" or rn != "*" or seq != r: bad.append("unmapped " + l)
        continue
    if want[qn] == "*": bad.append("random read mapped: " + l)
    if not flag & 256:
        primaries[qn] = primaries.get(qn, 0) + 1
        strand = "-" if flag & 16 else "+"
        if strand != want[qn]: bad.append("%s: strand %s, cut from %s" % (qn, strand, want[qn]))
        exp_seq, exp_q = (rc(r), q[::-1]) if flag & 16 else (r, q)
        if seq != exp_seq or qual != exp_q: bad.append(qn + ": SEQ/QUAL not the read's")
    elif seq != "*": bad.append(qn + ": a secondary record with SEQ")
    s = rc(r) if flag & 16 else r
    i, j, nm = 0, pos - 1, 0
    for n, op in re.findall(r"(\d+)([=XIDM])", cig):
        n = int(n)
        if op in "=X":
            for k in range(n):
                if (s[i + k] == ref[rn][j + k]) != (op == "="): bad.append(qn + ": %s on unequal bases" % op)
            nm += n if op == "X" else 0; i += n; j += n
        elif op == "I": i += n; nm += n
        elif op == "D": j += n; nm += n
    if i != len(s): bad.append(qn + ": the CIGAR spans %d of %d" % (i, len(s)))
    if int(tags["NM"]) != nm or int(tags["AS"]) != -nm: bad.append(qn + ": NM/AS " + str(tags))
for qn in want:
    if want[qn] != "*" and primaries.get(qn) != 1: bad.append(qn + ": %s primaries" % primaries.get(qn))
if [s for s, _ in sq] != ["part1", "part2", "part3"]: bad.append("@SQ " + str(sq))
print("\n".join(bad) if bad else "ok %d" % n_rec)
PYEOF
    grep -q '^ok [0-9]' replay.out && pass || fail "SAM replay: $(head -5 replay.out)"
    if [ $have_samtools = 1 ]; then
        samtools quickcheck -v lam.sam >qc.out 2>&1 && pass || fail "samtools quickcheck: $(cat qc.out)"
        n=$(grep -vc '^@' lam.sam)
        [ "$(samtools view -c lam.sam 2>/dev/null)" = "$n" ] && pass || fail "samtools view -c"
        [ "$(samtools view -c -f 4 lam.sam 2>/dev/null)" = 1 ] && pass || fail "samtools: one unmapped"
        [ "$(samtools view -c -F 0x904 lam.sam 2>/dev/null)" = 24 ] && pass || fail "samtools: 24 primaries"
        samtools sort -o lam.bam lam.sam 2>sort.err && samtools index lam.bam 2>>sort.err && pass ||
            fail "samtools sort/index: $(cat sort.err)"
        [ "$(samtools view -c lam.bam)" = "$n" ] && pass || fail "BAM: not every record"
        # A region query through the index: the primaries on part2.
        want=$(awk -F '\t' '!/^@/ && $3 == "part2" && int($2 / 256) % 2 == 0' lam.sam | wc -l)
        [ "$(samtools view -c -F 0x100 lam.bam part2)" = "$want" ] && pass || fail "BAM index: part2"
        # calmd recomputes NM (and MD) from the reference: nothing to correct.
        samtools faidx ref.fa
        samtools calmd lam.bam ref.fa >calmd.sam 2>calmd.err
        if ! grep -q 'different NM' calmd.err && [ "$(grep -vc '^@' calmd.sam)" = "$n" ]; then
            pass
        else
            fail "samtools calmd: $(head -3 calmd.err)"
        fi
        # --cigar-m: samtools reads it too, with the same NM.
        run align --format sam --cigar-m -k 40 reads.fq ref.fa
        samtools calmd "$OUT" ref.fa >/dev/null 2>calmd_m.err
        ! grep -q 'different NM' calmd_m.err && ! grep -q '[=X]' <(awk -F '\t' '!/^@/ { print $6 }' "$OUT") &&
            pass || fail "--cigar-m with calmd: $(head -3 calmd_m.err)"
    else
        echo "skipped: samtools not installed (scripts/install_deps.sh)"
    fi

    # ---- 3. PAF of the same run ------------------------------------------------------------
    run align --format paf -k 40 reads.fq ref.fa
    check_rc "lambda PAF" 0
    python3 - "$OUT" reads.fq ref.fa truth.tsv <<'PYEOF' >paf.out
import re, sys
paf, fq, fa, truth = sys.argv[1:]
ref, name = {}, None
for l in open(fa):
    l = l.strip()
    if l.startswith(">"): name = l[1:]; ref[name] = ""
    else: ref[name] += l
lines = open(fq).read().split("\n")
reads = {lines[i][1:].split()[0]: lines[i + 1] for i in range(0, len(lines) - 3, 4)}
want = dict(l.split("\t") for l in open(truth).read().split("\n") if l)
rc = lambda s: s[::-1].translate(str.maketrans("ACGT", "TGCA"))
bad, prim = [], {}
for l in open(paf):
    f = l.rstrip("\n").split("\t")
    qn, ql, qs, qe, st, tn, tl, ts, te, nmatch, block, mapq = f[:12]
    ql, qs, qe, tl, ts, te, nmatch, block = map(int, (ql, qs, qe, tl, ts, te, nmatch, block))
    tags = dict((t[:2], t[5:]) for t in f[12:])
    r = reads[qn]
    if ql != len(r) or tl != len(ref[tn]): bad.append(qn + ": qlen/tlen")
    cig = re.findall(r"(\d+)([MID])", tags["cg"])
    if "".join(n + o for n, o in cig) != tags["cg"]: bad.append(qn + ": cg not M/I/D")
    m = sum(int(n) for n, o in cig if o == "M"); ins = sum(int(n) for n, o in cig if o == "I")
    dl = sum(int(n) for n, o in cig if o == "D")
    if qe - qs != m + ins or te - ts != m + dl or block != m + ins + dl: bad.append(qn + ": spans")
    s = r[qs:qe] if st == "+" else rc(r)[len(r) - qe:len(r) - qs]
    i, j, eq = 0, ts, 0
    for n, o in cig:
        n = int(n)
        if o == "M":
            eq += sum(s[i + k] == ref[tn][j + k] for k in range(n)); i += n; j += n
        elif o == "I": i += n
        else: j += n
    if eq != nmatch: bad.append(qn + ": matches %d, counted %d" % (nmatch, eq))
    if int(tags["NM"]) != block - eq: bad.append(qn + ": NM")
    if tags["tp"] == "P":
        prim[qn] = prim.get(qn, 0) + 1
        if st != want[qn]: bad.append(qn + ": strand")
for qn in want:
    if (want[qn] != "*") != (prim.get(qn) == 1): bad.append(qn + ": primaries %s" % prim.get(qn))
print("\n".join(bad) if bad else "ok")
PYEOF
    [ "$(cat paf.out)" = ok ] && pass || fail "PAF columns: $(head -5 paf.out)"
else
    echo "skipped: $LAMBDA or python3 not found"
fi

# ---- 4. global mode, --pairs, errors ---------------------------------------------------------

printf 'GATTACA\tGATTCCA\nAACG\tCGTT\n' >pairs.tsv
run align --format sam --mode global --revcomp --alphabet dna --pairs pairs.tsv
check_rc "global --pairs SAM" 0
awk -F '\t' '!/^@/ { print $1, $2, $3, $4, $6, $10 }' "$OUT" >g.got
printf '%s\n' '1 0 1 1 4=1X2= GATTACA' '2 16 2 1 4= CGTT' >g.want
cmp -s g.got g.want && pass || fail "global --pairs SAM: $(cat g.got)"
grep -c '^@SQ' "$OUT" | grep -qx 2 && pass || fail "global --pairs SAM: @SQ per pair"
if [ $have_samtools = 1 ]; then
    samtools quickcheck "$OUT" && pass || fail "global --pairs SAM: quickcheck"
fi
# Global mode is one strand by default: AACG/CGTT is 4 substitutions.
run align --format paf --mode global --pairs pairs.tsv
check_tsv "global --pairs PAF" <<'EOF'
1 7 0 7 + 1 7 0 7 6 7 60 tp:A:P NM:i:1 cg:Z:7M
2 4 0 4 + 2 4 0 4 0 4 60 tp:A:P NM:i:4 cg:Z:4M
EOF

expect_error "--cigar-m without sam" '^warpmatch: --cigar-m writes SAM' align --cigar-m seq:ACGT seq:ACGT
expect_error "--format sam for one pattern" "^warpmatch: --format sam is for pattern sets" \
    search --format sam ACGT
expect_error "--format bam" "^warpmatch: unknown --format 'bam' \(expected tsv, json, sam or paf\)" \
    align --format bam ACGT ACGT

finish
