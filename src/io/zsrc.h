/*
** zsrc.h -- compressed input, recognised by its magic bytes, read as a plain
** byte stream: gzip (zlib), xz (liblzma), bzip2 (libbz2) and zstd (libzstd).
**
** Every reader of the library and the tool goes through here, so a format
** is known (or refused) the same way everywhere: sequence files (seqfile.c,
** which feeds the pattern and pair files of the tool too), byte ranges
** (seqrange.c, which sends compressed input to part 0 whole), signals
** (signal_src.c) and the public streaming reader (reader.c).
**
** The rules, for every format: the kind comes from the first bytes, never
** from the name; concatenated members (gzip, bzip2) and frames (zstd) or
** streams (xz) are read one after the other as their tools do; zero bytes
** after the last member are padding; anything else after it is an error, as
** is a stream that stops early. A known magic of a format we do not read
** (lz4, 7z, zip, compress, lzip, rar) is an error, not bytes to search.
** Memory stays bounded whatever a header claims: the decoders keep at most
** their window (zstd's default limit of 128 MiB, xz held to WM_ZSRC_XZ_MEMLIMIT)
** and the output goes to the caller's buffer.
*/
#ifndef WM_IO_ZSRC_H
#define WM_IO_ZSRC_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    WM_Z_PLAIN = 0,
    WM_Z_GZIP = 1,
    WM_Z_XZ = 2,
    WM_Z_BZIP2 = 3,
    WM_Z_ZSTD = 4,
    WM_Z_UNKNOWN = 5, /* a compressed format we do not read: an error */
    WM_Z_ZIP = 6      /* a zip archive: an error, except where a caller asks for it (.npz) */
} wm_zkind_t;

/* Bytes wm_zmagic needs to decide; fewer only at the end of the input. */
#define WM_ZMAGIC_LEN 10
/* What xz's decoder may hold (its dictionary): xz -9 needs 65 MiB. */
#define WM_ZSRC_XZ_MEMLIMIT ((uint64_t)256 << 20)

/* The kind of an input that starts with p[0, n) (n: what there is, up to
** WM_ZMAGIC_LEN). For WM_Z_UNKNOWN and WM_Z_ZIP, *what (may be NULL) names
** the format ("lz4", "7z", ...). */
wm_zkind_t wm_zmagic(const uint8_t *p, size_t n, const char **what);

/* "gzip", "xz", "bzip2", "zstd", "plain" */
const char *wm_zkind_name(wm_zkind_t k);

/* One input being read. Private fields; zero it or open it before use. */
typedef struct {
    wm_zkind_t kind;
    const char *noun; /* "input" or "stream": "truncated gzip <noun>" */
    int fd, close_fd;
    /* Raw (compressed) bytes read and not yet used; for a memory input,
    ** the caller's bytes (raw_eof set, never freed). */
    uint8_t *raw;
    size_t raw_cap, raw_pos, raw_len;
    int raw_eof, raw_owned;
    uint64_t raw_off; /* offset in the file of raw[0] */
    void *dec;        /* the decoder's state, kind-specific (zsrc_codec.c) */
    int done;         /* the last member ended and what follows was checked */
    char msg[256];    /* on error: what went wrong, e.g. "truncated xz input" */
    int err_io;       /* on error: reading failed (else the data is bad) */
    int err_nomem;    /* on error: out of memory */
} wm_zsrc_t;

/* Flags for the open calls. */
#define WM_ZSRC_PASS_ZIP 1 /* a zip archive is read as plain bytes (the caller parses it) */

/* Read from fd (close_fd: close it in wm_zsrc_close). The first bytes are
** read at once to find the kind. Returns 0, or -1 with z->msg set (an
** unknown format, a read error, out of memory); close it either way. */
int wm_zsrc_open_fd(wm_zsrc_t *z, int fd, int close_fd, int flags, const char *noun);

/* Read from memory: p[0, n), which must outlive z. The kind comes from p. */
int wm_zsrc_open_mem(wm_zsrc_t *z, const uint8_t *p, uint64_t n, int flags, const char *noun);

/* Up to n decompressed bytes into dst: fewer only at the end of the input.
** Returns the count (0 at the end) or -1 with z->msg set. */
int64_t wm_zsrc_read(wm_zsrc_t *z, void *dst, size_t n);

/* The same for a regular file: a plain one's long reads cut into pieces
** that pool's threads read at their offsets (pread), the descriptor moved
** on past them as read() would; anything else as wm_zsrc_read. */
struct wm_pool;
int64_t wm_zsrc_read_par(wm_zsrc_t *z, void *dst, size_t n, struct wm_pool *pool);

void wm_zsrc_close(wm_zsrc_t *z); /* safe on a zeroed or closed struct */

/* ---- the decoders (zsrc_codec.c) ------------------------------------------ */

/* What one decoder step did. */
enum { WM_ZSTEP_OK = 0, WM_ZSTEP_END = 1, WM_ZSTEP_ERR = -1, WM_ZSTEP_NOMEM = -2 };

int wm_zdec_init(wm_zkind_t k, void **st);
/* Decode from in[0, in_len) into out[0, out_len): *in_used and *out_made say
** how much; finish != 0 when in holds the last bytes of the input. Returns
** WM_ZSTEP_END when a member (frame, stream) ended, WM_ZSTEP_OK otherwise
** (progress, or none possible with this input), an error with msg set. */
int wm_zdec_step(wm_zkind_t k, void *st, const uint8_t *in, size_t in_len, size_t *in_used,
                 uint8_t *out, size_t out_len, size_t *out_made, int finish, char *msg,
                 size_t msglen);
/* Ready for the next member. Returns 0 or -1 (out of memory). */
int wm_zdec_reset(wm_zkind_t k, void *st);
void wm_zdec_end(wm_zkind_t k, void *st);

#endif
