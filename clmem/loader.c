/* >>loader (implementation) */
#include "loader.h"

#if CLMEM__VENDOR_LIBRARIES
#include <dlfcn.h>
#endif

/* Function pointers are kept as the bytes of data pointers (POSIX guarantees the sizes
   agree; ISO C has no cast between the two). */
CLMEM__STATIC_ASSERT(sizeof(void (*)(void)) == sizeof(void *), "clmem's loader keeps function pointers as void *");

/* What the loader found: one row per (platform, set) or (library set). Platforms and
   libraries live as long as the process, so a row is filled once, under the lock, and
   never changes again; callers keep pointers into it. */
enum { CLMEM__LOADED_MAX = 64 };
typedef struct clmem__loaded {
    const void *key;             /* the platform; NULL for a vendor library */
    const clmem__entry_set *set;
    const char *missing;         /* the first required function not found, or NULL */
    bool unopened;               /* a vendor library dlopen could not open (why: the reason) */
    char why[200];
    union {
        void *align;
        unsigned char bytes[CLMEM__ENTRY_BYTES];
    } fns;
} clmem__loaded;
static clmem__loaded clmem__loaded_rows[CLMEM__LOADED_MAX];
static unsigned clmem__loaded_count;
static clmem__mutex clmem__loaded_lock = CLMEM__MUTEX_INIT;

/* clmem__loader_put(row, entry, addr): addr into the set's struct at the entry's place */
static void clmem__loader_put(clmem__loaded *row, const clmem__entry *e, void *addr) {
    if (addr) memcpy(row->fns.bytes + e->offset, &addr, sizeof addr);
    else if (e->required && !row->missing) row->missing = e->name;
}

static void clmem__loader_fill(clmem__loaded *row) {
    const clmem__entry_set *set = row->set;
    unsigned i;
    if (!set->library) {
        for (i = 0; i < set->count; ++i)
            clmem__loader_put(row, &set->entries[i],
                              clGetExtensionFunctionAddressForPlatform(CLMEM__CAST(cl_platform_id, clmem__unconst(row->key)),
                                                                       set->entries[i].name));
        return;
    }
#if CLMEM__VENDOR_LIBRARIES
    {
        void *lib = dlopen(set->library, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char *why = dlerror();
            row->unopened = true;
            snprintf(row->why, sizeof row->why, "%s", why ? why : "no reason given");
            return;
        }
        /* kept open for the life of the process: the functions found stay valid */
        for (i = 0; i < set->count; ++i) clmem__loader_put(row, &set->entries[i], dlsym(lib, set->entries[i].name));
    }
#else
    row->unopened = true;
#if defined(CLMEM_NO_VENDOR_LIBRARIES)
    snprintf(row->why, sizeof row->why, "clmem was compiled with CLMEM_NO_VENDOR_LIBRARIES");
#else
    snprintf(row->why, sizeof row->why, "this system has no dlopen");
#endif
#endif
}

/* clmem__loader_find(fn, key, set, &row): the row of (key, set), filled at first use.
   CL_OUT_OF_HOST_MEMORY when the table is full (more than 64 platform-set pairs). */
static cl_int clmem__loader_find(const char *fn, const void *key, const clmem__entry_set *set, const clmem__loaded **out) {
    const clmem__loaded *found = NULL;
    unsigned i;
    CLMEM_ASSERT(set->size <= CLMEM__ENTRY_BYTES);
    clmem__lock(&clmem__loaded_lock);
    for (i = 0; i < clmem__loaded_count && !found; ++i)
        if (clmem__loaded_rows[i].key == key && clmem__loaded_rows[i].set == set) found = &clmem__loaded_rows[i];
    if (!found && clmem__loaded_count < CLMEM__LOADED_MAX) {
        clmem__loaded *row = &clmem__loaded_rows[clmem__loaded_count];
        memset(row, 0, sizeof *row);
        row->key = key;
        row->set = set;
        clmem__loader_fill(row);
        found = &clmem__loaded_rows[clmem__loaded_count++];
    }
    clmem__unlock(&clmem__loaded_lock);
    *out = found;
    if (!found)
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "more than %d OpenCL platforms or libraries: no room for the entry points of %s",
                           (int)CLMEM__LOADED_MAX, set->what);
    return CL_SUCCESS;
}

/* clmem__platform_name(p, buf, size): CL_PLATFORM_NAME for a message, "?" when the
   query fails (the name only decorates messages). */
static void clmem__platform_name(cl_platform_id p, char *buf, size_t size) {
    buf[0] = '\0';
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, size - 1, buf, NULL) != CL_SUCCESS) snprintf(buf, size, "?");
    buf[size - 1] = '\0';
}

/* clmem__ext_of_platform(fn, platform, set, &fns): the entry points of an extension on
   a platform, looked up once and kept; *fns points at the set's struct (every pointer
   the platform has; optional ones may be NULL). A required one missing:
   CL_INVALID_OPERATION, "platform 'P' has no EXT (clGetExtensionFunctionAddressForPlatform
   found no NAME)". */
static cl_int clmem__ext_of_platform(const char *fn, cl_platform_id p, const clmem__entry_set *set, const void **fns) {
    const clmem__loaded *row = NULL;
    char name[128];
    cl_int err = clmem__loader_find(fn, p, set, &row);
    *fns = NULL;
    if (err != CL_SUCCESS) return err;
    if (row->missing) {
        clmem__platform_name(p, name, sizeof name);
        return clmem__fail(CL_INVALID_OPERATION, fn,
                           "platform '%s' has no %s (clGetExtensionFunctionAddressForPlatform found no %s)", name, set->what,
                           row->missing);
    }
    *fns = row->fns.bytes;
    return CL_SUCCESS;
}

/* clmem__ext_of_device(fn, dev, set, &fns): the same for the platform of a device. */
static cl_int clmem__ext_of_device(const char *fn, cl_device_id dev, const clmem__entry_set *set, const void **fns) {
    cl_platform_id p = NULL;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof p, &p, NULL);
    *fns = NULL;
    if (err != CL_SUCCESS) return clmem__info_fail(fn, err, "clGetDeviceInfo", "CL_DEVICE_PLATFORM");
    return clmem__ext_of_platform(fn, p, set, fns);
}

/* clmem__vendor_library(fn, set, &fns): a vendor library's functions (set->library
   opened with dlopen at first use, kept open). Absent library, a required symbol
   missing, or CLMEM_NO_VENDOR_LIBRARIES: CL_INVALID_OPERATION with the reason. */
static cl_int clmem__vendor_library(const char *fn, const clmem__entry_set *set, const void **fns) {
    const clmem__loaded *row = NULL;
    cl_int err = clmem__loader_find(fn, NULL, set, &row);
    *fns = NULL;
    if (err != CL_SUCCESS) return err;
    if (row->unopened)
        return clmem__fail(CL_INVALID_OPERATION, fn, "%s is not available: %s could not be opened (%s)", set->what,
                           set->library, row->why);
    if (row->missing)
        return clmem__fail(CL_INVALID_OPERATION, fn, "%s (%s) has no %s", set->what, set->library, row->missing);
    *fns = row->fns.bytes;
    return CL_SUCCESS;
}

/* clmem__extension_in(list, name): name is one of the space-separated words of list */
static bool clmem__extension_in(const char *list, const char *name) {
    size_t n = strlen(name);
    const char *s = list;
    while ((s = strstr(s, name)) != NULL) {
        if ((s == list || s[-1] == ' ') && (s[n] == '\0' || s[n] == ' ')) return true;
        s += n;
    }
    return false;
}

/* clmem__device_lists(dev, name) / clmem__extension_listed(dev, name): the device's
   CL_DEVICE_EXTENSIONS names the extension (a whole word) / the device's or its
   platform's list names it (some runtimes list an extension in one of the two only). */
static bool clmem__device_lists(cl_device_id dev, const char *name) {
    char *s;
    bool found;
    clmem__info_text(clmem__dev_get, (void *)dev, CL_DEVICE_EXTENSIONS, NULL, 0, &s);
    found = s && clmem__extension_in(s, name);
    CLMEM_FREE(s);
    return found;
}
static bool clmem__extension_listed(cl_device_id dev, const char *name) {
    cl_platform_id p = NULL;
    char *s;
    bool found;
    if (clmem__device_lists(dev, name)) return true;
    if (clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof p, &p, NULL) != CL_SUCCESS) return false;
    clmem__info_text(clmem__plat_get, (void *)p, CL_PLATFORM_EXTENSIONS, NULL, 0, &s);
    found = s && clmem__extension_in(s, name);
    CLMEM_FREE(s);
    return found;
}
