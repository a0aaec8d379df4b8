/*
** status.c -- status codes in words (the version: version.c).
*/
#include "warpmatch.h"

const char *wm_strerror(int status) {
    switch (status) {
    case WM_OK: return "success";
    case WM_STOPPED: return "stopped by the match callback";
    case WM_INVALID: return "invalid argument";
    case WM_NOMEM: return "out of host memory";
    case WM_IO: return "input could not be read";
    case WM_FORMAT: return "malformed input";
    case WM_UNSUPPORTED: return "not supported by this build";
    case WM_NO_DEVICE: return "no CUDA GPU found";
    case WM_DEVICE: return "a CUDA call failed";
    case WM_DEVICE_NOMEM: return "out of GPU memory";
    case WM_INSUFFICIENT_SPACE: return "buffer too small";
    case WM_PATTERN_EMPTY: return "the pattern is empty";
    case WM_PATTERN_TOO_LONG: return "the pattern is longer than 65536 bytes";
    case WM_K_TOO_LARGE:
        return "k must be smaller than the pattern length (with k >= m every position would match)";
    default: return "unknown status code";
    }
}
