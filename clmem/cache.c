/* >>cache (implementation) */
#include "cache.h"

/* Every cache shares one lock: it guards the entries of all caches, the registry of
   caches in use and the set of contexts whose destructor callback is registered.
   Nothing runs under it but list work (and, once per new context, the driver calls that
   register the callback); compute and destroy functions run outside it. */
static clmem__mutex clmem__cache_mutex = CLMEM__MUTEX_INIT;
static clmem_first_arg_cache *clmem__cache_registry;
static cl_context *clmem__cache_watched; /* contexts with our destructor callback */
static size_t clmem__cache_num_watched, clmem__cache_cap_watched;

#define CLMEM__CACHE_BUCKETS 64

typedef union clmem__max_align {
    long double ld;
    long long ll;
    double d;
    void *p;
    void (*f)(void);
} clmem__max_align;

typedef struct clmem__cache_entry {
    struct clmem__cache_entry *next;
    void *object;                     /* the key's OpenCL object */
    cl_context owner;                 /* the context the entry dies with, or NULL */
    clmem_memoize_destroy_fn destroy; /* the cache's, kept for destruction off-lock */
    unsigned long long hash;
    size_t key_size;
    unsigned char *key;               /* key_size bytes, inside this allocation */
    unsigned char *value;             /* value_size bytes, suitably aligned, inside this allocation */
} clmem__cache_entry;

typedef struct clmem__cache_state {
    clmem__cache_entry *buckets[CLMEM__CACHE_BUCKETS];
    size_t count;
} clmem__cache_state;

static unsigned long long clmem__cache_hash(const void *object, const void *args, size_t args_size) {
    unsigned long long h = 1469598103934665603ULL;
    uintptr_t o = (uintptr_t)object;
    const unsigned char *b = CLMEM__CAST(const unsigned char *, args);
    size_t i;
    for (i = 0; i < sizeof o; ++i) {
        h ^= (unsigned char)(o >> (8 * i));
        h *= 1099511628211ULL;
    }
    for (i = 0; i < args_size; ++i) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* clmem__cache_find: the entry for a key, under the lock. */
static clmem__cache_entry *clmem__cache_find(clmem__cache_state *s, unsigned long long hash, const void *object,
                                             const void *args, size_t args_size) {
    clmem__cache_entry *e;
    if (!s) return NULL;
    for (e = s->buckets[hash % CLMEM__CACHE_BUCKETS]; e; e = e->next)
        if (e->hash == hash && e->object == object && e->key_size == args_size &&
            (args_size == 0 || memcmp(e->key, args, args_size) == 0))
            return e;
    return NULL;
}

/* clmem__cache_destroy_list: run the destroy functions of detached entries and free
   them. Called without the lock. */
static void clmem__cache_destroy_list(clmem__cache_entry *list) {
    while (list) {
        clmem__cache_entry *next = list->next;
        if (list->destroy) list->destroy(list->value);
        CLMEM_FREE(list);
        list = next;
    }
}

/* clmem__cache_detach_if: move every entry of every cache that matches (object or
   owner equal to obj; every entry when obj is NULL) onto *out. Under the lock. */
static size_t clmem__cache_detach_if(const void *obj, int match_object, int match_owner, clmem__cache_entry **out) {
    clmem_first_arg_cache *c;
    size_t n = 0, b;
    for (c = clmem__cache_registry; c; c = c->clmem__next) {
        clmem__cache_state *s = CLMEM__CAST(clmem__cache_state *, c->clmem__state);
        if (!s) continue;
        for (b = 0; b < CLMEM__CACHE_BUCKETS; ++b) {
            clmem__cache_entry **pp = &s->buckets[b];
            while (*pp) {
                clmem__cache_entry *e = *pp;
                if (obj == NULL || (match_object && e->object == obj) ||
                    (match_owner && (const void *)e->owner == obj)) {
                    *pp = e->next;
                    e->next = *out;
                    *out = e;
                    --s->count;
                    ++n;
                } else {
                    pp = &e->next;
                }
            }
        }
    }
    return n;
}

#ifdef CL_VERSION_3_0
static void CL_CALLBACK clmem__cache_context_destroyed(cl_context ctx, void *user) {
    clmem__cache_entry *dead = NULL;
    size_t i;
    (void)user;
    clmem__lock(&clmem__cache_mutex);
    for (i = 0; i < clmem__cache_num_watched; ++i)
        if (clmem__cache_watched[i] == ctx) {
            clmem__cache_watched[i] = clmem__cache_watched[--clmem__cache_num_watched];
            break;
        }
    clmem__cache_detach_if((const void *)ctx, 0, 1, &dead);
    clmem__unlock(&clmem__cache_mutex);
    clmem__cache_destroy_list(dead);
}
#endif

/* clmem__cache_watch(ctx): make sure the destructor callback is registered on ctx.
   Under the lock. Needs an OpenCL 3.0 platform (and 3.0 headers); elsewhere the entries
   stay until cleared or forgotten (documented in cache.h). */
static void clmem__cache_watch(cl_context ctx) {
#ifdef CL_VERSION_3_0
    size_t i;
    cl_device_id dev = NULL;
    cl_platform_id plat = NULL;
    int version = 0;
    for (i = 0; i < clmem__cache_num_watched; ++i)
        if (clmem__cache_watched[i] == ctx) return;
    /* the platform must be 3.0: older ICDs have no slot for the call */
    {
        cl_uint n = 0;
        cl_int err;
        cl_device_id *devs = clmem__devices_of("clmem_cache", ctx, &n, &err);
        if (!devs) return;
        dev = devs[0];
        CLMEM_FREE(devs);
    }
    if (clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL) != CL_SUCCESS) return;
    if (clmem__version_query(NULL, plat, &version) != CL_SUCCESS || version < 300) return;
    if (clmem__cache_num_watched == clmem__cache_cap_watched) {
        size_t cap = clmem__cache_cap_watched ? 2 * clmem__cache_cap_watched : 8;
        cl_context *grown = CLMEM__CAST(cl_context *, CLMEM_REALLOC(clmem__cache_watched, cap * sizeof(cl_context)));
        if (!grown) return; /* entries then live until cleared */
        clmem__cache_watched = grown;
        clmem__cache_cap_watched = cap;
    }
    if (clSetContextDestructorCallback(ctx, clmem__cache_context_destroyed, NULL) != CL_SUCCESS) return;
    clmem__cache_watched[clmem__cache_num_watched++] = ctx;
#else
    (void)ctx;
#endif
}

/* Over 100 lines on purpose: one lock protocol read top to bottom (look up under the
   lock, compute outside it, then insert or take the entry another thread inserted
   meanwhile, with the eviction); split, its hand-offs of the lock would be harder to
   check than its length. */
CLMEM_API cl_int clmem_first_arg_dependent_memoize(clmem_first_arg_cache *cache, void *cl_object, const void *args,
                                                   size_t args_size, void *value_out, void *user) {
    static const char *const fn = "clmem_first_arg_dependent_memoize";
    clmem__cache_state *s;
    clmem__cache_entry *e, *found;
    unsigned long long hash;
    cl_context owner = NULL;
    size_t header, total;
    cl_int err;
    char before[sizeof clmem__message];

    if (CLMEM__CHECKS && cache == NULL) return clmem__fail(CL_INVALID_VALUE, fn, "cache is NULL");
    if (CLMEM__CHECKS && cache->compute == NULL)
        return clmem__fail(CL_INVALID_VALUE, fn, "cache '%s' has no compute function", cache->name ? cache->name : "?");
    if (CLMEM__CHECKS && cl_object == NULL) {
        static const cl_int codes[] = {CL_INVALID_CONTEXT, CL_INVALID_DEVICE, CL_INVALID_COMMAND_QUEUE, CL_INVALID_VALUE};
        static const char *const what[] = {"context", "device", "queue", "object"};
        int k = (cache->key_kind >= CLMEM_CACHE_KEY_CONTEXT && cache->key_kind <= CLMEM_CACHE_KEY_OTHER)
                    ? (int)cache->key_kind : 3;
        return clmem__fail(codes[k], fn, "the %s keying cache '%s' is NULL", what[k], cache->name ? cache->name : "?");
    }
    if (CLMEM__CHECKS && args == NULL && args_size > 0)
        return clmem__fail(CL_INVALID_VALUE, fn, "args is NULL but args_size is %zu (cache '%s')", args_size,
                           cache->name ? cache->name : "?");

    hash = clmem__cache_hash(cl_object, args, args_size);
    clmem__lock(&clmem__cache_mutex);
    found = clmem__cache_find(CLMEM__CAST(clmem__cache_state *, cache->clmem__state), hash, cl_object, args, args_size);
    if (found) {
        if (value_out && cache->value_size) memcpy(value_out, found->value, cache->value_size);
        clmem__unlock(&clmem__cache_mutex);
        return CL_SUCCESS;
    }
    clmem__unlock(&clmem__cache_mutex);

    /* a miss: find the entry's context, compute without the lock, then insert */
    if (cache->key_kind == CLMEM_CACHE_KEY_CONTEXT) {
        owner = CLMEM__CAST(cl_context, cl_object);
    } else if (cache->key_kind == CLMEM_CACHE_KEY_QUEUE) {
        if ((err = clmem__queue_context_of(fn, CLMEM__CAST(cl_command_queue, cl_object), &owner)) != CL_SUCCESS)
            return err;
    }
    header = (sizeof(clmem__cache_entry) + sizeof(clmem__max_align) - 1) / sizeof(clmem__max_align) *
             sizeof(clmem__max_align);
    if (!clmem__add_ok(header, cache->value_size, &total) || !clmem__add_ok(total, args_size, &total) ||
        (e = CLMEM__CAST(clmem__cache_entry *, CLMEM_MALLOC(total))) == NULL)
        return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for an entry of cache '%s' (%zu value + %zu key bytes)",
                           cache->name ? cache->name : "?", cache->value_size, args_size);
    memset(e, 0, total);
    e->object = cl_object;
    e->owner = owner;
    e->destroy = cache->destroy;
    e->hash = hash;
    e->key_size = args_size;
    e->value = CLMEM__CAST(unsigned char *, CLMEM__CAST(void *, e)) + header;
    e->key = e->value + cache->value_size;
    if (args_size) memcpy(e->key, args, args_size);

    memcpy(before, clmem__message, sizeof before);
    err = cache->compute(cl_object, args, args_size, e->value, user);
    if (err != CL_SUCCESS) {
        char inner[sizeof clmem__message];
        int fresh = strcmp(before, clmem__message) != 0 && clmem__message[0] != '\0';
        memcpy(inner, clmem__message, sizeof inner);
        CLMEM_FREE(e);
        return clmem__fail(err, fn, "the compute function of cache '%s' failed with %s (%d); nothing was cached%s%s",
                           cache->name ? cache->name : "?", clmem_error_string(err), (int)err, fresh ? ": " : "",
                           fresh ? inner : "");
    }

    clmem__lock(&clmem__cache_mutex);
    s = CLMEM__CAST(clmem__cache_state *, cache->clmem__state);
    if (s == NULL) {
        s = CLMEM__CAST(clmem__cache_state *, CLMEM_MALLOC(sizeof *s));
        if (s == NULL) {
            clmem__unlock(&clmem__cache_mutex);
            if (e->destroy) e->destroy(e->value);
            CLMEM_FREE(e);
            return clmem__fail(CL_OUT_OF_HOST_MEMORY, fn, "no memory for the table of cache '%s'",
                               cache->name ? cache->name : "?");
        }
        memset(s, 0, sizeof *s);
        cache->clmem__state = s;
        cache->clmem__next = clmem__cache_registry;
        clmem__cache_registry = cache;
    }
    found = clmem__cache_find(s, hash, cl_object, args, args_size);
    if (found) { /* another thread stored it meanwhile: keep theirs */
        if (value_out && cache->value_size) memcpy(value_out, found->value, cache->value_size);
        clmem__unlock(&clmem__cache_mutex);
        e->next = NULL;
        clmem__cache_destroy_list(e);
        return CL_SUCCESS;
    }
    e->next = s->buckets[hash % CLMEM__CACHE_BUCKETS];
    s->buckets[hash % CLMEM__CACHE_BUCKETS] = e;
    ++s->count;
    if (owner) clmem__cache_watch(owner);
    if (value_out && cache->value_size) memcpy(value_out, e->value, cache->value_size);
    clmem__unlock(&clmem__cache_mutex);
    return CL_SUCCESS;
}

CLMEM_API void clmem_clear_first_arg_caches(void) {
    clmem__cache_entry *dead = NULL;
    clmem_first_arg_cache *c, *next;
    clmem__lock(&clmem__cache_mutex);
    clmem__cache_detach_if(NULL, 0, 0, &dead);
    for (c = clmem__cache_registry; c; c = next) {
        next = c->clmem__next;
        CLMEM_FREE(c->clmem__state);
        c->clmem__state = NULL;
        c->clmem__next = NULL;
    }
    clmem__cache_registry = NULL;
    /* Forget the watched contexts too: their callbacks stay registered and will find
       nothing; a context used again gets a second (harmless) callback. */
    CLMEM_FREE(clmem__cache_watched);
    clmem__cache_watched = NULL;
    clmem__cache_num_watched = clmem__cache_cap_watched = 0;
    clmem__unlock(&clmem__cache_mutex);
    clmem__cache_destroy_list(dead);
}

CLMEM_API size_t clmem_first_arg_caches_forget(void *cl_object) {
    clmem__cache_entry *dead = NULL;
    size_t n;
    if (cl_object == NULL) return 0;
    clmem__lock(&clmem__cache_mutex);
    n = clmem__cache_detach_if(cl_object, 1, 1, &dead);
    clmem__unlock(&clmem__cache_mutex);
    clmem__cache_destroy_list(dead);
    return n;
}

CLMEM_API size_t clmem_first_arg_cache_size(const clmem_first_arg_cache *cache) {
    size_t n = 0;
    if (cache == NULL) return 0;
    clmem__lock(&clmem__cache_mutex);
    if (cache->clmem__state) n = CLMEM__CAST(const clmem__cache_state *, cache->clmem__state)->count;
    clmem__unlock(&clmem__cache_mutex);
    return n;
}
