/*
** args.c -- small helpers the commands share: error messages on stderr,
** option value parsing, a monotonic clock.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

void wm_cli_error(const char *fmt, ...) {
    va_list ap;
    /* One fprintf per part; stderr is unbuffered, so build the line first to
    ** keep it whole when several processes share the terminal. */
    char line[4096];
    int n = snprintf(line, sizeof line, "%s: ", WM_PROG);
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof line)
        vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}

int wm_cli_parse_u64(const char *s, uint64_t max, int allow_suffix, uint64_t *out) {
    uint64_t v = 0;
    const char *p = s;
    if (s == NULL || *p < '0' || *p > '9')
        return -1;                      /* no sign, no blank, no empty string */
    for (; *p >= '0' && *p <= '9'; ++p) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (*p != '\0') {
        unsigned shift;
        if (!allow_suffix || p[1] != '\0')
            return -1;
        switch (*p) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        case 't': case 'T': shift = 40; break;
        default: return -1;
        }
        if (v > (UINT64_MAX >> shift))
            return -1;
        v <<= shift;
    }
    if (v > max)
        return -1;
    *out = v;
    return 0;
}

int wm_cli_option_u64(const char *name, const char *s, uint64_t max,
                      int allow_suffix, uint64_t *out) {
    if (wm_cli_parse_u64(s, max, allow_suffix, out) == 0)
        return 0;
    wm_cli_error("invalid value '%s' for %s (expected a whole number from 0 to %llu%s)",
                 s, name, (unsigned long long)max,
                 allow_suffix ? ", optionally with K, M or G" : "");
    return -1;
}

int wm_cli_lookup(const char *s, const char *const *words) {
    for (int i = 0; words[i] != NULL; ++i)
        if (strcmp(s, words[i]) == 0)
            return i;
    return -1;
}

double wm_cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
