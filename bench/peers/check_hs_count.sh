#!/usr/bin/env bash
# check_hs_count.sh - hs_count against a brute-force oracle.
#
# Usage: bash bench/peers/check_hs_count.sh HS_COUNT [N_CASES] [SEED]
#
# Random small texts over 2- and 4-letter alphabets (plus the overlap case
# text 'aaaa...' with pattern 'aaa'), k = 0..2, m = 4..12. The oracle is the
# plain Sellers DP in python3: count the ends j (1..n) with D[m][j] <= k, i.e.
# the distinct end positions of substrings within k edits of the pattern.
# hs_count runs with 1 and 3 threads (3 exercises the split on tiny texts).
# Prints the seed and the first failing case; exit 0 when all pass.
set -euo pipefail

hs=${1:?usage: check_hs_count.sh HS_COUNT [N_CASES] [SEED]}
n_cases=${2:-300}
seed=${3:-12345}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Cases: one line "k pattern textfile expected" each, written by python.
python3 - "$tmp" "$n_cases" "$seed" > "$tmp/cases" <<'EOF'
import random, sys
tmp, n_cases, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)

def oracle(p, t, k):
    m = len(p)
    col = list(range(m + 1))          # D[i][0] = i: the match may start anywhere
    count = 0
    for c in t:
        new = [0] * (m + 1)           # D[0][j] = 0
        for i in range(1, m + 1):
            new[i] = min(col[i - 1] + (p[i - 1] != c), col[i] + 1, new[i - 1] + 1)
        col = new
        count += col[m] <= k
    return count

cases = []
for k in range(3):
    for m in (4, 5, 12):                # the overlap case, also long runs of a
        cases.append((k, 'a' * m, 'a' * rng.randint(0, 40)))
    cases.append((k, 'aaa', 'aaaaaaaaaa'))
    cases.append((k, 'abab', 'ababababab'))
for i in range(n_cases):
    k = i % 3
    alpha = 'ab' if i % 2 else 'ACGT'
    m = rng.randint(4, 12)
    n = rng.randint(0, 300)
    t = ''.join(rng.choice(alpha) for _ in range(n))
    if t and rng.random() < 0.7:        # plant a mutated copy of the pattern
        p = t[rng.randint(0, max(0, n - m)):][:m]
        p = (p + ''.join(rng.choice(alpha) for _ in range(m)))[:m]
    else:
        p = ''.join(rng.choice(alpha) for _ in range(m))
    cases.append((k, p, t))
for idx, (k, p, t) in enumerate(cases):
    path = '%s/t%d' % (tmp, idx)
    with open(path, 'w') as f:
        f.write(t)
    print(k, p, path, oracle(p, t, k))
EOF

n_ok=0
n_fail=0
n_dup=0
n_back=0
while read -r k p path want; do
  for t in 1 3; do
    got=$("$hs" -k "$k" -t "$t" -r 1 "$p" "$path" 2>"$tmp/err" | sed -n 's/.* matches=\([0-9]*\) .*/\1/p') || true
    if [[ "$got" != "$want" ]]; then
      n_fail=$((n_fail + 1))
      if (( n_fail <= 5 )); then
        echo "FAIL seed=$seed k=$k m=${#p} threads=$t pattern=$p text=$(cat "$path") want=$want got=${got:-none} $(cat "$tmp/err")"
      fi
    else
      n_ok=$((n_ok + 1))
    fi
    d=$(sed -n 's/.*duplicate_reports=\([0-9]*\).*/\1/p' "$tmp/err")
    b=$(sed -n 's/.*out_of_order_reports=\([0-9]*\).*/\1/p' "$tmp/err")
    n_dup=$((n_dup + ${d:-0}))
    n_back=$((n_back + ${b:-0}))
  done
done < "$tmp/cases"
echo "check_hs_count: seed=$seed passed=$n_ok failed=$n_fail" \
     "(hyperscan duplicate end reports seen: $n_dup, out-of-order: $n_back)"
(( n_fail == 0 ))
