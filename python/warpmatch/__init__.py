"""warpmatch: find strings and signals in large inputs, on CPU cores and CUDA GPUs.

A Python face of the warpmatch C library (include/warpmatch.h). Every
function takes a ``backend`` ('auto', 'cpu' or 'cuda') and ``threads`` (CPU
threads, 0 = all cores), gives the same results on every backend, and
releases the GIL while the library works, so other Python threads run
meanwhile (and several calls can run at once from several threads).

Sequences are ``bytes``, ASCII ``str``, ``bytearray``, ``memoryview`` or
1-D numpy arrays of one-byte items; offsets and distances count bytes.
Batches are lists of those, 1-D numpy arrays of dtype ``S`` or 2-D
``uint8`` arrays (one sequence a row). Results of batches are numpy
structured arrays. Errors raise :class:`Error` (or a subclass) with the
library's message; bad arguments raise :class:`InvalidArgument`, which is
also a ``ValueError``.

>>> import warpmatch
>>> m = warpmatch.search(b"ACGT", b"xxACGTxxACGAxx", k=1)
>>> m[["start", "end", "errors"]].tolist()
[(2, 5, 1), (2, 6, 0), (2, 7, 1), (8, 11, 1), (8, 12, 1)]
>>> warpmatch.align("ACGT", "xxACTTxx", cigar=True)
Alignment(distance=1, start=2, end=5, cigar='2=1I1=')
>>> warpmatch.align("ACGT", "ACTT", mode="global", cigar=True)
Alignment(distance=1, start=0, end=4, cigar='2=1X1=')
"""
from collections import namedtuple
import math

import numpy as np

from . import _warpmatch
from ._warpmatch import DeviceError, Error, InvalidArgument, OutOfMemory, UnsupportedError

__version__ = "0.1.0"

__all__ = [
    "search", "search_set", "align", "align_pairs", "align_pairs_packed", "PairColumns", "dtw",
    "dtw_many", "dtw_matrix", "Alignment",
    "Error", "InvalidArgument", "UnsupportedError", "DeviceError", "OutOfMemory",
    "MATCH_DTYPE", "ALIGNMENT_DTYPE", "DTW_DTYPE", "library_version", "cuda_built",
    "cuda_device_count", "__version__",
]


def _dtype(layout):
    """A numpy dtype over a C struct from (itemsize, (name, offset, code)...)."""
    size, *fields = layout
    return np.dtype({"names": [f[0] for f in fields], "formats": [f[2] for f in fields],
                     "offsets": [f[1] for f in fields], "itemsize": size})


#: One match of :func:`search`: record index, [start, end) in the record,
#: errors, strand (0 = '+', 1 = reverse complement), pattern index.
#: The records are the library's own structs (40 bytes, with padding).
MATCH_DTYPE = _dtype(_warpmatch.MATCH_LAYOUT)
#: One pair of :func:`align_pairs`: distance (-1 when over k), [start, end)
#: in the target (the library's structs, 32 bytes with padding).
ALIGNMENT_DTYPE = _dtype(_warpmatch.ALIGN_LAYOUT)
#: One match of :func:`dtw`: [start, end) in the series and the distance.
DTW_DTYPE = np.dtype([("start", "=u8"), ("end", "=u8"), ("distance", "=f8")])

Alignment = namedtuple("Alignment", "distance start end cigar")
Alignment.__doc__ = """One alignment: ``distance`` (edit distance), ``start`` and ``end``
(the half-open stretch of the target aligned), ``cigar`` (extended CIGAR:
'=' match, 'X' mismatch, 'I' a query symbol not in the target, 'D' a target
symbol not in the query, as edlib and SAM write it; None unless asked)."""

_BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2}
_METRICS = {"edit": 0, "hamming": 1}
_ALPHABETS = {"bytes": 0, "dna": 1}
_SEARCH_ALGOS = {"auto": 0, "shiftor": 1, "bitap": 2, "myers": 3, "ac": 4, "pfac": 5,
                 "wumanber": 6, "wumanber-paper": 7, "qgram": 8, "teddy": 9}
_ALIGN_MODES = {"infix": 0, "global": 1}
_ALIGN_ALGOS = {"auto": 0, "wavefront": 1, "dp": 1, "bitvector": 2, "four-russians": 3}
_DTW_MODES = {"subsequence": 0, "global": 1, "ucr": 2}
_DTW_COSTS = {"abs": 0, "squared": 1}
_DTW_PRECISIONS = {"f64": 0, "f32": 1}  # wm_dtw_precision_t


def _pick(table, value, what):
    try:
        return table[value]
    except (KeyError, TypeError):
        raise InvalidArgument("%s must be one of %s, not %r"
                              % (what, ", ".join(repr(k) for k in table), value)) from None


def _count(value, what, none=None):
    """A non-negative int (None gives `none`)."""
    if value is None and none is not None:
        return none
    if (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0
            or value >= 2 ** 63):
        raise InvalidArgument("%s must be a non-negative integer, not %r" % (what, value))
    return int(value)


def _backend(backend, threads):
    return _pick(_BACKENDS, backend, "backend"), _count(threads, "threads")


def _record_bytes(t, i):
    """One record as bytes, by the rules single texts follow (C: inputs.c)."""
    if isinstance(t, str):
        if not t.isascii():
            raise InvalidArgument("text[%d] is a str with non-ASCII characters; pass bytes "
                                  "(offsets and distances count bytes)" % i)
        return t.encode("ascii")
    if isinstance(t, np.ndarray) and (t.ndim != 1 or t.itemsize != 1):
        raise TypeError("text[%d]: a numpy array must be 1-D with one-byte items "
                        "(uint8, int8, S1), got %d-D of dtype %s" % (i, t.ndim, t.dtype))
    try:
        return bytes(memoryview(t))
    except TypeError:
        raise TypeError("text[%d] must be bytes, an ASCII str or a buffer of bytes, not %s"
                        % (i, type(t).__name__)) from None


def _records(text):
    """One text buffer and its record starts (None for one record)."""
    if not isinstance(text, (list, tuple)):
        return text, None
    parts = [_record_bytes(t, i) for i, t in enumerate(text)]
    starts = np.zeros(len(parts), dtype=np.uint64)
    if parts:
        np.cumsum([len(p) for p in parts[:-1]], out=starts[1:])
    return b"".join(parts), starts


def _search(patterns, is_set, text, k, metric, case_insensitive, alphabet, revcomp, algo,
            backend, threads, limit):
    buf, starts = _records(text)
    raw = _warpmatch.search(
        patterns, is_set, buf, starts, _count(k, "k"), _pick(_METRICS, metric, "metric"),
        int(bool(case_insensitive)), _pick(_ALPHABETS, alphabet, "alphabet"),
        int(bool(revcomp)), _pick(_SEARCH_ALGOS, algo, "algo"), *_backend(backend, threads),
        _count(limit, "limit", none=0))
    return raw.view(MATCH_DTYPE)


def search(pattern, text, k=0, *, metric="edit", case_insensitive=False, alphabet="bytes",
           revcomp=False, algo="auto", backend="auto", threads=0, limit=None):
    """Every occurrence of `pattern` in `text` within `k` errors.

    One match per end position (and strand): ``errors`` is the least number
    of errors of a substring ending there, ``start`` the start of the
    shortest such substring (the contract of ``wm_search``).

    pattern: bytes, ASCII str or a one-byte-item buffer (1 .. 65536 bytes).
    text: the same kinds, or a list/tuple of them (records: matches never
        cross a record border and are reported within their record).
    k: errors allowed (k < len(pattern)).
    metric: 'edit' (insertions, deletions, substitutions) or 'hamming'.
    case_insensitive: fold ASCII case.
    alphabet: 'bytes', or 'dna' (IUPAC codes in the pattern, case folded,
        only A/C/G/T(U) of the text match).
    revcomp: also search the reverse complement (strand 1).
    algo: 'auto', 'shiftor' (k = 0), 'bitap', 'myers'.
    limit: stop after this many matches (None: all).

    Returns a numpy array of :data:`MATCH_DTYPE` (fields record, start, end,
    errors, strand, pattern), in order of (record, end, strand).
    """
    return _search(pattern, False, text, k, metric, case_insensitive, alphabet, revcomp, algo,
                   backend, threads, limit)


def search_set(patterns, text, k=0, *, metric="edit", case_insensitive=False,
               alphabet="bytes", revcomp=False, algo="auto", backend="auto", threads=0,
               limit=None):
    """Every occurrence of every pattern of a set, exactly (k = 0) or within k
    errors: then each pattern's matches are those :func:`search` of it alone
    gives (one per end, the fewest errors, the shortest occurrence).

    patterns: a list of bytes/str (or a numpy array of dtype S); the field
        ``pattern`` of each match is the 0-based index in this list;
        duplicates are reported under each index.
    algo: 'auto', 'ac', 'pfac', 'wumanber', 'wumanber-paper', 'qgram', 'teddy' (exact
        sets; 'auto' when k > 0). metric: 'edit' or 'hamming' (k > 0).
    Other arguments as :func:`search`. Returns an array of
    :data:`MATCH_DTYPE` in order of (record, end, pattern, strand).
    """
    return _search(patterns, True, text, k, metric, case_insensitive, alphabet, revcomp, algo,
                   backend, threads, limit)


def _align_args(mode, algo, k, cigar, case_insensitive, alphabet, fr_t):
    return (_pick(_ALIGN_MODES, mode, "mode"), _pick(_ALIGN_ALGOS, algo, "algo"),
            -1 if k is None else _count(k, "k"), bool(cigar), bool(case_insensitive),
            _pick(_ALPHABETS, alphabet, "alphabet"), _count(fr_t, "fr_t"))


def align(query, target, mode="infix", cigar=False, k=None, backend="auto", *, algo="auto",
          case_insensitive=False, alphabet="bytes", all_ends=False, fr_t=0, threads=0):
    """Align `query` to `target` in edit distance (unit costs).

    mode: 'infix' (the substring of the target closest to the whole query;
        edlib's 'HW'; ties: the leftmost end, then the shortest substring) or
        'global' (the whole query against the whole target; edlib's 'NW').
    cigar: also return the extended CIGAR of one optimal alignment.
    k: report nothing worse than k errors (None: no limit); also prunes.
    algo: 'auto', 'wavefront' ('dp'), 'bitvector', 'four-russians' (global).
    alphabet: 'bytes' or 'dna' (case folded, U = T, only A/C/G/T match).
    all_ends: infix: every end reaching the best distance (a list).
    fr_t: four-russians block size, 1 .. 4 (0 = automatic).

    Returns an :class:`Alignment`, or None when the distance is over k
    (with all_ends, a list of them, empty when over k).
    """
    bk, th = _backend(backend, threads)
    found = _warpmatch.align(query, target,
                             *_align_args(mode, algo, k, cigar, case_insensitive, alphabet,
                                          fr_t), bool(all_ends), bk, th)
    found = [Alignment(*a) for a in found]
    if all_ends:
        return found
    return found[0] if found else None


def align_pairs(queries, targets, mode="infix", cigar=False, k=None, backend="auto", *,
                algo="auto", case_insensitive=False, alphabet="bytes", fr_t=0, threads=0):
    """Align queries[i] to targets[i] for every i, as :func:`align` would.

    queries, targets: lists (or tuples) of bytes/str, 1-D numpy arrays of
        dtype S (trailing NUL bytes are dropped, as numpy does), or 2-D uint8
        arrays (one sequence a row); both the same length.

    Returns a numpy array of :data:`ALIGNMENT_DTYPE` (distance, start, end;
    distance -1 when the pair is over k); with ``cigar=True`` a tuple
    (array, list of CIGAR str, None for a pair over k). Global mode takes
    empty sequences; infix needs non-empty queries. Errors name the pair.
    """
    bk, th = _backend(backend, threads)
    raw, cigars = _warpmatch.align_pairs(
        queries, targets, *_align_args(mode, algo, k, cigar, case_insensitive, alphabet, fr_t),
        bk, th)
    arr = raw.view(ALIGNMENT_DTYPE)
    return (arr, cigars) if cigar else arr


PairColumns = namedtuple("PairColumns", "distance start end cigar_offsets cigar")
PairColumns.__doc__ = """What :func:`align_pairs_packed` returns, a numpy array a column:
``distance`` (int64, -1 when the pair is over k), ``start`` and ``end``
(uint64: the stretch of the target aligned), and with ``cigar=True``
``cigar_offsets`` (uint64, n + 1) into ``cigar`` (uint8: every CIGAR back
to back, pair i's is ``cigar[cigar_offsets[i]:cigar_offsets[i + 1]]``,
empty over k); both None otherwise. :meth:`cigar_str` gives one as str."""


def _cigar_str(self, i):
    """Pair i's CIGAR as str (None without cigar=True)."""
    if self.cigar is None:
        return None
    return self.cigar[self.cigar_offsets[i]:self.cigar_offsets[i + 1]].tobytes().decode("ascii")


PairColumns.cigar_str = _cigar_str


def align_pairs_packed(queries, query_offsets, targets, target_offsets, mode="infix",
                       cigar=False, k=None, backend="auto", *, algo="auto",
                       case_insensitive=False, alphabet="bytes", fr_t=0, threads=0):
    """:func:`align_pairs` for pairs given as columns, as Arrow stores strings.

    queries, targets: every sequence of a side back to back (bytes,
        bytearray, memoryview or a 1-D uint8 numpy array: read in place).
    query_offsets, target_offsets: n + 1 non-decreasing integers each (uint64
        arrays are read in place; other integer arrays and lists are converted
        once); pair i is ``queries[query_offsets[i]:query_offsets[i + 1]]``
        against ``targets[target_offsets[i]:target_offsets[i + 1]]``.

    Returns :class:`PairColumns`. The results equal :func:`align_pairs`' for
    the same pairs; no Python object is made a pair, so millions of pairs
    cost what the library's call costs (on the GPU, packing, copies, kernels
    and results overlap). Errors name the pair.
    """
    bk, th = _backend(backend, threads)
    dist, start, end, coff, cig = _warpmatch.align_pairs_packed(
        queries, query_offsets, targets, target_offsets,
        *_align_args(mode, algo, k, cigar, case_insensitive, alphabet, fr_t), bk, th)
    return PairColumns(dist.view("=i8"), start.view("=u8"), end.view("=u8"),
                       None if coff is None else coff.view("=u8"), cig)


def _dtw_args(mode, cost, window, znorm, top, max_distance, length, path, backend, threads,
              precision):
    bk, th = _backend(backend, threads)
    if window is None:
        window = -1
    elif isinstance(window, bool) or not isinstance(window, (int, np.integer)):
        raise InvalidArgument("window must be an integer or None, not %r" % (window,))
    limit = math.inf if max_distance is None else float(max_distance)
    return (_pick(_DTW_MODES, mode, "mode"), _pick(_DTW_COSTS, cost, "cost"), int(window),
            bool(znorm), _count(top, "top"), limit, _count(length, "length"), bool(path), bk, th,
            _pick(_DTW_PRECISIONS, precision, "precision"))


def _dtw_result(raw, paths, path):
    arr = raw.view(DTW_DTYPE)
    return (arr, paths) if path else arr


def dtw(query, series, mode="subsequence", cost="abs", *, window=None, znorm=False, top=1,
        max_distance=None, length=0, path=False, precision="f64", backend="auto", threads=0):
    """Dynamic time warping of `query` against `series` (1-D numeric arrays).

    A C-contiguous float64 array is read in place (zero copy); float32, other
    numbers, lists and strided views are converted to float64 once. Every
    sample must be finite.

    mode: 'subsequence' (the stretch of the series closest to the query),
        'global' (the whole query against the whole series, one match [0, n))
        or 'ucr' (z-normalised windows of `length`, UCR Suite).
    cost: 'abs' (|x - y|) or 'squared' ((x - y)^2).
    window: Sakoe-Chiba radius (global, ucr); None = no band.
    znorm: z-normalise query and series (subsequence, global).
    top: at most this many matches, best first, non-overlapping; 0 = every
        non-overlapping match within max_distance, in series order.
    max_distance: only matches at most this far (None: no limit).
    length: ucr window length (0 = the query's).
    path: also return each match's warping path.
    precision: 'f64' or 'f32' (not ucr): the DP's arithmetic. 'f32' rounds
        each sample to float32 and computes in float32 on every backend (the
        same bits on each, several times faster on a GPU); its distances are
        float32 values (in the float64 field), which differ from 'f64's by
        rounding.

    Returns a numpy array of :data:`DTW_DTYPE` (start, end, distance); with
    ``path=True`` a tuple (array, list of (L, 2) uint64 arrays of (query
    index, series index) cells).
    """
    args = _dtw_args(mode, cost, window, znorm, top, max_distance, length, path, backend,
                     threads, precision)
    return _dtw_result(*_warpmatch.dtw(query, series, *args), path)


def dtw_many(queries, series, mode="subsequence", cost="abs", *, window=None, znorm=False,
             top=1, max_distance=None, length=0, path=False, precision="f64", backend="auto",
             threads=0):
    """Many queries against one series in one call (wm_dtw_many): what
    :func:`dtw` gives for each, as a list in the order of `queries` (a list
    of 1-D numeric arrays, each read in place when C-contiguous float64).
    The GPU runs queries of similar length in the same launches; errors name
    the query at fault. Options as :func:`dtw`.
    """
    args = _dtw_args(mode, cost, window, znorm, top, max_distance, length, path, backend,
                     threads, precision)
    return [_dtw_result(raw, paths, path)
            for raw, paths in _warpmatch.dtw_many(queries, series, *args)]


def dtw_matrix(a, b=None, cost="abs", *, window=None, znorm=False, precision="f64",
               backend="auto", threads=0):
    """The global DTW distance of every signal of `a` against every signal of
    `b` (wm_dtw_matrix), or of `a` against itself when `b` is None (each pair
    computed once, 0 on the diagonal): a float64 array of shape (len(a),
    len(b)). `a` and `b` are 2-D arrays (a signal a row, read in place when
    C-contiguous float64) or lists of 1-D arrays of any lengths.

    cost: 'abs' or 'squared'; window: Sakoe-Chiba radius in samples (None:
    no band; it widens by the length difference of a pair); znorm:
    z-normalise each signal on its own; precision: 'f64', or 'f32' (as
    :func:`dtw`; the array is then float32). The distances are :func:`dtw`'s
    in global mode, bit for bit, on every backend; the GPU runs a warp a pair.
    Errors name the signal ("a[3]: sample 5 is NaN").
    """
    bk, th = _backend(backend, threads)
    if window is None:
        window = -1
    elif isinstance(window, bool) or not isinstance(window, (int, np.integer)):
        raise InvalidArgument("window must be an integer or None, not %r" % (window,))
    p = _pick(_DTW_PRECISIONS, precision, "precision")
    out = _warpmatch.dtw_matrix(a, b, _pick(_DTW_COSTS, cost, "cost"), int(window),
                                bool(znorm), bk, th, p)
    return out.astype(np.float32) if p == 1 else out  # f32: each a float, exactly


def library_version():
    """The version of the C library the package runs on (wm_version())."""
    return _warpmatch.library_version()


def cuda_built():
    """True when the C library was built with its CUDA backend."""
    return _warpmatch.cuda_built()


def cuda_device_count():
    """GPUs the CUDA backend sees (0 when not built or none found)."""
    return _warpmatch.cuda_device_count()
