/*
** fuzz_args.c -- the command line's parser: the flag table and getopt_long
** arrays of cli/flags.c, the shared flags' values (cli/args.c), and search's
** own options (cli/search_args.c).
**
** The input is a command line, one argument per line: the first names the
** command (search, align, dtw or info; anything else is taken as search's
** argv[0]). search is parsed by wm_cli_search_parse and then checked by
** wm_cli_search_check / _check_set (nothing is read: no pattern file, no
** input); align, dtw and info by wm_flags_parse with a handler that records
** each of the command's own flags and its value. Oracle:
**   - it never crashes, and returns 0 (accepted), 1 (--help, printed) or -1
**     with a message (wm_cli_last_error not empty);
**   - the same command line parsed twice in one process gives the same
**     result: the same return, first argument, shared flags, own flags and
**     values (getopt_long keeps state between calls: a parse must not see
**     the one before);
**   - accepted: first_arg lies in [1, argc];
**   - every argument through wm_cli_parse_u64 (args.c: the number parser of
**     every option value) equals a reference written from cli.h: decimal
**     digits only, no sign or blank, then (when allowed) one of K M G T in
**     either case for 2^10, 2^20, 2^30, 2^40; no larger than max; else -1.
*/
#include <string.h>

#include "fuzz.h"
#include "cli.h"
#include "flags.h"
#include "mpi/dist.h"
#include "search.h"

#define MAX_ARGS 48

typedef struct {
    int n;
    int id[MAX_ARGS];
    const char *val[MAX_ARGS];
} own_t;

static int record_own(const wm_flag_t *f, const char *val, void *args) {
    own_t *o = args;
    if (o->n < MAX_ARGS) {
        o->id[o->n] = f->id;
        o->val[o->n++] = val;
    }
    return 0;
}

typedef struct {
    int rc, first;
    wm_cli_shared_t sh;
    own_t own;
    wm_cli_search_args_t sa;
    int checked;
    char msg[256];
} parse_t;

static void same_shared(const wm_cli_shared_t *a, const wm_cli_shared_t *b) {
    FZ_CHECK(a->co.backend == b->co.backend && a->co.threads == b->co.threads &&
                 a->co.chunk_bytes == b->co.chunk_bytes && a->co.n_devices == b->co.n_devices &&
                 a->format == b->format && a->alphabet == b->alphabet &&
                 a->ignore_case == b->ignore_case,
             "the shared flags differ between two parses");
    for (int i = 0; i < a->co.n_devices; i++)
        FZ_CHECK(a->co.devices[i] == b->co.devices[i], "--gpus differs between two parses");
}

static int str_eq(const char *a, const char *b) {
    return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

static void parse(const wm_cli_command_t *cmd, int argc, char **argv_in, parse_t *p) {
    char *argv[MAX_ARGS + 1];
    memcpy(argv, argv_in, (size_t)(argc + 1) * sizeof *argv); /* getopt permutes argv */
    memset(p, 0, sizeof *p);
    wm_cli_error("%s", "");
    fz_quiet_begin(); /* --help prints */
    if (cmd == &wm_cli_cmd_search) {
        p->rc = wm_cli_search_parse(argc, argv, &p->sa, &p->first);
        p->sh = p->sa.sh;
        if (p->rc == 0) {
            p->checked = p->sa.is_set ? wm_cli_search_check_set(&p->sa, argc, argv, p->first)
                                      : wm_cli_search_check(&p->sa);
            FZ_CHECK(p->checked == 0 || wm_cli_last_error()[0] != '\0',
                     "a check failed without a message");
        }
    } else {
        p->rc = wm_flags_parse(cmd, argc, argv, &p->sh, record_own, &p->own, &p->first);
    }
    fz_quiet_end();
    snprintf(p->msg, sizeof p->msg, "%s", wm_cli_last_error());
    FZ_CHECK(p->rc == 0 || p->rc == 1 || p->rc == -1, "%s: returned %d", cmd->name, p->rc);
    if (p->rc == -1) FZ_CHECK(p->msg[0] != '\0', "%s: refused without a message", cmd->name);
    if (p->rc == 0)
        FZ_CHECK(p->first >= 1 && p->first <= argc, "%s: first argument %d of %d", cmd->name,
                 p->first, argc);
}

static void compare(const parse_t *a, const parse_t *b, const char *cmd) {
    FZ_CHECK(a->rc == b->rc && strcmp(a->msg, b->msg) == 0,
             "%s: two parses differ: %d '%s' then %d '%s'", cmd, a->rc, a->msg, b->rc, b->msg);
    if (a->rc != 0) return;
    FZ_CHECK(a->first == b->first, "%s: first argument %d then %d", cmd, a->first, b->first);
    same_shared(&a->sh, &b->sh);
    FZ_CHECK(a->own.n == b->own.n, "%s: %d own flags then %d", cmd, a->own.n, b->own.n);
    for (int i = 0; i < a->own.n; i++)
        FZ_CHECK(a->own.id[i] == b->own.id[i] && str_eq(a->own.val[i], b->own.val[i]),
                 "%s: own flag %d differs", cmd, i);
    const wm_cli_search_args_t *x = &a->sa, *y = &b->sa;
    FZ_CHECK(memcmp(&x->o, &y->o, sizeof x->o) == 0 && x->m == y->m && x->count == y->count &&
                 x->by_record == y->by_record && x->quiet == y->quiet &&
                 x->progress == y->progress && x->per_pattern == y->per_pattern &&
                 x->all_patterns == y->all_patterns && x->is_set == y->is_set &&
                 x->n_pat_args == y->n_pat_args && x->n_e == y->n_e && x->n_f == y->n_f &&
                 str_eq(x->per_rank, y->per_rank) && a->checked == b->checked,
             "%s: the options differ between two parses", cmd);
    FZ_CHECK(x->m == 0 || memcmp(x->pattern, y->pattern, x->m) == 0, "%s: the pattern differs",
             cmd);
    for (size_t i = 0; i < x->n_pat_args; i++)
        FZ_CHECK(x->pat_args[i].opt == y->pat_args[i].opt &&
                     strcmp(x->pat_args[i].arg, y->pat_args[i].arg) == 0,
                 "%s: -e/-f %zu differs", cmd, i);
}

/* wm_cli_parse_u64 as cli.h documents it, in 128-bit arithmetic. */
static int ref_u64(const char *s, uint64_t max, int allow_suffix, uint64_t *out) {
    unsigned __int128 v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned)(*p - '0');
        if (v > UINT64_MAX) return -1;
    }
    if (*p != '\0') {
        static const char letters[] = "kmgt";
        const char *l = *p >= 'A' && *p <= 'Z' ? strchr(letters, *p - 'A' + 'a') : NULL;
        if (*p >= 'a' && *p <= 'z') l = strchr(letters, *p);
        if (!allow_suffix || l == NULL || p[1] != '\0') return -1;
        v <<= 10 * (int)(l - letters + 1);
    }
    if (v > max) return -1;
    *out = (uint64_t)v;
    return 0;
}

static void check_u64(const char *s) {
    static const uint64_t maxes[3] = { UINT64_MAX, 65536, 0 };
    for (int m = 0; m < 3; m++)
        for (int suf = 0; suf < 2; suf++) {
            uint64_t a = 7, b = 7;
            int ra = wm_cli_parse_u64(s, maxes[m], suf, &a), rb = ref_u64(s, maxes[m], suf, &b);
            FZ_CHECK(ra == rb && (ra != 0 || a == b),
                     "wm_cli_parse_u64('%s', %llu, %d) = %d (%llu), reference %d (%llu)", s,
                     (unsigned long long)maxes[m], suf, ra, (unsigned long long)a, rb,
                     (unsigned long long)b);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    wm_dist.rank = 1; /* wm_cli_error keeps its message but prints nothing */
    if (size > 4096) return 0;
    char *buf = malloc(size + 1);
    if (!buf) abort();
    memcpy(buf, data, size);
    buf[size] = '\0';
    for (char *p = buf; argc < MAX_ARGS;) {
        argv[argc++] = p;
        char *nl = memchr(p, '\n', (size_t)(buf + size - p));
        if (!nl) break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;
    for (int i = 0; i < argc; i++) check_u64(argv[i]);

    static const wm_cli_command_t *const cmds[] = { &wm_cli_cmd_search, &wm_cli_cmd_align,
                                                    &wm_cli_cmd_dtw, &wm_cli_cmd_info };
    const wm_cli_command_t *cmd = &wm_cli_cmd_search;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[0], cmds[i]->name) == 0) cmd = cmds[i];

    parse_t *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (!a || !b) abort();
    parse(cmd, argc, argv, a);
    parse(cmd, argc, argv, b);
    compare(a, b, cmd->name);
    wm_cli_search_free(&a->sa);
    wm_cli_search_free(&b->sa);
    free(a);
    free(b);
    free(buf);
    return 0;
}
