/*
** families.c -- the list of families the library is built of. Core reads it
** (core/family.h) to give each family its GPU table and cache slot in a
** context, without knowing any of them; a new family adds one line here.
*/
#include "search/search.h"
#include "multi/mset.h"
#include "align/align.h"
#include "dtw/dtw.h"
#include "setk/setk.h"

const wm_family_t *const wm_families[] = {
    &wm_search_family, &wm_multi_family, &wm_align_family, &wm_dtw_family, &wm_setk_family, NULL,
};
