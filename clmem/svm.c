/* >>svm (implementation) */

#if defined(CL_VERSION_2_0)
#define CLMEM__HAVE_SVM 1
#else
#define CLMEM__HAVE_SVM 0
#endif

/* ---- the registry of live allocations and maps ----
   A handle names its record by an id: (generation << 32) | (slot index + 1). A
   release bumps the slot's generation, so the same id never comes back, and a
   stale handle (or a copy of one) is recognised instead of touching freed memory. */
enum { CLMEM__SVM_ALLOCATION = 1, CLMEM__SVM_MAP = 2 };

typedef struct clmem__svm_rec {
    int kind;
    void *ptr;
    size_t size;
    cl_context context;     /* allocation: retained until clSVMFree has run */
    cl_command_queue queue; /* allocation: bound queue; map: the map's queue (retained) */
    cl_svm_mem_flags flags;
    size_t alignment;
} clmem__svm_rec;

typedef struct clmem__svm_slot {
    clmem__svm_rec *rec; /* NULL: free, or detached while a release is under way */
    uint32_t gen;
    uint32_t next_free;  /* index + 1 of the next free slot, 0 ends the list */
    bool busy;           /* taken (live or detached) */
} clmem__svm_slot;

static clmem__mutex clmem__svm_reg_mutex = CLMEM__MUTEX_INIT;
static clmem__svm_slot *clmem__svm_slots;
static uint32_t clmem__svm_nslots, clmem__svm_cap, clmem__svm_free_head;

/* Register rec; 0 when out of memory. */
static uint64_t clmem__svm_reg_add(clmem__svm_rec *rec) {
    uint32_t i;
    uint64_t id = 0;
    clmem__lock(&clmem__svm_reg_mutex);
    if (clmem__svm_free_head) {
        i = clmem__svm_free_head - 1;
        clmem__svm_free_head = clmem__svm_slots[i].next_free;
    } else {
        if (clmem__svm_nslots == clmem__svm_cap) {
            uint32_t cap = clmem__svm_cap ? clmem__svm_cap * 2 : 64;
            clmem__svm_slot *s;
            if (cap > 0x7fffffffu) goto done;
            s = CLMEM__CAST(clmem__svm_slot *, CLMEM_REALLOC(clmem__svm_slots, sizeof(clmem__svm_slot) * cap));
            if (!s) goto done;
            clmem__svm_slots = s;
            clmem__svm_cap = cap;
        }
        i = clmem__svm_nslots++;
        clmem__svm_slots[i].gen = 1;
    }
    clmem__svm_slots[i].rec = rec;
    clmem__svm_slots[i].busy = true;
    clmem__svm_slots[i].next_free = 0;
    id = ((uint64_t)clmem__svm_slots[i].gen << 32) | (uint64_t)(i + 1);
done:
    clmem__unlock(&clmem__svm_reg_mutex);
    return id;
}

/* The slot of a live id (locked), or NULL. */
static clmem__svm_slot *clmem__svm_slot_of(uint64_t id, int kind) {
    uint32_t i = (uint32_t)(id & 0xffffffffu);
    clmem__svm_slot *s;
    if (i == 0 || i > clmem__svm_nslots) return NULL;
    s = &clmem__svm_slots[i - 1];
    if (!s->busy || s->rec == NULL || s->gen != (uint32_t)(id >> 32) || s->rec->kind != kind) return NULL;
    return s;
}

/* The record of a live id, or NULL. The record stays valid until its release. */
static clmem__svm_rec *clmem__svm_reg_find(uint64_t id, int kind) {
    clmem__svm_slot *s;
    clmem__svm_rec *rec = NULL;
    if (id == 0) return NULL;
    clmem__lock(&clmem__svm_reg_mutex);
    s = clmem__svm_slot_of(id, kind);
    if (s) rec = s->rec;
    clmem__unlock(&clmem__svm_reg_mutex);
    return rec;
}

/* Take a live record out of the registry for a release: nobody else finds it from
   now on, but the slot is kept so that clmem__svm_reg_restore can put it back. */
static clmem__svm_rec *clmem__svm_reg_detach(uint64_t id, int kind) {
    clmem__svm_slot *s;
    clmem__svm_rec *rec = NULL;
    clmem__lock(&clmem__svm_reg_mutex);
    s = clmem__svm_slot_of(id, kind);
    if (s) {
        rec = s->rec;
        s->rec = NULL;
    }
    clmem__unlock(&clmem__svm_reg_mutex);
    return rec;
}

static void clmem__svm_reg_restore(uint64_t id, clmem__svm_rec *rec) {
    clmem__lock(&clmem__svm_reg_mutex);
    clmem__svm_slots[(id & 0xffffffffu) - 1].rec = rec;
    clmem__unlock(&clmem__svm_reg_mutex);
}

/* Finish a detach: the id is dead for good and the slot reusable. */
static void clmem__svm_reg_remove(uint64_t id) {
    uint32_t i = (uint32_t)(id & 0xffffffffu) - 1;
    clmem__lock(&clmem__svm_reg_mutex);
    clmem__svm_slots[i].busy = false;
    clmem__svm_slots[i].rec = NULL;
    if (++clmem__svm_slots[i].gen == 0) clmem__svm_slots[i].gen = 1;
    clmem__svm_slots[i].next_free = clmem__svm_free_head;
    clmem__svm_free_head = i + 1;
    clmem__unlock(&clmem__svm_reg_mutex);
}

/* clmem__svm_check_live(fn, what, svm, &ctx): an SVM pointer whose owner is known
   must still be allocated; its context is returned (NULL for tags). */
static cl_int clmem__svm_check_live(const char *fn, const char *what, clmem_svm svm, cl_context *ctx) {
    clmem__svm_rec *rec;
    *ctx = NULL;
    if (svm.owner == 0) return CL_SUCCESS;
    rec = clmem__svm_reg_find(svm.owner, CLMEM__SVM_ALLOCATION);
    if (!rec)
        return clmem__fail(CL_INVALID_VALUE, fn, "%s (SVM pointer %p) belongs to an allocation that was released", what,
                           svm.ptr);
    *ctx = rec->context;
    return CL_SUCCESS;
}

static const char *clmem__svm_flags_text(cl_svm_mem_flags flags, char *buf, size_t size) {
    static const struct { cl_svm_mem_flags bit; const char *name; } names[] = {
        {CL_MEM_READ_WRITE, "READ_WRITE"}, {CL_MEM_WRITE_ONLY, "WRITE_ONLY"}, {CL_MEM_READ_ONLY, "READ_ONLY"},
        {(cl_svm_mem_flags)1 << 10, "SVM_FINE_GRAIN_BUFFER"}, {(cl_svm_mem_flags)1 << 11, "SVM_ATOMICS"}};
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (flags & names[i].bit) {
            int n = snprintf(buf + used, size - used, "%s%s", used ? "|" : "", names[i].name);
            if (n < 0 || (size_t)n >= size - used) break;
            used += (size_t)n;
            flags &= ~names[i].bit;
        }
    }
    if (flags && used < size) snprintf(buf + used, size - used, "%sunknown 0x%llx", used ? "|" : "", (unsigned long long)flags);
    if (!buf[0]) snprintf(buf, size, "0");
    return buf;
}

static cl_device_svm_capabilities_clmem__placeholder_unused;
