/*
** family.h -- how a family of algorithms (search, multi, align, dtw) makes
** itself known to the ground floor, without core knowing any of them.
**
** A family is a const wm_family_t: its name, its GPU table (a struct of
** function pointers of the family's own type, defined in its .cu files;
** NULL in a build without CUDA or for a family without GPU code) and how to
** free the cache it keeps in a context. The list of families is
** wm_families[] (src/families.c). When a context is made, core copies each
** family's GPU table into the context if the context runs on a GPU, so a
** driver asks once, "is there a GPU table?", instead of testing the backend.
*/
#ifndef WM_CORE_FAMILY_H
#define WM_CORE_FAMILY_H

#ifdef __cplusplus
extern "C" {
#endif

struct wm_context;

typedef struct wm_family {
    const char *name;
    const void *gpu; /* the family's GPU table, or NULL */
    /* Free what the family keeps in a context's cache slot (called with the
    ** context's GPU still bound, before the device state goes). NULL: the
    ** family keeps nothing. */
    void (*free_cache)(struct wm_context *cx, void *cache);
} wm_family_t;

#define WM_MAX_FAMILIES 8
extern const wm_family_t *const wm_families[]; /* NULL-terminated */

#ifdef __cplusplus
}
#endif
#endif
