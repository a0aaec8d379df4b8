/*
** zsrc_codec.c -- the four decoders behind zsrc.c, one step function each:
** gzip (zlib's inflate), xz (liblzma), bzip2 (libbz2), zstd (libzstd).
** Each step decodes what it can of one input buffer into one output buffer
** and reports a member's end; zsrc.c owns what comes between members,
** truncation and the raw bytes.
*/
#include "io/zsrc.h"

#include <bzlib.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* zlib and libbz2 count in 32 bits: at most this much at a time. */
#define WM_ZDEC_CHUNK ((size_t)1 << 30)

static size_t cap32(size_t n) { return n < WM_ZDEC_CHUNK ? n : WM_ZDEC_CHUNK; }

/* ---- gzip ------------------------------------------------------------------ */

static int gz_init(void **st) {
    z_stream *zs = calloc(1, sizeof *zs);
    if (!zs) return -1;
    /* 15 + 32: the largest window, gzip or zlib header detected. */
    if (inflateInit2(zs, 15 + 32) != Z_OK) {
        free(zs);
        return -1;
    }
    *st = zs;
    return 0;
}

static int gz_step(z_stream *zs, const uint8_t *in, size_t in_len, size_t *in_used, uint8_t *out,
                   size_t out_len, size_t *out_made, char *msg, size_t msglen) {
    zs->next_in = (Bytef *)(uintptr_t)in;
    zs->avail_in = (uInt)cap32(in_len);
    zs->next_out = out;
    zs->avail_out = (uInt)cap32(out_len);
    uInt ai = zs->avail_in, ao = zs->avail_out;
    int zr = inflate(zs, Z_NO_FLUSH);
    *in_used = ai - zs->avail_in;
    *out_made = ao - zs->avail_out;
    if (zr == Z_STREAM_END) return WM_ZSTEP_END;
    if (zr == Z_OK || zr == Z_BUF_ERROR) return WM_ZSTEP_OK;
    if (zr == Z_MEM_ERROR) return WM_ZSTEP_NOMEM;
    /* Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR */
    if (zs->msg) snprintf(msg, msglen, "corrupt gzip data (%s)", zs->msg);
    else snprintf(msg, msglen, "corrupt gzip data");
    return WM_ZSTEP_ERR;
}

/* ---- xz -------------------------------------------------------------------- */

static int xz_init(void **st) {
    lzma_stream *ls = malloc(sizeof *ls);
    if (!ls) return -1;
    lzma_stream init = LZMA_STREAM_INIT;
    *ls = init;
    /* CONCATENATED: every stream of the file, and the padding between them,
    ** as xz -d reads them; the stream ends only at LZMA_FINISH. */
    if (lzma_stream_decoder(ls, WM_ZSRC_XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
        free(ls);
        return -1;
    }
    *st = ls;
    return 0;
}

static int xz_step(lzma_stream *ls, const uint8_t *in, size_t in_len, size_t *in_used, uint8_t *out,
                   size_t out_len, size_t *out_made, int finish, char *msg, size_t msglen) {
    ls->next_in = in;
    ls->avail_in = in_len;
    ls->next_out = out;
    ls->avail_out = out_len;
    lzma_ret r = lzma_code(ls, finish ? LZMA_FINISH : LZMA_RUN);
    *in_used = in_len - ls->avail_in;
    *out_made = out_len - ls->avail_out;
    switch (r) {
    case LZMA_STREAM_END: return WM_ZSTEP_END;
    case LZMA_OK:
    case LZMA_BUF_ERROR: return WM_ZSTEP_OK;
    case LZMA_MEM_ERROR: return WM_ZSTEP_NOMEM;
    case LZMA_MEMLIMIT_ERROR:
        snprintf(msg, msglen,
                 "xz data needs %" PRIu64 " MiB to decode, over the limit of %" PRIu64 " MiB",
                 (uint64_t)(lzma_memusage(ls) >> 20), WM_ZSRC_XZ_MEMLIMIT >> 20);
        return WM_ZSTEP_ERR;
    case LZMA_FORMAT_ERROR: snprintf(msg, msglen, "corrupt xz data (not in .xz format)"); break;
    case LZMA_OPTIONS_ERROR: snprintf(msg, msglen, "corrupt xz data (unsupported options)"); break;
    default: snprintf(msg, msglen, "corrupt xz data"); break;
    }
    return WM_ZSTEP_ERR;
}

/* ---- bzip2 ----------------------------------------------------------------- */

static int bz_init(void **st) {
    bz_stream *bs = calloc(1, sizeof *bs);
    if (!bs) return -1;
    if (BZ2_bzDecompressInit(bs, 0, 0) != BZ_OK) {
        free(bs);
        return -1;
    }
    *st = bs;
    return 0;
}

static int bz_step(bz_stream *bs, const uint8_t *in, size_t in_len, size_t *in_used, uint8_t *out,
                   size_t out_len, size_t *out_made, char *msg, size_t msglen) {
    unsigned ai = (unsigned)cap32(in_len), ao = (unsigned)cap32(out_len);
    bs->next_in = (char *)(uintptr_t)in;
    bs->avail_in = ai;
    bs->next_out = (char *)out;
    bs->avail_out = ao;
    int r = BZ2_bzDecompress(bs);
    *in_used = ai - bs->avail_in;
    *out_made = ao - bs->avail_out;
    if (r == BZ_STREAM_END) return WM_ZSTEP_END;
    if (r == BZ_OK) return WM_ZSTEP_OK;
    if (r == BZ_MEM_ERROR) return WM_ZSTEP_NOMEM;
    snprintf(msg, msglen, "corrupt bzip2 data%s", r == BZ_DATA_ERROR_MAGIC ? " (bad magic)" : "");
    return WM_ZSTEP_ERR;
}

/* ---- zstd ------------------------------------------------------------------ */

static int zstd_init(void **st) {
    /* The default window limit (2^27, 128 MiB) bounds what a frame header
    ** can make the decoder allocate. */
    ZSTD_DStream *ds = ZSTD_createDStream();
    if (!ds) return -1;
    *st = ds;
    return 0;
}

static int zstd_step(ZSTD_DStream *ds, const uint8_t *in, size_t in_len, size_t *in_used,
                     uint8_t *out, size_t out_len, size_t *out_made, char *msg, size_t msglen) {
    ZSTD_inBuffer ib = { in, in_len, 0 };
    ZSTD_outBuffer ob = { out, out_len, 0 };
    size_t r = ZSTD_decompressStream(ds, &ob, &ib);
    *in_used = ib.pos;
    *out_made = ob.pos;
    if (ZSTD_isError(r)) {
        snprintf(msg, msglen, "corrupt zstd data (%s)", ZSTD_getErrorName(r));
        return WM_ZSTEP_ERR;
    }
    /* 0: a frame is decoded and flushed; the next bytes start another. */
    return r == 0 ? WM_ZSTEP_END : WM_ZSTEP_OK;
}

/* ---- dispatch -------------------------------------------------------------- */

int wm_zdec_init(wm_zkind_t k, void **st) {
    *st = NULL;
    switch (k) {
    case WM_Z_GZIP: return gz_init(st);
    case WM_Z_XZ: return xz_init(st);
    case WM_Z_BZIP2: return bz_init(st);
    case WM_Z_ZSTD: return zstd_init(st);
    default: return 0;
    }
}

int wm_zdec_step(wm_zkind_t k, void *st, const uint8_t *in, size_t in_len, size_t *in_used,
                 uint8_t *out, size_t out_len, size_t *out_made, int finish, char *msg,
                 size_t msglen) {
    switch (k) {
    case WM_Z_GZIP: return gz_step(st, in, in_len, in_used, out, out_len, out_made, msg, msglen);
    case WM_Z_XZ:
        return xz_step(st, in, in_len, in_used, out, out_len, out_made, finish, msg, msglen);
    case WM_Z_BZIP2: return bz_step(st, in, in_len, in_used, out, out_len, out_made, msg, msglen);
    case WM_Z_ZSTD: return zstd_step(st, in, in_len, in_used, out, out_len, out_made, msg, msglen);
    default: *in_used = *out_made = 0; return WM_ZSTEP_ERR;
    }
}

int wm_zdec_reset(wm_zkind_t k, void *st) {
    switch (k) {
    case WM_Z_GZIP: return inflateReset(st) == Z_OK ? 0 : -1;
    case WM_Z_BZIP2:
        /* libbz2 has no reset: end and start again in the same struct. */
        BZ2_bzDecompressEnd(st);
        memset(st, 0, sizeof(bz_stream));
        return BZ2_bzDecompressInit(st, 0, 0) == BZ_OK ? 0 : -1;
    case WM_Z_ZSTD: return ZSTD_isError(ZSTD_DCtx_reset(st, ZSTD_reset_session_only)) ? -1 : 0;
    default: return 0; /* xz: one decoder reads every stream */
    }
}

void wm_zdec_end(wm_zkind_t k, void *st) {
    if (!st) return;
    switch (k) {
    case WM_Z_GZIP: inflateEnd(st); break;
    case WM_Z_XZ: lzma_end(st); break;
    case WM_Z_BZIP2: BZ2_bzDecompressEnd(st); break;
    case WM_Z_ZSTD: ZSTD_freeDStream(st); return;
    default: break;
    }
    free(st);
}
