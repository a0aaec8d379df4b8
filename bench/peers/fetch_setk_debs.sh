#!/usr/bin/env bash
# fetch_setk_debs.sh - the .deb files of issue 17's peers (RazerS 3 from
# seqan-apps, Bowtie 1 from bowtie), for a host with no network.
#
# Usage: bash bench/peers/fetch_setk_debs.sh [DEB_DIR]     # [.debs/setk]
#
# Run it on a Debian 12 machine with apt (network to the Debian mirror; no root
# needed: apt-get download writes into DEB_DIR). It downloads seqan-apps,
# bowtie, libgomp1 (razers3's OpenMP runtime, absent from hosts without gcc's
# OpenMP) and every other direct dependency of the two that is not installed
# on this machine, except the C runtime (libc6, libgcc-s1, libstdc++6: never
# carried, a host's own must serve) and python3 (only bowtie's wrapper script
# needs it: bench/setk_run.sh calls bowtie-align-s and bowtie-build-s, its
# compiled programs, when they are there).
#
# On the host (as for the other peers, bench/peers/unpack_debs.sh):
#   PEERS_DEBS=DEB_DIR bash bench/setk_run.sh OUTDIR
# or unpack once and point at the folder:
#   bash bench/peers/unpack_debs.sh DEB_DIR PREFIX >/dev/null
#   PEERS_DIR=PREFIX bash bench/setk_run.sh OUTDIR
# Exit 0 when every package was downloaded, 2 otherwise.
set -euo pipefail

if (( $# > 1 )); then
  sed -n '5p' "$0" >&2
  exit 2
fi
dir=${1:-.debs/setk}
command -v apt-get >/dev/null || { echo "fetch_setk_debs: apt-get not found (a Debian machine is needed)" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

want=(seqan-apps bowtie libgomp1)
never=" libc6 libgcc-s1 libstdc++6 python3 seqan-apps bowtie libgomp1 "
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in seqan-apps bowtie; do
  # "  Depends: libfoo" lines; alternatives (|) keep their first choice
  while read -r dep; do
    [[ -z "$dep" || "$never" == *" $dep "* ]] && continue
    installed "$dep" && continue
    want+=("$dep")
    never+="$dep "
  done < <(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
             --no-replaces --no-enhances "$p" | sed -n 's/^ *|\{0,1\}Depends: //p' | tr -d '<>')
done

echo "fetch_setk_debs: ${want[*]} -> $dir" >&2
(cd "$dir" && apt-get download "${want[@]}") >&2 || { echo "fetch_setk_debs: apt-get download failed" >&2; exit 2; }
for p in "${want[@]}"; do
  compgen -G "$dir/${p}_*.deb" >/dev/null || { echo "fetch_setk_debs: $p not downloaded" >&2; exit 2; }
done
ls -l "$dir"/*.deb >&2
echo "fetch_setk_debs: done; on the host: PEERS_DEBS=$dir bash bench/setk_run.sh OUTDIR" >&2
