/*
** warpmatch.h -- the one public header of the warpmatch library.
**
** warpmatch finds every occurrence of a pattern in large texts, exactly or
** within k errors (edit or Hamming distance), on CPU threads or a CUDA GPU.
**
** Life cycle (compile once, scan many, as Hyperscan does):
**
**     wm_opts_t o = wm_opts_default();  o.max_edits = 2;
**     wm_db_t *db;  wm_compile(pat, m, &o, &db);            // immutable, shareable
**     wm_context_t *cx; wm_context_new(NULL, &cx);           // backend, threads, GPU
**     wm_text_t t = { seq, n, NULL, 0 };                     // one record
**     wm_search(cx, db, &t, on_match, user);                 // sorted matches
**     wm_context_free(cx); wm_db_free(db);
**
** Nothing here prints, exits or aborts. Every call returns a wm_status;
** wm_strerror() turns it into static text and wm_context_errmsg() gives the
** last detailed message of a context (CUDA's own text included).
** Offsets are 64-bit everywhere: texts over 4 GiB are normal.
** This header is plain C and includes neither CUDA nor MPI.
*/
#ifndef WARPMATCH_H
#define WARPMATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WM_VERSION_MAJOR 0
#define WM_VERSION_MINOR 1
#define WM_VERSION_PATCH 0
#define WM_VERSION_STRING "0.1.0"

/* Status codes. 0 is success, positive values are non-error outcomes,
** negative values are errors. Numbers are never reused. */
typedef enum {
    WM_OK = 0,
    WM_STOPPED = 1,             /* the match callback asked to stop */
    WM_INVALID = -1,            /* a bad argument or option */
    WM_NOMEM = -2,              /* host memory could not be allocated */
    WM_IO = -3,                 /* a file could not be read */
    WM_FORMAT = -4,             /* malformed input (FASTA, FASTQ, gzip) */
    WM_UNSUPPORTED = -5,        /* valid, but not built or not supported */
    WM_NO_DEVICE = -6,          /* the CUDA backend was asked for; no GPU */
    WM_DEVICE = -7,             /* a CUDA call failed */
    WM_DEVICE_NOMEM = -8,       /* the GPU ran out of memory */
    WM_INSUFFICIENT_SPACE = -9, /* a caller's buffer is too small */
    WM_PATTERN_EMPTY = -10,     /* the pattern has no characters */
    WM_PATTERN_TOO_LONG = -11,  /* the pattern is over WM_MAX_PATTERN */
    WM_K_TOO_LARGE = -12        /* k >= pattern length: every place would match */
} wm_status;

/* Static text for a status code; never NULL. */
const char *wm_strerror(int status);

/* The library's version, "major.minor.patch": the one it was built as
** (CMake's project VERSION), which can differ from the header's
** WM_VERSION_STRING when a program runs with another build of the library. */
const char *wm_version(void);
/* The same as major * 10000 + minor * 100 + patch (0.1.0 = 100), to compare;
** WM_VERSION_NUMBER is the header's. */
unsigned wm_version_number(void);
#define WM_VERSION_NUMBER (WM_VERSION_MAJOR * 10000 + WM_VERSION_MINOR * 100 + WM_VERSION_PATCH)

/* What this build of the library has (wm_build_features(), a mask of bits):
** CUDA: the CUDA backend (wm_cuda_device_count() says whether a GPU is there);
** SSE2, AVX2, AVX512 (AVX-512F): SIMD kernel variants compiled in, each run
** only where the CPU has the set, picked at run time; GZIP, BZIP2, XZ, ZSTD:
** compressed input the readers take. */
#define WM_FEATURE_CUDA (1u << 0)
#define WM_FEATURE_SSE2 (1u << 1)
#define WM_FEATURE_AVX2 (1u << 2)
#define WM_FEATURE_AVX512 (1u << 3)
#define WM_FEATURE_GZIP (1u << 4)
#define WM_FEATURE_BZIP2 (1u << 5)
#define WM_FEATURE_XZ (1u << 6)
#define WM_FEATURE_ZSTD (1u << 7)
unsigned wm_build_features(void);
/* The same as words, in bit order, separated by one space, e.g. "sse2 avx2
** avx512 gzip" ("" when none); static, never NULL. MPI is no library
** feature: only the tool uses it. */
const char *wm_build_features_string(void);

/* Longest pattern a database accepts (bytes). */
#define WM_MAX_PATTERN 65536u

typedef enum { WM_METRIC_EDIT = 0, WM_METRIC_HAMMING = 1 } wm_metric_t;

/* Algorithm choice; AUTO picks by pattern length, k and metric. */
typedef enum {
    WM_ALGO_AUTO = 0,
    WM_ALGO_SHIFTOR = 1, /* k = 0 only */
    WM_ALGO_BITAP = 2,   /* Wu-Manber 1992 bit-parallel NFA, edit or Hamming */
    WM_ALGO_MYERS = 3,   /* Myers/Hyyro bit-vector DP, edit distance */
    /* Pattern sets (wm_compile_set; exact matching): */
    WM_ALGO_AC = 4,             /* Aho-Corasick automaton: a full DFA where it fits,
                                   else goto lists with failure links; on the GPU
                                   each thread runs it over its own chunk */
    WM_ALGO_PFAC = 5,           /* failureless Aho-Corasick: one walk of the trie
                                   per text position, no failure links */
    WM_ALGO_WUMANBER = 6,       /* multi-pattern Wu-Manber, tuned: larger blocks,
                                   a better hash */
    WM_ALGO_WUMANBER_PAPER = 7, /* Wu-Manber as paper 003 ran it: B = 3,
                                   B' = 2, shift-and-add hashing (bitshift 2) */
    WM_ALGO_QGRAM = 8,          /* each pattern's last q symbols indexed in a
                                   bitmap (DNA: 2 bits a base; byte sets on
                                   the CPU: the last 4 bytes of a pattern of
                                   4-7, the last 8 of a longer one), hits
                                   verified; patterns of 4+ symbols */
    WM_ALGO_TEDDY = 9           /* small byte sets: every string's last 3 or 4
                                   bytes as nibble fingerprints of 8 buckets,
                                   64 windows a step (Hyperscan's Teddy), hits
                                   verified; CPU only (the GPU runs its own);
                                   up to WM_TEDDY_MAX_PATTERNS patterns */
} wm_algo_t;

/* How pattern bytes are read.
** BYTES: each byte is itself (with case_insensitive, ASCII letters fold).
** DNA:   pattern letters are IUPAC nucleotide codes (A C G T/U R Y S W K M B D
**        H V N) matching the text bases A, C, G, T (U reads as T); case is
**        ignored in pattern and text (soft-masked genomes stay searchable);
**        any other text byte (N included) matches nothing. */
typedef enum { WM_ALPHABET_BYTES = 0, WM_ALPHABET_DNA = 1 } wm_alphabet_t;

/* Options for compiling a pattern. Get defaults from wm_opts_default()
** and change only what differs. New fields are added at the end. */
typedef struct {
    uint32_t max_edits;     /* k: errors allowed [0] */
    wm_metric_t metric;     /* edit or Hamming [edit] */
    int case_insensitive;   /* fold ASCII case [0] */
    wm_alphabet_t alphabet; /* bytes or IUPAC DNA [bytes] */
    int revcomp;            /* also search the reverse complement [0] */
    wm_algo_t algo;         /* [auto] */
    /* The first exact_prefix and the last exact_suffix positions of the
    ** pattern match with no error (IUPAC codes allowed there: a PAM such as
    ** NGG); the errors are the rest's, at most max_edits, so with edits the
    ** gaps stay inside (bulges). On strand 1 (revcomp) the regions are those
    ** of the pattern's reverse complement. A match is as ever one per end:
    ** the fewest errors with the regions exact, then the shortest. At least
    ** one position stays outside them and max_edits is below their count
    ** (else WM_INVALID, WM_K_TOO_LARGE). The CPU runs these. [0, 0] */
    uint32_t exact_prefix, exact_suffix;
    /* Threads wm_compile_set may use for a set within k errors: its pieces
    ** are keyed and sorted on a pool of its own, started for the call (a
    ** million reads take seconds on one thread). The database is the same
    ** whatever the count. [0: one] */
    int compile_threads;
} wm_opts_t;

wm_opts_t wm_opts_default(void);

/* A compiled pattern: immutable, safe to share between threads. */
typedef struct wm_db wm_db_t;

/* Compile `pattern` (m bytes, any byte values) with options `o` (NULL = defaults).
** Errors: WM_PATTERN_EMPTY, WM_PATTERN_TOO_LONG, WM_K_TOO_LARGE (k >= m),
** WM_INVALID (revcomp of a non-nucleotide pattern, algo that cannot do the
** job such as shiftor with k > 0 or myers with Hamming), WM_NOMEM.
** On success *db owns a copy of everything it needs; free with wm_db_free(). */
wm_status wm_compile(const uint8_t *pattern, size_t m, const wm_opts_t *o, wm_db_t **db);
void wm_db_free(wm_db_t *db); /* NULL is a no-op */

/* Compile a set of n patterns (pattern i is patterns[i], lens[i] bytes, any
** byte values): every occurrence of every pattern, overlapping ones included,
** reported with its 0-based index in the set (wm_match_t.pattern).
** Duplicates are allowed; each copy is reported under its own index.
**
** max_edits = 0, exact search: metric is ignored; case_insensitive folds
** ASCII case; alphabet DNA needs patterns of A, C, G, T, U only (either case)
** and matches them to the bases of the text whatever their case (U reads as T;
** N and other bytes match nothing); revcomp (A/C/G/T/U patterns only) also
** searches the reverse complement of each pattern, reported on strand 1;
** algo is AUTO or one of the set algorithms (AC, PFAC, WUMANBER,
** WUMANBER_PAPER, QGRAM; QGRAM needs patterns of at least WM_QGRAM_MIN_LEN).
**
** max_edits = k > 0, within k errors (edit or Hamming, metric): the matches
** of each pattern are exactly those wm_compile of that pattern alone with the
** same options gives (one per end and strand, the fewest errors, the
** shortest occurrence), so each pattern takes what wm_compile takes (IUPAC
** codes in DNA, k below its length); algo must be AUTO (each pattern's kernel
** is chosen for it). Seeds of the k + 1 pieces of each pattern find the
** places to verify; patterns whose pieces are too short to seed (under 12
** bases, 4 bytes) are scanned whole, one by one. CPU only for now: a context
** on a GPU runs it on its CPU threads and says so in wm_context_note.
**
** Errors: WM_INVALID (n = 0, a single-pattern algorithm, a set algorithm with
** k > 0, a pattern the alphabet or revcomp cannot take, QGRAM with a pattern
** too short), WM_PATTERN_EMPTY, WM_PATTERN_TOO_LONG (a pattern over
** WM_MAX_PATTERN), WM_K_TOO_LARGE (k >= a pattern's length), WM_NOMEM. A
** caller that must name the pattern at fault checks first. */
wm_status wm_compile_set(const uint8_t *const *patterns, const size_t *lens, size_t n,
                         const wm_opts_t *o, wm_db_t **db);
#define WM_QGRAM_MIN_LEN 4u
/* WM_ALGO_TEDDY's most patterns: past a few dozen its 8 buckets let most
** windows through (1,000 signatures over 64 MiB: 9.5 s against qgram's
** 0.02), and a larger set is WM_INVALID rather than a scan that seems to
** hang. */
#define WM_TEDDY_MAX_PATTERNS 256u

/* Patterns in a database: n for a set, 1 for wm_compile. */
size_t wm_db_pattern_count(const wm_db_t *db);

/* What a database will run: the algorithm chosen for the CPU (after AUTO). */
wm_algo_t wm_db_algo(const wm_db_t *db);
const char *wm_algo_name(wm_algo_t a);

/* Backends. AUTO uses the GPU when one was built in and found, else the CPU;
** wm_backend_choose() below picks one for a known workload instead. */
typedef enum { WM_BACKEND_AUTO = 0, WM_BACKEND_CPU = 1, WM_BACKEND_CUDA = 2 } wm_backend_t;

/* Progress report: bytes of text finished so far, of total. */
typedef void (*wm_progress_cb)(uint64_t done, uint64_t total, void *user);

typedef struct {
    wm_backend_t backend;    /* [auto] */
    int threads;             /* CPU threads; 0 = all online cores [0] */
    int device;              /* CUDA device ordinal [0] */
    uint64_t chunk_bytes;    /* work unit per thread / per GPU batch; 0 = tuned.
                                dtw cuts the series in pieces of chunk_bytes / 8
                                samples.
                                Tests set it tiny so matches straddle chunks. */
    wm_progress_cb progress; /* NULL = none. With several devices it is called
                                from their threads, one call at a time, with the
                                bytes done summed over them */
    void *progress_user;
    const int *devices; /* run over these CUDA devices together, n_devices of them;
                           the same ordinal may repeat (two contexts on one GPU).
                           With the CPU backend, n_devices > 1 cuts the work into
                           that many shards on CPU sub-contexts (how the split is
                           tested without GPUs). NULL / n_devices <= 1: `device`
                           alone, except that a list of one is that device
                           [NULL, 0]. The list is copied. */
    int n_devices;
} wm_context_opts_t;

wm_context_opts_t wm_context_opts_default(void);

/* An execution context: thread pool, GPU buffers and streams, last error.
** One context is used by one thread at a time; which thread may change
** between calls (each call makes the context's GPU its thread's current
** device). */
typedef struct wm_context wm_context_t;

/* Errors: WM_NO_DEVICE when backend is CUDA and no GPU is found (or CUDA was
** not built: WM_UNSUPPORTED), WM_DEVICE, WM_NOMEM, WM_INVALID. As with
** sqlite3_open, on WM_NO_DEVICE, WM_UNSUPPORTED and WM_DEVICE *cx is still
** set so that wm_context_errmsg() can say why; free it with wm_context_free().
** With backend AUTO a missing or failing GPU is no error: the CPU is used.
**
** Several devices (n_devices > 1): the context owns one ordinary context per
** entry of devices (a CPU shard each when the backend is, or AUTO falls back
** to, the CPU), with the threads shared out among them, and every call gives
** byte for byte what one device gives: wm_search, wm_count and
** wm_count_per_pattern cut the text into n_devices ranges of bytes, wm_align
** (infix) cuts the target, wm_align_pairs and wm_dtw_many cut the list of
** pairs or queries; global wm_align, wm_dtw of one query and
** wm_align_fr_info run on the first device. A device that fails makes the
** call fail with its status; its message then starts "device N: " (the
** GPU's ordinal) or "shard N: " (CPU), after the "pair N: " or "query N: "
** that names the item. A negative ordinal, or (with GPUs present and the
** backend CUDA or AUTO) one of a GPU that does not exist, is WM_INVALID with
** *cx set, so that the message can name it; with no GPU the call fails (CUDA)
** or falls back (AUTO) as for one device. */
wm_status wm_context_new(const wm_context_opts_t *o, wm_context_t **cx);
void wm_context_free(wm_context_t *cx); /* NULL is a no-op */
/* The backend a context really uses (never AUTO). */
wm_backend_t wm_context_backend(const wm_context_t *cx);
/* Last error message of a context, "" when none. Valid until the next call. */
const char *wm_context_errmsg(const wm_context_t *cx);
/* What the context had to do that changed where work ran, "" when nothing:
** a GPU that ran out of memory is tried again with smaller pieces, then the
** call runs on the CPU (same results); the note says which happened last. It
** stays until the context is freed, so a caller may print it once at the end. */
const char *wm_context_note(const wm_context_t *cx);

/* A text to scan: one buffer holding one or more records back to back.
** Record r spans [rec_start[r], rec_start[r+1]) with rec_start[n_rec] taken
** as len; matches never cross a record border. rec_start = NULL and
** n_rec = 0 mean one record, the whole buffer. The buffer is only read. */
typedef struct {
    const uint8_t *seq;
    uint64_t len;
    const uint64_t *rec_start;
    size_t n_rec;
} wm_text_t;

/* One match. Offsets are within its record, 0-based, half-open.
** The contract, identical on every backend: one match per end position `end`
** (and strand) at which some substring ending there is within k errors of the
** pattern; `errors` is the smallest such count and `start` the largest s with
** distance(pattern, text[s, end)) = errors, i.e. the shortest occurrence.
** strand 1 = the reverse complement of the pattern (coordinates stay forward). */
typedef struct {
    uint64_t record;     /* record index in the wm_text_t */
    uint64_t start, end; /* within the record */
    uint32_t errors;
    uint32_t strand;  /* 0 = '+', 1 = '-' */
    uint32_t pattern; /* index in the set (0 for one pattern) */
} wm_match_t;

/* Called once per match, in order of (record, end, pattern, strand). Return 0 to go on,
** non-zero to stop: the search then returns WM_STOPPED. */
typedef int (*wm_match_cb)(const wm_match_t *m, void *user);

/* Search a text. Matches arrive through cb in sorted order, always on the
** calling thread; with several devices the matches of every range but the
** first are held in memory until their turn. */
wm_status wm_search(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, wm_match_cb cb,
                    void *user);

/* The matches of wm_search handed over in runs: m[0, n), n >= 1, in the same
** order, on the calling thread, valid only during the call (copy what you
** keep). A run is a piece of the text's matches as the search holds them
** (up to millions), so a caller that formats or stores them pays one call a
** run instead of one a match, and can spread a run over threads of its own.
** Return 0 to go on, non-zero to stop: the search then returns WM_STOPPED. */
typedef int (*wm_matches_cb)(const wm_match_t *m, size_t n, void *user);
wm_status wm_search_batches(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                            wm_matches_cb cb, void *user);

/* Count the matches of a text without reporting them. */
wm_status wm_count(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text, uint64_t *n_matches);

/* Count the matches of each pattern: counts[i] for pattern i (both strands),
** counts has wm_db_pattern_count(db) entries and is overwritten. */
wm_status wm_count_per_pattern(wm_context_t *cx, const wm_db_t *db, const wm_text_t *text,
                               uint64_t *counts);

/* ---- streaming search (Hyperscan's stream mode) ----------------------------
**
** A text that arrives in blocks (a socket, a pipe, a file read piece by piece)
** is searched as if it were one buffer: open a stream on a database (from
** wm_compile or wm_compile_set) and a context, feed blocks of any size (0
** bytes to many GiB), close. The stream is one record of plain bytes: it
** knows no FASTA records, line ends or other borders (a caller that has
** records opens one stream per record). Matches are those of wm_search on the
** concatenation of every block fed, in the same order (end, pattern, strand),
** with the same start and errors; record is always 0 and start, end are
** offsets in the whole stream (absolute, 64-bit).
**
** A match depends on no byte after its end, so each is final, and delivered,
** during the feed that brings its last byte; close has no tail left to flush
** and delivers nothing. The stream keeps only the last halo bytes it was fed
** (the longest occurrence - 1: m - 1 exact or Hamming, m + k - 1 edit, the
** longest pattern - 1 for a set) and a copy of at most as many of the next
** block's first bytes: memory is about twice the halo whatever is fed, and
** a block is searched where it lies, not copied. A feed costs a search of
** halo + its length: blocks much shorter than the pattern cost more per byte.
**
** The stream borrows cx and db: both must outlive it, and neither may be in
** another call while a feed runs (between feeds they are free for other
** calls, other streams included). Matches come through cb on the calling
** thread; cb must not feed or close its own stream (WM_INVALID). On the CUDA
** backend each feed is a wm_search of the block on the GPU. */
typedef struct wm_stream wm_stream_t;

/* Open a stream; *st is set on WM_OK (else NULL). Errors: WM_INVALID (NULL or
** dead cx, db, cb or st), WM_NOMEM. */
wm_status wm_stream_open(wm_context_t *cx, const wm_db_t *db, wm_match_cb cb, void *user,
                         wm_stream_t **st);

/* Search the next len bytes of the stream (block may be NULL when len = 0;
** the block is only read, and not kept after the call). Returns WM_OK;
** WM_STOPPED when cb asked to stop, in this feed or an earlier one: the
** stream is then finished, and later feeds search nothing and answer
** WM_STOPPED again; the first error of a search (WM_NOMEM, WM_DEVICE, ...),
** which the stream then answers for good too; WM_INVALID, with the stream
** unchanged, for a NULL or closed stream, block NULL with len > 0, or a call
** from inside cb (wm_context_errmsg says which). */
wm_status wm_stream_feed(wm_stream_t *st, const uint8_t *block, size_t len);

/* End the stream: no feed is accepted after it. Returns what the last feed
** answered (WM_OK, WM_STOPPED or an error), or WM_INVALID for a NULL or
** closed stream or a call from inside cb. The stream stays allocated until
** wm_stream_free. */
wm_status wm_stream_close(wm_stream_t *st);

/* Bytes fed so far (the absolute offset of the next byte); 0 for NULL. */
uint64_t wm_stream_offset(const wm_stream_t *st);

/* Free a stream, closed or not (an open one is dropped: nothing more is
** delivered). NULL is a no-op, and so is a call from inside cb. */
void wm_stream_free(wm_stream_t *st);

/* ---- alignment (warpmatch align) ------------------------------------------
**
** infix (ASM): the substring target[start, end) closest to the whole query in
** edit distance (unit costs; the query is aligned end to end, the target's
** flanks are free). Defined for any lengths: with a target shorter than the
** query the distance is at least m - n. Ties: the leftmost end, and for it
** the largest start (the shortest substring), as `search` reports.
** global: the edit distance of the whole query and the whole target. */
typedef enum { WM_ALIGN_INFIX = 0, WM_ALIGN_GLOBAL = 1 } wm_align_mode_t;

typedef enum {
    WM_ALIGN_ALGO_AUTO = 0,
    WM_ALIGN_ALGO_WAVEFRONT = 1,    /* the plain DP ("dp"). infix: GPU = paper 000's
                                       HMM scheme (chunks of s + 2m, one block per
                                       chunk, an anti-diagonal wavefront over 3 x
                                       (m+1) cells in shared memory), CPU = Sellers'
                                       DP a column at a time. global: the DP on
                                       anti-diagonals (CPU and GPU), the baseline
                                       paper 001 compares with */
    WM_ALIGN_ALGO_BITVECTOR = 2,    /* Myers/Hyyro bit-parallel DP over several words
                                       a column, Ukkonen-banded */
    WM_ALIGN_ALGO_FOUR_RUSSIANS = 3 /* global only: paper 001's t-blocks looked up
                                       in a table of every (A, B, C, E), blocks on
                                       anti-diagonals in parallel */
} wm_align_algo_t;
#define WM_ALIGN_ALGO_DP WM_ALIGN_ALGO_WAVEFRONT

/* Four-Russians block sizes: 1 .. WM_FR_MAX_T. t = 5 would need a table of
** 4^10 * 3^10 entries (DNA) or 2^25 * 3^10 (any alphabet), 124 GB or more. */
#define WM_FR_MAX_T 4

/* The plain DP and the Four-Russians method visit every cell: they take
** pairs of at most this many cells (m * n), about a minute of one core. */
#define WM_ALIGN_MAX_CELLS (1ull << 37)

/* Longest query wm_align accepts (bytes): 4 Mi. Its match-mask tables take
** 257 * m / 8 bytes with the bytes alphabet (135 MB at the limit). */
#define WM_MAX_QUERY (1u << 22)

typedef struct {
    wm_align_mode_t mode;   /* [infix] */
    wm_align_algo_t algo;   /* [auto] */
    int64_t max_distance;   /* k: report nothing worse, and prune with it;
                               -1 = no limit [-1] */
    int cigar;              /* the extended CIGAR of one optimal alignment [0] */
    int all_ends;           /* infix: one alignment per end that reaches the
                               best distance, in end order [0] */
    int case_insensitive;   /* fold ASCII case [0] */
    wm_alphabet_t alphabet; /* DNA: case folded, U = T, and only A, C, G, T
                               match (N matches nothing, not even N) [bytes] */
    int fr_t;               /* four-russians block size t, 1 .. WM_FR_MAX_T;
                               0 = automatic (3) [0] */
} wm_align_opts_t;

wm_align_opts_t wm_align_opts_default(void);

/* One alignment. CIGAR operations: '=' match, 'X' mismatch, 'I' a query
** symbol not in the target, 'D' a target symbol not in the query (SAM's
** convention with the target as the reference). */
typedef struct {
    uint64_t distance;
    uint64_t start, end; /* in the target: 0-based, half-open */
    char *cigar;         /* NUL-terminated; NULL unless opts.cigar */
} wm_alignment_t;

typedef struct {
    wm_alignment_t *a;
    size_t n; /* 0 when nothing is within max_distance */
} wm_alignments_t;

/* Align query (m bytes; m >= 1 in infix mode) to target (n bytes, n >= 0)
** with options o (NULL = defaults). On WM_OK, out holds 0 or 1 alignments
** (more with all_ends); free with wm_alignments_free. An empty target gives
** distance m at [0, 0). Errors: WM_PATTERN_EMPTY (infix), WM_PATTERN_TOO_LONG
** (m > WM_MAX_QUERY), WM_INVALID (NULL context, out, query with m > 0, or
** target with n > 0; max_distance < -1; fr_t out of range; four-russians in
** infix mode; unknown enum values), WM_NOMEM, WM_DEVICE, WM_DEVICE_NOMEM,
** and WM_UNSUPPORTED for the GPU infix wavefront with m > 16,384 and for
** dp / four-russians on more than WM_ALIGN_MAX_CELLS cells. */
wm_status wm_align(wm_context_t *cx, const uint8_t *query, size_t m, const uint8_t *target,
                   uint64_t n, const wm_align_opts_t *o, wm_alignments_t *out);
void wm_alignments_free(wm_alignments_t *r); /* NULL is a no-op */

/* Names for the CLI and reports: "auto", "wavefront" (the plain DP, also
** called "dp"), "bitvector", "four-russians". */
const char *wm_align_algo_name(wm_align_algo_t a);

/* Many independent pairs (reads against reads, a batch of candidates). Each
** pair is aligned as wm_align would (mode, algo, max_distance, cigar, case,
** alphabet from o; all_ends is ignored), and out[i] (n_pairs of them, filled
** in) gets pair i's alignment; out[i].distance == WM_ALIGN_NONE when pair i
** is over max_distance (its other fields are then 0 / NULL). Global mode
** accepts empty sequences (distance = the other's length). On the CUDA
** backend global bit-vector pairs run many to a kernel: one pair per thread
** up to 1,024 symbols a side, and for DNA one pair per warp for queries up
** to 8,192 against targets up to 65,536; other pairs run on the context's
** CPU threads, or alone on the GPU when over 10^9 cells. The results,
** CIGARs included, are the same on every backend. Free the CIGARs with
** wm_alignment_clear. Errors as wm_align; on an error nothing is left
** allocated in out, and the context's message names the pair. */
#define WM_ALIGN_NONE UINT64_MAX
typedef struct {
    const uint8_t *query;
    size_t m;
    const uint8_t *target;
    uint64_t n;
} wm_pair_t;
wm_status wm_align_pairs(wm_context_t *cx, const wm_pair_t *pairs, size_t n_pairs,
                         const wm_align_opts_t *o, wm_alignment_t *out);
void wm_alignment_clear(wm_alignment_t *a, size_t n); /* frees CIGARs, zeroes */

/* The same for pairs given as columns, as Arrow lays out a column of
** strings (Python callers pass numpy arrays, a mapper its candidate buffer):
** no struct a pair in, no allocation a pair out. Pair i is
** query[query_off[i] .. query_off[i + 1]) against
** target[target_off[i] .. target_off[i + 1]); offsets never decrease. The
** results are columns too: distance[i] (WM_ALIGN_NONE over max_distance),
** start[i] and end[i], and with o->cigar pair i's CIGAR is
** cigar[cigar_off[i] .. cigar_off[i + 1]) in one buffer (a NUL after the
** last; an empty CIGAR for a pair over max_distance). Every result equals
** wm_align_pairs' for the same pairs. On the CUDA backend packing,
** transfers, kernels and the copying of results out overlap batch by batch.
** Free with wm_pair_results_free; on an error *out is left empty and the
** message names the pair. */
typedef struct {
    size_t n;
    const uint8_t *query;
    const uint64_t *query_off; /* n + 1 */
    const uint8_t *target;
    const uint64_t *target_off; /* n + 1 */
} wm_pairs_packed_t;
typedef struct {
    size_t n;
    uint64_t *distance, *start, *end; /* n each */
    uint64_t *cigar_off;              /* n + 1, or NULL without o->cigar */
    char *cigar;                      /* or NULL without o->cigar */
} wm_pair_results_t;
wm_status wm_align_pairs_packed(wm_context_t *cx, const wm_pairs_packed_t *pairs,
                                const wm_align_opts_t *o, wm_pair_results_t *out);
void wm_pair_results_free(wm_pair_results_t *r);

/* What the Four-Russians lookup table for opts (fr_t, alphabet) costs: it is
** built on first use (on the context's threads) and kept in the context, so
** this builds it if needed. key_strings = 1: keyed by the block's t query and
** t target symbols as DNA codes, the paper's (A, B, C, E) (alphabet DNA;
** blocks with another symbol, such as N, are computed directly); 0: keyed by
** the t x t matrix of which symbols are equal (any alphabet). */
typedef struct {
    unsigned t;
    int key_strings;
    uint64_t entries;     /* keys x 3^t x 3^t */
    uint64_t bytes;       /* entries x 2 */
    double build_seconds; /* wall time of the build */
    int build_threads;
} wm_fr_info_t;
wm_status wm_align_fr_info(wm_context_t *cx, const wm_align_opts_t *o, wm_fr_info_t *info);

/* ---- targets kept on the GPU ------------------------------------------------
** A text that many calls search or align against (reads against a genome,
** many patterns or queries against one file) is uploaded to the context's
** GPU once, at the first call that runs there, and stays until
** wm_target_free: later calls skip the copy, which for a short query costs
** more than its kernel. On the CPU, on a context of several devices, or
** when the text does not fit beside the call's own buffers, the calls read
** the host bytes as wm_search and wm_align do (the context's note says why,
** see wm_context_note); the results are the same in every case.
** The text (its bytes and records) is borrowed: it must stay alive and
** unchanged until wm_target_free, which must come before wm_context_free.
** A target belongs to the context it was made with; using it with another
** is WM_INVALID. */
typedef struct wm_target wm_target_t;
wm_status wm_target_new(wm_context_t *cx, const wm_text_t *text, wm_target_t **out);
void wm_target_free(wm_target_t *t); /* NULL is a no-op */
/* 1 when the target's bytes are on the GPU now (after a call ran there). */
int wm_target_resident(const wm_target_t *t);
/* wm_search, wm_count of the target's text. */
wm_status wm_search_target(wm_context_t *cx, const wm_db_t *db, const wm_target_t *t,
                           wm_match_cb cb, void *user);
wm_status wm_search_target_batches(wm_context_t *cx, const wm_db_t *db, const wm_target_t *t,
                                   wm_matches_cb cb, void *user);
wm_status wm_count_target(wm_context_t *cx, const wm_db_t *db, const wm_target_t *t,
                          uint64_t *n_matches);
/* wm_align of query against bytes [from, to) of the target's text, as
** wm_align(cx, query, m, text->seq + from, to - from, o, out) returns it
** (positions relative to from): a query against one record of a genome. */
wm_status wm_align_target(wm_context_t *cx, const uint8_t *query, size_t m, const wm_target_t *t,
                          uint64_t from, uint64_t to, const wm_align_opts_t *o,
                          wm_alignments_t *out);

/* ---- dynamic time warping (warpmatch dtw) ----------------------------------
**
** Signals are arrays of doubles. The cost of matching query sample x and
** series sample y is |x - y| (abs) or (x - y)^2 (squared), and a warping
** path steps from cell (i, j) to (i+1, j), (i, j+1) or (i+1, j+1).
**
** subsequence (ADSM, paper 002; subsequence DTW): the stretch series[start, end)
**   whose DTW distance to the whole query is smallest. The DP is
**     d[0][j] = 0, d[i][0] = +inf (i >= 1),
**     d[i][j] = min(d[i][j-1], d[i-1][j], d[i-1][j-1]) + cost(x_i, y_j),
**   in float64 (or float32, opts.precision) on every backend, each cell
**   rounded once, so every backend
**   gives the same bits. The distance of end e is d[m][e]; its start is
**   the largest over the optimal paths into (m, e) (each cell keeps, of its
**   predecessors' values plus its cost, the smallest, and of equal ones the
**   largest start). Matches are ranked by distance, then the leftmost end.
**   With top = 1 the DP runs without starts and the best end's start is then
**   read from the same rule on windows series[end - w, end) (w from 1.25m,
**   doubling) until a window reaches the distance: the same start unless
**   two paths' sums differ only by rounding (the DP keeps the smaller where
**   they meet, later additions round both to the distance); the start is
**   then the larger one, whose path's own sum is the distance (seen in
**   float32 on flat stretches, 2 in 74,000 calls of the tests).
**   With top = 1 the result is the best match; with more, matches are taken
**   in rank order and a match overlapping one already taken is skipped.
**   A warping path can span any length of the series (a flat stretch), so
**   pieces of the series cut for threads or the GPU hand their border column
**   on and are fixed up until nothing changes: results never depend on how
**   the series was cut.
** global: the DTW distance of the whole query and the whole series
**   (d[0][0] = 0, d[0][j] = +inf for j >= 1), reported as one match [0, n).
** ucr: the UCR Suite's problem: every window series[s, s + L), z-normalised on
**   its own, against the z-normalised query, with the Sakoe-Chiba band;
**   ranked and chosen as in subsequence mode. The CPU runs the UCR Suite's
**   cascade (LB_Kim and LB_Keogh prune windows against the best so far);
**   with top = 1 a GPU context ranks every window by its bound and runs the
**   exact DTW of the windows in that order until the next bound is over the
**   best: the same result. top > 1 runs on the CPU whatever the backend.
**
** The window (Sakoe-Chiba band, global and ucr) of radius R for a query of m
** and a target of n samples allows cell (i, j), 0-based, when
**   i - R - max(0, m - n) <= j <= i + R + max(0, n - m)
** (tslearn's definition: the band widens by the length difference, so a path
** always exists). The path of a match is the canonical traceback: from its
** last cell back, take the first of the diagonal (i-1, j-1), the query step
** (i-1, j) and the series step (i, j-1) whose value plus the cell's cost gives
** the cell's value, in the DP of series[start, end) alone (subsequence), of
** the whole pair (global) or of the normalised window (ucr); it starts at
** query index 0 and series index start. Z-normalisation: (v - mean) / sd with the population sd,
** both computed in two passes; a signal (or window) with sd = 0 becomes zeros. */
typedef enum { WM_DTW_SUBSEQUENCE = 0, WM_DTW_GLOBAL = 1, WM_DTW_UCR = 2 } wm_dtw_mode_t;
typedef enum { WM_DTW_ABS = 0, WM_DTW_SQUARED = 1 } wm_dtw_cost_t;
/* The arithmetic of the DP (subsequence, global and matrices; ucr is float64
** only). float32: each sample is rounded to the nearest float (after
** z-normalisation, which stays float64), and every cost, min and addition is
** float32, rounded once, in the same order as float64 -- the same bits on
** every backend, and each distance is a float32 value (held in the double).
** It differs from float64 by rounding (about 1e-7 relative a step, so ties
** and near-ties may rank differently), and sums past FLT_MAX are +inf (no
** match). A sample that rounds to an infinite float is WM_INVALID. */
typedef enum { WM_DTW_F64 = 0, WM_DTW_F32 = 1 } wm_dtw_precision_t;

/* Longest query wm_dtw accepts (samples). */
#define WM_DTW_MAX_QUERY (1u << 20)

typedef struct {
    wm_dtw_mode_t mode;  /* [subsequence] */
    wm_dtw_cost_t cost;  /* [abs] */
    int64_t window;      /* band radius R in samples (global, ucr); -1 = none [-1] */
    int znorm;           /* subsequence, global: z-normalise the query and the
                            series, each as a whole [0] (ucr always does) */
    uint64_t top;        /* at most this many matches, best first; 0 = every
                            non-overlapping match within max_distance, in
                            series order [1] */
    double max_distance; /* only matches with distance <= this [+inf] */
    uint64_t length;     /* ucr: the window length L; 0 = the query's [0] */
    int path;            /* also return each match's warping path [0] */
    /* the DP's arithmetic, float64 or float32 (wm_dtw_precision_t) [f64] */
    wm_dtw_precision_t precision;
} wm_dtw_opts_t;

wm_dtw_opts_t wm_dtw_opts_default(void);

typedef struct {
    uint64_t start, end; /* in the series: 0-based, half-open */
    double distance;
    uint64_t path_len; /* cells on the path; 0 unless opts.path */
    uint64_t *path;    /* 2 * path_len values: (query index, series index)
                          of each cell from the first, 0-based; NULL unless
                          opts.path */
} wm_dtw_match_t;

typedef struct {
    wm_dtw_match_t *a;
    size_t n; /* 0 when nothing is within max_distance */
} wm_dtw_matches_t;

/* Match query (m >= 1 samples) against series (n >= 1 samples). Every sample
** must be finite. On WM_OK, out holds the matches; free with
** wm_dtw_matches_free. Errors: WM_PATTERN_EMPTY (m = 0), WM_PATTERN_TOO_LONG
** (m > WM_DTW_MAX_QUERY), WM_INVALID (NULL arguments, n = 0, a NaN or infinite
** sample (the message names it), window < -1, a window in subsequence mode,
** ucr with L > n, max_distance NaN, unknown enum values), WM_NOMEM, WM_DEVICE,
** WM_DEVICE_NOMEM. */
wm_status wm_dtw(wm_context_t *cx, const double *query, size_t m, const double *series, uint64_t n,
                 const wm_dtw_opts_t *o, wm_dtw_matches_t *out);

/* Many queries against one series, as wm_dtw would match each: out[q] (n_queries
** of them, filled in) gets query q's matches. The GPU runs queries of similar
** length in the same launches. On an error nothing is left allocated in out
** and the context's message names the query. */
wm_status wm_dtw_many(wm_context_t *cx, const double *const *queries, const size_t *lens,
                      size_t n_queries, const double *series, uint64_t n, const wm_dtw_opts_t *o,
                      wm_dtw_matches_t *out);

/* A series kept on the GPU across dtw calls (a target, see "targets kept on
** the GPU"): uploaded at the first call that runs there, its samples checked
** once. The series is borrowed, as a target's text: alive and unchanged
** until wm_target_free. wm_target_new_series errors: WM_INVALID. */
wm_status wm_target_new_series(wm_context_t *cx, const double *series, uint64_t n,
                               wm_target_t **out);
/* wm_dtw_many against the target's series: the same results; on the GPU no
** copy of the series after the first call (with znorm the normalised copy is
** still uploaded each call). A target not made by wm_target_new_series, or
** made with another context, is WM_INVALID. */
wm_status wm_dtw_many_target(wm_context_t *cx, const double *const *queries, const size_t *lens,
                             size_t n_queries, const wm_target_t *t, const wm_dtw_opts_t *o,
                             wm_dtw_matches_t *out);
void wm_dtw_matches_free(wm_dtw_matches_t *r); /* NULL is a no-op; zeroes *r */

/* Distance matrices: out[i * n_b + j] = the global DTW distance of a[i] and
** b[j], as wm_dtw in global mode gives it (cost o->cost, band o->window, each
** signal z-normalised on its own when o->znorm), bit for bit on every
** backend. With b == NULL (b_lens and n_b ignored) the n_a signals against
** themselves: an n_a x n_a matrix with 0 on the diagonal, each i < j
** computed once and mirrored (DTW is symmetric to the bit: the transposed DP
** adds the same costs to the same minima). Signals may differ in length
** (the band widens by the difference, as in global mode). o->mode must be
** WM_DTW_GLOBAL and o->path 0; top, max_distance and length are not used.
** The GPU runs a warp per pair, the shorter signal's samples in its lanes'
** registers. Errors: WM_PATTERN_EMPTY (an empty signal), WM_INVALID (NULL
** arguments, a NaN or infinite sample, bad options; the message names the
** signal as "a[3]" or "b[3]"), WM_NOMEM, WM_DEVICE, WM_DEVICE_NOMEM. */
wm_status wm_dtw_matrix(wm_context_t *cx, const double *const *a, const size_t *a_lens, size_t n_a,
                        const double *const *b, const size_t *b_lens, size_t n_b,
                        const wm_dtw_opts_t *o, double *out);

/* ---- environment ------------------------------------------------------- */

/* 1 when the CUDA backend was compiled in. */
int wm_cuda_built(void);

/* GPUs visible to the CUDA backend (0 when not built or none found). */
int wm_cuda_device_count(void);

/* Name and memory of GPU `i`. Returns WM_OK, WM_INVALID or WM_UNSUPPORTED. */
wm_status wm_cuda_device_info(int i, char *name, size_t name_len, uint64_t *total_mem,
                              uint64_t *free_mem, int *sm_count);

/* ---- choosing the backend for a workload --------------------------------
** A context made with WM_BACKEND_AUTO knows no workload, so it takes the GPU
** whenever one is found. A caller that knows its work before it makes the
** context asks wm_backend_choose() instead: a cost model (src/core/choose.c,
** its constants measured on an H100 host and kept there with the commands
** that measured them) predicts the wall-clock seconds of the work on the CPU
** and on the GPU, start-up included, and names the faster; the caller then
** makes its context with that backend. Nothing is run and no device is
** touched: the caller says whether GPUs exist (n_gpus). */
typedef enum {
    WM_WORK_SEARCH = 0,  /* one pattern of length m, k errors, over `bytes` of text */
    WM_WORK_SEARCH_SET,  /* a set of n patterns (exact) over `bytes` of text */
    WM_WORK_ALIGN_INFIX, /* n queries, lengths summing to m, each in `bytes` of target */
    WM_WORK_ALIGN_PAIRS, /* n pairs (global), `bytes` of both sides, `cells` of DP */
    WM_WORK_DTW          /* n queries, lengths summing to m, against `bytes` / 8 samples */
} wm_work_kind_t;

typedef struct {
    wm_work_kind_t kind;
    uint64_t bytes; /* what the work reads: the text, the target, both sides of every
                       pair, the series' samples x 8 */
    uint64_t m;     /* search: the pattern's length; a set with k > 0: its
                       shortest pattern's; infix and dtw: the queries' lengths
                       summed */
    uint64_t n;     /* set: patterns; infix, dtw: queries; pairs: pairs */
    uint64_t cells; /* pairs: the sum of query length x target length over the
                       pairs; 0: each pair taken as square, bytes / 2n a side */
    uint32_t k;     /* search, sets: errors allowed */
    int cigar;      /* align: CIGARs wanted */
    int cpu_only;   /* the GPU backend would run it on the CPU anyway (dtw --mode
                       ucr, say): the choice is the CPU */
    int threads;    /* CPU threads the CPU backend would use; 0 = online cores */
    int n_gpus;     /* GPUs that would run it; 0: the GPU side is not predicted
                       and the choice is the CPU */
    int hamming;    /* a set within k errors: Hamming distance on DNA, whose
                       short patterns the CPU scans together (added last) */
} wm_workload_t;

/* What wm_backend_choose predicted. Times are seconds of the whole run. */
typedef struct {
    wm_backend_t backend; /* WM_BACKEND_CPU or WM_BACKEND_CUDA, never AUTO */
    double cpu_s;         /* predicted on the CPU */
    double gpu_s;         /* predicted on the GPU; -1 when not predicted */
    int threads;          /* CPU threads the prediction used */
    double work;          /* units of work: bytes (search), patterns x bytes (a set
                             within k errors) or DP cells (align, dtw) */
    const char *unit;     /* "B", "pattern x B" or "cells" (static) */
    double cpu_rate;      /* units/s the CPU side assumed at those threads */
    double gpu_startup_s; /* of gpu_s: the CUDA start-up of a process */
    double gpu_fixed_s;   /* of gpu_s: the GPU pipeline's own set-up */
    double gpu_move_s;    /* of gpu_s: bytes to the device */
    double gpu_work_s;    /* of gpu_s: the kernels and their host work */
    double gpu_rate;      /* units/s of gpu_work_s */
    double move_rate;     /* bytes/s of gpu_move_s */
    const char *row;      /* the constants used, "search k=1" (static) */
} wm_backend_choice_t;

/* Predict w on both backends and pick the faster (ties: the CPU). Returns
** WM_OK, or WM_INVALID (NULL, an unknown kind). Pure: thread-safe, no I/O. */
wm_status wm_backend_choose(const wm_workload_t *w, wm_backend_choice_t *out);

/* The model's CUDA start-up of a process, seconds (what `warpmatch info`
** reports). */
double wm_backend_gpu_startup(void);

/* ---- reading sequence files ------------------------------------------------
** A streaming reader of FASTA, FASTQ and plain files, a record at a time, as
** kseq.h is used:
**
**     wm_reader_t *rd;  wm_record_t rec;  int k;
**     if (wm_reader_open("reads.fq.zst", NULL, &rd) != WM_OK) { ... wm_reader_errmsg(rd) }
**     while ((k = wm_reader_next(rd, &rec)) == 1)  use(rec.name, rec.seq, rec.seq_len);
**     if (k < 0) { ... wm_reader_errmsg(rd) }     // names the file and the line
**     wm_reader_close(rd);
**
** The rules are the tool's (the same parser): the format comes from the
** first non-blank byte ('>' FASTA, '@' FASTQ, else plain); compression from
** the magic bytes (gzip, xz, bzip2, zstd; any other compressed format is
** WM_FORMAT), whatever the file's name. A record's sequence is its sequence
** lines joined, line breaks ("\n", "\r\n"), spaces and tabs dropped; its name
** is the header's first word and its comment the rest of the header line.
** A plain input is one record named "." holding every byte unchanged.
** Memory: the reader holds the record being read (about three times its
** bytes in the file) and one block of input, never the whole input (except
** a plain input, which is one record); max_record bounds that. */
typedef struct wm_reader wm_reader_t;

typedef enum { WM_READ_PLAIN = 0, WM_READ_FASTA = 1, WM_READ_FASTQ = 2 } wm_read_format_t;

typedef struct {
    int force_plain;     /* 1: no FASTA/FASTQ detection, one record "." [0] */
    uint64_t max_record; /* most input bytes one record may span; 0 = no limit [0] */
    uint64_t block;      /* first buffer's bytes (it grows for longer records); 0 = 64 KiB.
                            Tests make it tiny so that reads end everywhere [0] */
} wm_reader_opts_t;

/* The defaults, to edit. */
wm_reader_opts_t wm_reader_opts_default(void);

/* One record. Every pointer is the reader's, NUL-terminated, valid until
** the next wm_reader_next or wm_reader_close. */
typedef struct {
    const char *name; /* the header's first word; "." for plain input */
    size_t name_len;
    const char *comment; /* the header after the name and its blanks; "" when none */
    size_t comment_len;
    const uint8_t *seq; /* the sequence bytes (case kept) */
    uint64_t seq_len;
    const uint8_t *qual; /* FASTQ: seq_len quality bytes; NULL otherwise */
    uint64_t index;      /* 0-based number of the record in the input */
    uint64_t line;       /* 1-based line of its header (1 for plain input) */
} wm_record_t;

/* Open path ("-" = standard input) with opts (NULL: the defaults). Returns
** WM_OK, WM_INVALID (NULL path or rd), WM_IO (cannot open or read, a
** directory), WM_FORMAT (a compressed format not read, corrupt compressed
** data), WM_NOMEM. On failure *rd is still set when it could be made (NULL
** otherwise) so that wm_reader_errmsg() can say why; close it then too. */
wm_status wm_reader_open(const char *path, const wm_reader_opts_t *opts, wm_reader_t **rd);

/* The next record into *rec. Returns 1 with a record, 0 at the end of the
** input, or a negative wm_status: WM_FORMAT (a malformed record, corrupt or
** truncated compressed data: the message names the file and the line),
** WM_IO, WM_NOMEM (also a record over max_record), WM_INVALID (NULL). After
** an error every later call returns the same status. */
int wm_reader_next(wm_reader_t *rd, wm_record_t *rec);

/* The input's format and compression ("plain", "gzip", "xz", "bzip2",
** "zstd"; static text). */
wm_read_format_t wm_reader_format(const wm_reader_t *rd);
const char *wm_reader_compression(const wm_reader_t *rd);

/* The last error's message ("file: line N: what"), "" when none. */
const char *wm_reader_errmsg(const wm_reader_t *rd);

/* Close and free; NULL is a no-op. A reader is used by one thread at a time. */
void wm_reader_close(wm_reader_t *rd);

#ifdef __cplusplus
}
#endif
#endif /* WARPMATCH_H */
