/* >>cxx: the C++ face of clmem: the same calls as in C, plus optional RAII owners and
   exceptions (nothing here is seen by a C compiler) */
#include "base.h"
#include "memobj.h"
#include "buffer.h"
#include "image.h"
#include "sampler.h"
#include "pipe.h"
#include "svm.h"
#include "usm.h"
#include "map.h"
#include "kernel_arg.h"
#include "registered.h"
#include "transfer.h"
#include "pool.h"
#include "usm_pool.h"
#include "pinned.h"
#include "stager.h"
#include "device_link.h"
#include "external.h"
#include "peer.h"
#include "peer_pool.h"

/* ---------------------------------------------------------------------------------
   CLMEM FROM C++

   Every public call of clmem is spelled the same in C++ as in C: the same names, the
   same positional arguments, in the same order. Plain functions are the C functions
   (extern "C"). The named-option macros that are a plain call are one definition for
   both languages (ONE MACRO FOR C AND C++ in clmem/base.h: they build their options
   with the forms here). Each other function-like macro of the C header (the
   named-option macros that dispatch with _Generic, take positional arguments through
   an args struct or need C++ conversions, clmem_enqueue_copy, clmem_enqueue_fill,
   clmem_set_kernel_arg, clmem_release, the clmem_memory_object_* family,
   CLMEM_WAIT_FOR) has a C++ definition here: macros that expand to valid C++, and
   overloads and templates where C uses _Generic (clmem_stager_copy included).
   CLMEM_WITH_MAP, CLMEM_WITH_SVM_MAP, CLMEM_SVM_TAG_ARRAY,
   clmem_local_memory, the pool allocate macros and the cache and test macros are the
   C macros: they are valid C++ as they are. The macros
   that take an element type T (clmem_enqueue_map_buffer, clmem_svm_empty and family)
   record sizeof(T) and the name "T" as written, and the map macros record the
   __FILE__ and __LINE__ of the call, exactly as in C.

   NAMED OPTIONS. Two spellings. The keywords (2) work in every standard, C++11 to
   C++20, with every compiler; where designators exist (C++20, and C++14/17 with g++ and
   clang++) a call may use either, and clmem builds each call in the spelling its text
   is written in (one call cannot mix the two: a static_assert says so). A whole
   options struct may be passed in both (clmem_enqueue_copy(q, host, buf, opts)).

   1. Designators, as in C (available where CLMEM_CXX_DESIGNATORS == 1, the default from
      C++20 with any compiler and from C++14 with g++ and clang++, where clmem marks them
      __extension__ so that -Wpedantic stays quiet):
          clmem_enqueue_copy(q, host, buf, .byte_count = 64, .src_offset = 128);
          clmem_enqueue_copy(q, host, buf, CLMEM_WAIT_FOR(e1, e2), .event = &ev);
      C++ adds two rules to C's: the designators must follow the order of the fields
      in the options struct, and braces refuse narrowing (.region = {w, h} with int w:
      write size_t values). The orders (CLMEM_WAIT_FOR stands where wait_for stands):
        clmem_copy_options       byte_count, src_offset, dst_offset, offset, host_size,
                                 region, origin, pitches, buffer_origin, host_origin,
                                 buffer_pitches, host_pitches, src_origin, dst_origin,
                                 dest_origin, src_pitches, dst_pitches, is_blocking,
                                 wait_for, num_wait_for, event
        clmem_fill_options       offset, pattern_size, wait_for, num_wait_for, event
        clmem_enqueue_options    wait_for, num_wait_for, event
        clmem_map_options        shape, ndim, order, strides, origin, region,
                                 is_blocking, wait_for, num_wait_for, event
        clmem_unmap_options, clmem_svm_unmap_options   queue, wait_for, num_wait_for, event
        clmem_image_options      shape, ndim, pitches, hostbuf, host_size, is_array, buffer
        clmem_image_from_array_options   num_channels, mode, norm_int, half_float
        clmem_svm_map_options    size, is_blocking, wait_for, num_wait_for, event
        clmem_svm_memfill_options  byte_count, wait_for, num_wait_for, event
        clmem_svm_empty_options  shape, ndim, order, alignment, queue
        clmem_stager_copy_options (= clmem_copy_options)  byte_count, src_offset,
                                 dst_offset, host_size, is_blocking, wait_for, num_wait_for, event
      In C++14 and later every options field carries a default member initializer
      (zero; the C layout is unchanged), so g++'s -Wmissing-field-initializers stays
      quiet about the fields left out.

   2. Keywords, in every standard and with every compiler (the only spelling in C++11
      and where CLMEM_CXX_DESIGNATORS == 0, which may be defined before including
      clmem.h to turn designators off):
          clmem_enqueue_copy(q, host, buf, clmem::byte_count = 64, clmem::src_offset = 128);
          clmem_enqueue_copy(q, dst, src, clmem::region(16, 4), clmem::src_pitches(64));
          clmem_enqueue_copy(q, host, buf, clmem::wait_for(e1, e2), clmem::event = &ev);
      clmem::wait_for(e1, e2, ...) sets wait_for and num_wait_for from the events in
      every standard. CLMEM_WAIT_FOR(e1, e2) is the designator spelling of the same
      where designators exist (there it expands to designators, so a keyword call must
      use clmem::wait_for), and the keyword spelling where they do not.
      Every option field has a keyword of its name in namespace clmem (byte_count,
      is_blocking, region, shape, event, queue, ...): `clmem::name = value`, or
      `clmem::name(value)`, or for the array options `clmem::name = {a, b}` (size_t
      values: braces refuse narrowing, as with designators) and `clmem::name(a, b, c)`
      (any integer types; the count is checked at compile time). Keywords may come in any
      order; a keyword the call does not know is a compile error naming the field
      ("no member named 'pattern_size' in 'clmem_copy_options'"). A whole options struct
      may stand among them (its fields and `given` bits are taken, later keywords
      override them). With 2, the given mask is set by each keyword, so
      clmem::byte_count = 0 copies nothing, clmem::is_blocking = false does not block.

   Both spellings keep C's rule: an option written means its value, one left out means
   its default. The *_opts functions take the structs directly: start one from
   CLMEM_OPTIONS_INIT (clmem_copy_options o = CLMEM_OPTIONS_INIT;, the same as the
   type's own CLMEM_COPY_OPTIONS_INIT), which leaves every option out; a field you then
   set means its value, 0 and false included. A struct not made so
   (clmem_copy_options(), = {}) is refused, since a zero could mean either (see NAMED
   OPTIONS in clmem/base.h).

   WHAT IS C-ONLY, AND WHY. No operation is C-only. These C spellings are not C++:
     - compound literals as arguments ((cl_float4){{1, 2, 3, 4}}, (const size_t[]){1, 2},
       (cl_mem[]){a.mem}): C++ has none. Write cl_float4{{1, 2, 3, 4}} (inside a clmem
       macro in parentheses, as in C: (cl_float4{{1, 2, 3, 4}})) or a named array;
       clmem_memory_map_at(&m, {1, 2, 3}) has a C++ overload taking a brace list.
     - designators out of declaration order, array and nested designators
       (.region[1] = 4, .buffer.mem = m): C++20 forbids them; with the keywords
       (spelling 2) any order works.
     - designators in C++11 (and before C++20 outside g++ and clang++): the C++ grammar
       lacks them; g++ in C++11 cannot take them without -Wmissing-field-initializers
       (a struct with default member initializers is not a C++11 aggregate), so C++11
       uses the keywords.
   The compile errors of _Generic (a copy OpenCL cannot do, an unsupported fill pattern)
   are static_assert messages with the same words in C++. Unlike C, passing a raw
   pointer or an unsupported type to clmem_set_kernel_arg is a compile error in C++ (C
   reports CL_INVALID_ARG_VALUE at run time).

   OPTIONAL ADDITIONS (C++ only, never required):
     clmem::unique<H>      owns one handle (clmem_buffer, clmem_image, clmem_pipe,
                           clmem_sampler, clmem_svm_allocation, clmem_memory_map,
                           clmem_svm_map, clmem_svm_array, clmem_pooled_svm,
                           clmem_pinned_allocation, clmem_usm_allocation,
                           clmem_pooled_usm, clmem_pooled_peer, clmem_host_registration) and
                           releases it with clmem_release when it goes out of scope;
                           move-only.
                               clmem::unique<clmem_buffer> b(clmem_buffer_create(ctx, 0, n, NULL, &err));
                               clmem_enqueue_copy(q, b, host);          // a unique<H> passes as H
                               clmem::unique<clmem_memory_map> m;
                               clmem_enqueue_map_buffer(q, b, CL_MAP_READ, 0, float, m.out());
     clmem::data<T>(map_or_array)  the host pointer as T * (NULL when sizeof(T) is not
                           the recorded item size); clmem::at<T>(map, {i, j}) one element.
     CLMEM_CXX_EXCEPTIONS  define it before including clmem.h to get clmem::error (a
                           std::runtime_error with .code()) and clmem::check(code),
                           which throws for any code but CL_SUCCESS. With it the calls
                           this C++ section defines (every named-option macro,
                           clmem_enqueue_copy/fill, clmem_set_kernel_arg, clmem_release,
                           clmem_memory_object_get_info, clmem_create_image,
                           clmem_image_from_array) throw clmem::error
                           instead of returning a failure; plain C functions still return
                           their codes (wrap them: clmem::check(clmem_buffer_release(&b))).
                           clmem::unique never throws from its destructor.
   Thread safety: as the C calls they make.
   --------------------------------------------------------------------------------- */
#ifdef __cplusplus

#include <cstddef>
#include <initializer_list>
#include <type_traits>
#ifdef CLMEM_CXX_EXCEPTIONS
#include <stdexcept>
#include <string>
#endif

#ifndef CLMEM_CXX_DESIGNATORS
#if __cplusplus >= 202002L || (__cplusplus >= 201402L && (defined(__GNUC__) || defined(__clang__)))
#define CLMEM_CXX_DESIGNATORS 1
#else
#define CLMEM_CXX_DESIGNATORS 0
#endif
#endif
#if CLMEM_CXX_DESIGNATORS && __cplusplus < 201402L
#error "clmem: CLMEM_CXX_DESIGNATORS needs C++14 or later (C++20 outside g++ and clang++); use the keywords (clmem::byte_count = n)"
#endif

/* ---- exceptions (on request) ---- */
#ifdef CLMEM_CXX_EXCEPTIONS
namespace clmem {
/** clmem::error: what the C++ calls throw with CLMEM_CXX_EXCEPTIONS. what() is
    "CL_INVALID_VALUE (-30): clmem_enqueue_copy: ..." (the code's name, the code and
    clmem_last_error_message()); code() is the code. */
class error : public std::runtime_error {
  public:
    error(cl_int code, const char *message)
        : std::runtime_error(std::string(clmem_error_string(code)) + " (" + std::to_string(code) + ")" +
                             (message && message[0] ? std::string(": ") + message : std::string())),
          code_(code) {}
    cl_int code() const noexcept { return code_; }

  private:
    cl_int code_;
};
/** clmem::check(code): throws clmem::error unless code is CL_SUCCESS; returns it. */
inline cl_int check(cl_int code) {
    if (code != CL_SUCCESS) throw error(code, clmem_last_error_message());
    return code;
}
} // namespace clmem
#endif

namespace clmem {
template <class H> class unique;

namespace detail {
/* What the C++ forms return: the code, or with CLMEM_CXX_EXCEPTIONS a throw. */
inline cl_int ret(cl_int code) {
#ifdef CLMEM_CXX_EXCEPTIONS
    return clmem::check(code);
#else
    return code;
#endif
}
template <class H> inline H ctor_ret(const H &h, cl_int code, cl_int *errcode_ret) {
    if (errcode_ret) *errcode_ret = code;
#ifdef CLMEM_CXX_EXCEPTIONS
    clmem::check(code);
#endif
    return h;
}

/* unset(o): the "left out" values in the options of o's type that have a CLMEM_GIVEN_*
   bit, from the type's CLMEM__*_UNSET list (NAMED OPTIONS in clmem/base.h), and
   CLMEM__OPTIONS_UNSET; nothing for the types whose options all default to 0. */
template <class O> inline void unset(O &) {}
#define CLMEM__CXX_UNSET_SET(T, field, element, value, bit) o.field element = value;
#define CLMEM__CXX_UNSET(T, LIST)                \
    inline void unset(T &o) {                    \
        o.given |= CLMEM__OPTIONS_UNSET;         \
        LIST(CLMEM__CXX_UNSET_SET, T)            \
    }
CLMEM__CXX_UNSET(clmem_copy_options, CLMEM__COPY_UNSET)
CLMEM__CXX_UNSET(clmem_map_options, CLMEM__MAP_UNSET)
CLMEM__CXX_UNSET(clmem_svm_map_options, CLMEM__SVM_MAP_UNSET)
CLMEM__CXX_UNSET(clmem_svm_memfill_options, CLMEM__SVM_MEMFILL_UNSET)
CLMEM__CXX_UNSET(clmem_svm_empty_options, CLMEM__SVM_EMPTY_UNSET)
CLMEM__CXX_UNSET(clmem_image_options, CLMEM__IMAGE_UNSET)
CLMEM__CXX_UNSET(clmem_image_from_array_options, CLMEM__IMAGE_FROM_ARRAY_UNSET)
#undef CLMEM__CXX_UNSET
#undef CLMEM__CXX_UNSET_SET
/* CLMEM_X_OPTIONS_INIT in C++: the options of type O, every option left out, marked. */
template <class O> inline O options_init_of() {
    O o = O();
    o.given = CLMEM_OPTIONS_MARK;
    unset(o);
    return o;
}
/* CLMEM_OPTIONS_INIT in C++: converts to any options struct as its type's own
   initializer (options_init_of). */
struct options_init {
    template <class O> operator O() const { return options_init_of<O>(); }
};
/* CLMEM__OPTIONS_DEFAULTS (clmem's own options inside itself): converts to any options
   struct, the fields at 0 without their bits, marked. */
struct options_defaults {
    template <class O> operator O() const {
        O o = O();
        o.given = CLMEM_OPTIONS_MARK;
        return o;
    }
};

/* The address of a temporary options struct, valid to the end of the full expression
   (the call it is an argument of). */
template <class T> inline const T *ptr(const T &o) { return &o; }
/* The call site of a map. */
inline clmem_map_options site(clmem_map_options o, const char *file, int line) {
    o.clmem__file = file;
    o.clmem__line = line;
    return o;
}

/* ---- keywords (spelling 2) ---- */
template <class E, std::size_t N> struct kwarr {
    E v[N];
};
template <class Tag, class V> struct kwval {
    V v;
};
struct end_t {};
template <std::size_t N> struct waitlist {
    cl_event ev[N];
};

template <class D, class V> inline void assign(D &d, const V &v) { d = v; }
template <class D, std::size_t M, class V> inline void assign(D (&d)[M], const V &v) {
    for (std::size_t i = 0; i < M; i++) d[i] = D();
    d[0] = static_cast<D>(v);
}
template <class D, std::size_t M, class E, std::size_t N> inline void assign(D (&d)[M], const kwarr<E, N> &a) {
    static_assert(N <= M, "clmem: more values than this option holds");
    for (std::size_t i = 0; i < M; i++) d[i] = i < N ? static_cast<D>(a.v[i]) : D();
}
/* {a, b, c}: size_t values (braces refuse narrowing, as designators do); more values
   than the field holds make every entry SIZE_MAX, which each call refuses as out of
   range (the count of a brace list is not known at compile time; clmem::name(a, b) is
   checked at compile time). */
struct kwlist {
    std::size_t n;
    std::size_t v[8];
};
template <class D, std::size_t M> inline void assign(D (&d)[M], const kwlist &a) {
    for (std::size_t i = 0; i < M; i++) d[i] = a.n > M ? static_cast<D>(-1) : i < a.n ? static_cast<D>(a.v[i]) : D();
}

template <class Tag> struct keyword {
    template <class V> kwval<Tag, typename std::decay<V>::type> operator=(const V &v) const {
        kwval<Tag, typename std::decay<V>::type> r = {v};
        return r;
    }
    kwval<Tag, kwlist> operator=(std::initializer_list<std::size_t> l) const {
        kwval<Tag, kwlist> r;
        r.v.n = l.size();
        for (std::size_t i = 0; i < l.size() && i < 8; i++) r.v.v[i] = l.begin()[i];
        return r;
    }
    template <class V> kwval<Tag, typename std::decay<V>::type> operator()(const V &v) const { return *this = v; }
    template <class A, class B, class... R>
    kwval<Tag, kwarr<std::size_t, 2 + sizeof...(R)> > operator()(const A &a, const B &b, const R &... r) const {
        kwval<Tag, kwarr<std::size_t, 2 + sizeof...(R)> > k = {
            {{static_cast<std::size_t>(a), static_cast<std::size_t>(b), static_cast<std::size_t>(r)...}}};
        return k;
    }
};

template <class O> inline void apply(O &, const end_t &) {}
template <class O> inline void apply(O &o, const O &whole) { o = whole; }
template <class O, class Tag, class V> inline void apply(O &o, const kwval<Tag, V> &k) { Tag::set(o, k.v); }
template <class O, std::size_t N> inline void apply(O &o, const waitlist<N> &w) {
    o.wait_for = w.ev;
    o.num_wait_for = static_cast<cl_uint>(N);
}
template <class O, class... A> inline O make(const A &... a) {
    O o = O();
    o.given = CLMEM_OPTIONS_MARK;
    int seq[] = {0, (apply(o, a), 0)...};
    (void)seq;
    return o;
}
template <class... E> inline waitlist<sizeof...(E)> wait_list(const E &... e) {
    waitlist<sizeof...(E)> w = {{e...}};
    return w;
}
} // namespace detail

#define CLMEM__CXX_KEYWORD(name, bit)                                                       \
    namespace detail {                                                                      \
    struct kw_##name {                                                                      \
        template <class O, class V> static void set(O &o, const V &v) {                     \
            detail::assign(o.name, v);                                                      \
            o.given |= (bit);                                                               \
        }                                                                                   \
    };                                                                                      \
    }                                                                                       \
    constexpr detail::keyword<detail::kw_##name> name = {};
/** The keywords (spelling 2): one per option field, named as the field. */
CLMEM__CXX_KEYWORD(byte_count, CLMEM_GIVEN_BYTE_COUNT)
CLMEM__CXX_KEYWORD(src_offset, 0u)
CLMEM__CXX_KEYWORD(dst_offset, 0u)
CLMEM__CXX_KEYWORD(offset, 0u)
CLMEM__CXX_KEYWORD(host_size, CLMEM_GIVEN_HOST_SIZE)
CLMEM__CXX_KEYWORD(region, CLMEM_GIVEN_REGION)
CLMEM__CXX_KEYWORD(origin, 0u)
CLMEM__CXX_KEYWORD(pitches, 0u)
CLMEM__CXX_KEYWORD(buffer_origin, 0u)
CLMEM__CXX_KEYWORD(host_origin, 0u)
CLMEM__CXX_KEYWORD(buffer_pitches, 0u)
CLMEM__CXX_KEYWORD(host_pitches, 0u)
CLMEM__CXX_KEYWORD(src_origin, 0u)
CLMEM__CXX_KEYWORD(dst_origin, 0u)
CLMEM__CXX_KEYWORD(dest_origin, 0u)
CLMEM__CXX_KEYWORD(src_pitches, 0u)
CLMEM__CXX_KEYWORD(dst_pitches, 0u)
CLMEM__CXX_KEYWORD(is_blocking, CLMEM_GIVEN_IS_BLOCKING)
CLMEM__CXX_KEYWORD(num_wait_for, 0u)
CLMEM__CXX_KEYWORD(event, 0u)
CLMEM__CXX_KEYWORD(pattern_size, 0u)
CLMEM__CXX_KEYWORD(shape, CLMEM_GIVEN_SHAPE)
CLMEM__CXX_KEYWORD(ndim, CLMEM_GIVEN_NDIM)
CLMEM__CXX_KEYWORD(hostbuf, 0u)
CLMEM__CXX_KEYWORD(is_array, 0u)
CLMEM__CXX_KEYWORD(buffer, 0u)
CLMEM__CXX_KEYWORD(num_channels, CLMEM_GIVEN_NUM_CHANNELS)
CLMEM__CXX_KEYWORD(mode, CLMEM_GIVEN_MODE)
CLMEM__CXX_KEYWORD(norm_int, 0u)
CLMEM__CXX_KEYWORD(half_float, 0u)
CLMEM__CXX_KEYWORD(strides, 0u)
CLMEM__CXX_KEYWORD(order, CLMEM_GIVEN_ORDER)
CLMEM__CXX_KEYWORD(queue, 0u)
CLMEM__CXX_KEYWORD(size, CLMEM_GIVEN_SIZE)
CLMEM__CXX_KEYWORD(alignment, CLMEM_GIVEN_ALIGNMENT)
#undef CLMEM__CXX_KEYWORD
namespace detail {
/* clmem::wait_for = events_ptr (with clmem::num_wait_for = n), or clmem::wait_for(e1, e2,
   ...): both fields from the events, the keyword spelling of CLMEM_WAIT_FOR(e1, e2) that
   works in every standard. */
struct kw_wait_for {
    template <class O, class V> static void set(O &o, const V &v) { detail::assign(o.wait_for, v); }
};
struct wait_for_keyword : keyword<kw_wait_for> {
    kwval<kw_wait_for, const cl_event *> operator=(const cl_event *p) const {
        kwval<kw_wait_for, const cl_event *> r = {p};
        return r;
    }
    kwval<kw_wait_for, const cl_event *> operator()(const cl_event *p) const { return *this = p; }
    template <class... E> waitlist<1 + sizeof...(E)> operator()(cl_event e, E... rest) const {
        return wait_list(e, rest...);
    }
};
} // namespace detail
constexpr detail::wait_for_keyword wait_for = detail::wait_for_keyword();
} // namespace clmem

/* ---- how the macros build their options ---- */
#if defined(__GNUC__) || defined(__clang__)
#define CLMEM__CXX_EXT __extension__
#else
#define CLMEM__CXX_EXT
#endif
#if CLMEM_CXX_DESIGNATORS
/* Each call is built in the spelling it is written in: designators give T{...} (its
   given mask from the text, as in C), keywords or a whole struct give
   detail::keywords<T>{...}, which applies them in order. The type is picked at compile
   time from the text of the options (detail::spelling), so only the spelling written
   is checked; one call cannot mix the two. */
namespace clmem {
namespace detail {
/* spelling("text"): 1 when a clause of the options text starts with '.' (a
   designator), | 2 when one starts otherwise (a keyword, a whole struct) */
constexpr int spelling(const char *s) {
    int depth = 0, kinds = 0;
    bool start = true;
    for (; *s; ++s) {
        char c = *s;
        if (c == '"' || c == '\'') { /* skip a string or character literal */
            for (++s; *s && *s != c; ++s)
                if (*s == '\\' && s[1]) ++s;
            if (!*s) break;
            if (start) kinds |= 2;
            start = false;
        } else if (c == '(' || c == '{' || c == '[') {
            ++depth, start = false;
        } else if (c == ')' || c == '}' || c == ']') {
            --depth, start = false;
        } else if (c == ',') {
            start = depth == 0;
        } else if (c != ' ' && c != '\t' && c != '\n') {
            if (start) kinds |= c == '.' ? 1 : 2;
            start = false;
        }
    }
    return kinds;
}
template <class O> struct keywords {
    O o;
    keywords() : o(make<O>()) {}
    template <class A0, class... A> keywords(const A0 &a0, const A &... a) : o(make<O>(a0, a...)) {}
};
template <int K, class O> struct spelled { /* 0, 2: keywords, a whole struct or nothing */
    typedef keywords<O> type;
};
template <class O> struct spelled<1, O> { /* designators */
    typedef O type;
};
template <class O> struct spelled<3, O> {
    static_assert(sizeof(O) == 0, "clmem: one call mixes designators and keywords (or a whole struct); "
                                  "CLMEM_WAIT_FOR(e1, e2) is designators where they exist: with keywords write "
                                  "clmem::wait_for(e1, e2)");
    typedef O type;
};
template <class O> inline O built(O o, unsigned given) {
    o.given = given;
    return o;
}
template <class O> inline O built(const keywords<O> &k, unsigned) { return k.o; }
} // namespace detail
} // namespace clmem
#define CLMEM__CXX_STR(...) #__VA_ARGS__
#define CLMEM__CXX_END
#define CLMEM__CXX_OV(T, ...)                                                                                  \
    clmem::detail::built<T>(CLMEM__CXX_EXT clmem::detail::spelled<clmem::detail::spelling(CLMEM__CXX_STR(__VA_ARGS__)), \
                                                                  T>::type{__VA_ARGS__},                        \
                            CLMEM__GIVEN(__VA_ARGS__))
/** CLMEM_WAIT_FOR(e1, e2, ...): .wait_for and .num_wait_for together (the events live
    until the end of the call's full expression). */
#define CLMEM_WAIT_FOR(...)                                              \
    .wait_for = std::initializer_list<cl_event>{__VA_ARGS__}.begin(), \
    .num_wait_for = static_cast<cl_uint>(std::initializer_list<cl_event>{__VA_ARGS__}.size())
#else
#define CLMEM__CXX_END clmem::detail::end_t()
#define CLMEM__CXX_OV(T, ...) clmem::detail::make<T>(__VA_ARGS__)
#define CLMEM_WAIT_FOR(...) clmem::detail::wait_list(__VA_ARGS__)
#endif
#define CLMEM__CXX_O(T, ...) clmem::detail::ptr(CLMEM__CXX_OV(T, __VA_ARGS__))
/** CLMEM_OPTIONS_INIT (see NAMED OPTIONS in clmem/base.h): clmem_copy_options o = CLMEM_OPTIONS_INIT;
    converts to every options type as its own initializer (CLMEM_COPY_OPTIONS_INIT, ...). */
#define CLMEM_OPTIONS_INIT clmem::detail::options_init()
#define CLMEM__CXX_RET(e) clmem::detail::ret(e)

/* ---- memobj ---- */
#define clmem_enqueue_migrate_mem_objects(...) clmem__cxx_migrate_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_migrate_(queue, objects, n, flags, ...) \
    CLMEM__CXX_RET(clmem_enqueue_migrate_mem_objects_opts(queue, objects, n, flags, CLMEM__CXX_O(clmem_enqueue_options, __VA_ARGS__)))

/* ---- buffer ---- */
#define clmem_enqueue_fill_buffer(...) clmem__cxx_fill_buffer_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_fill_buffer_(queue, buf, pattern, pattern_size, offset, size, ...)              \
    CLMEM__CXX_RET(clmem_enqueue_fill_buffer_opts(queue, clmem::detail::handle(buf), pattern, pattern_size, \
                                                  offset, size, CLMEM__CXX_O(clmem_enqueue_options, __VA_ARGS__)))

/* ---- image ---- */
#define clmem_create_image(...) clmem__cxx_create_image_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem_image_create(...) clmem__cxx_create_image_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_create_image_(context, flags, format, errcode_ret, ...) \
    clmem::detail::create_image(context, flags, format, CLMEM__CXX_O(clmem_image_options, __VA_ARGS__), errcode_ret)
#define clmem_image_from_array(...) clmem__cxx_image_from_array_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_image_from_array_(context, array, ndim, shape, errcode_ret, ...) \
    clmem::detail::image_from_array(context, array, ndim, shape,                    \
                                    CLMEM__CXX_O(clmem_image_from_array_options, __VA_ARGS__), errcode_ret)
#define clmem_enqueue_fill_image(...) clmem__cxx_fill_image_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_fill_image_(queue, img, color, origin, region, ...)                                          \
    CLMEM__CXX_RET(clmem_enqueue_fill_image_opts(queue, clmem::detail::handle(img), color,                     \
                                                 clmem::detail::color_kind(color), origin, region,             \
                                                 CLMEM__CXX_O(clmem_enqueue_options, __VA_ARGS__)))

/* ---- svm ---- */
#define clmem_enqueue_svm_migratemem(...) clmem__cxx_svm_migratemem_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_svm_migratemem_(queue, svms, n, flags, ...) \
    CLMEM__CXX_RET(clmem_enqueue_svm_migratemem_opts(queue, svms, n, flags, CLMEM__CXX_O(clmem_enqueue_options, __VA_ARGS__)))
#define clmem_svm_empty(...) clmem__cxx_svm_empty_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_svm_empty_(ctx, flags, T, errcode_ret, ...)                          \
    clmem::detail::svm_empty(ctx, flags, sizeof(T), #T, errcode_ret, CLMEM__CXX_O(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_csvm_empty(...) clmem__cxx_csvm_empty_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_csvm_empty_(ctx, T, errcode_ret, ...)                                           \
    clmem::detail::svm_empty(ctx, CL_MEM_READ_WRITE, sizeof(T), #T, errcode_ret,                   \
                             CLMEM__CXX_O(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_fsvm_empty(...) clmem__cxx_fsvm_empty_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_fsvm_empty_(ctx, T, errcode_ret, ...)                                                           \
    clmem::detail::svm_empty(ctx, CL_MEM_READ_WRITE | CLMEM__SVM_FINE_GRAIN_BUFFER, sizeof(T), #T, errcode_ret,     \
                             CLMEM__CXX_O(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_svm_empty_like(...) clmem__cxx_svm_empty_like_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_svm_empty_like_(ctx, flags, like, errcode_ret, ...) \
    clmem::detail::svm_empty_like(ctx, flags, like, errcode_ret, CLMEM__CXX_O(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_csvm_empty_like(...) clmem__cxx_csvm_empty_like_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_csvm_empty_like_(ctx, like, errcode_ret, ...)                     \
    clmem::detail::svm_empty_like(ctx, CL_MEM_READ_WRITE, like, errcode_ret,       \
                                  CLMEM__CXX_O(clmem_svm_empty_options, __VA_ARGS__))
#define clmem_fsvm_empty_like(...) clmem__cxx_fsvm_empty_like_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_fsvm_empty_like_(ctx, like, errcode_ret, ...)                                          \
    clmem::detail::svm_empty_like(ctx, CL_MEM_READ_WRITE | CLMEM__SVM_FINE_GRAIN_BUFFER, like, errcode_ret, \
                                  CLMEM__CXX_O(clmem_svm_empty_options, __VA_ARGS__))

/* ---- usm ---- */

/* ---- pinned: clmem_stager_copy(st, dst, src, ...), buffer <- host and host <- buffer ---- */
#define clmem_stager_copy(...) clmem__cxx_stager_copy_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_stager_copy_(st, dst, src, ...) \
    CLMEM__CXX_RET(clmem::detail::stager_copy(st, dst, src, CLMEM__CXX_O(clmem_stager_copy_options, __VA_ARGS__)))

/* ---- device link: clmem_device_link_copy(l, dst, src, ...), buffer <- buffer ---- */
#define clmem_device_link_copy(...) clmem__cxx_device_link_copy_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_device_link_copy_(l, dst, src, ...)                                                        \
    CLMEM__CXX_RET(clmem_device_link_copy_opts(l, clmem::detail::handle(dst), clmem::detail::handle(src), \
                                               CLMEM__CXX_O(clmem_copy_options, __VA_ARGS__)))

/* ---- external memory and semaphores (>>external) ---- */

/* ---- map ---- */
#define clmem_enqueue_map_buffer(...) clmem__cxx_map_buffer_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_map_buffer_(queue, buf, flags, offset, T, map, ...)                                        \
    CLMEM__CXX_RET(clmem_enqueue_map_buffer_opts(                                                             \
        queue, clmem::detail::handle(buf), flags, offset, sizeof(T), #T, map,                                  \
        clmem::detail::ptr(clmem::detail::site(CLMEM__CXX_OV(clmem_map_options, __VA_ARGS__), __FILE__, __LINE__))))
#define clmem_enqueue_map_image(...) clmem__cxx_map_image_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_map_image_(queue, img, flags, map, ...)                                                     \
    CLMEM__CXX_RET(clmem_enqueue_map_image_opts(                                                               \
        queue, clmem::detail::handle(img), flags, map,                                                         \
        clmem::detail::ptr(clmem::detail::site(CLMEM__CXX_OV(clmem_map_options, __VA_ARGS__), __FILE__, __LINE__))))

/* ---- transfer ---- */
#define clmem_enqueue_copy(...) clmem__cxx_copy_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_copy_(queue, dst, src, ...) \
    CLMEM__CXX_RET(clmem::detail::copy(queue, dst, src, CLMEM__CXX_O(clmem_copy_options, __VA_ARGS__)))
#define clmem_enqueue_fill(...) clmem__cxx_fill_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_fill_(queue, dst, pattern, size, ...) \
    CLMEM__CXX_RET(clmem::detail::fill(queue, dst, pattern, size, CLMEM__CXX_O(clmem_fill_options, __VA_ARGS__)))
#define clmem_enqueue_copy_buffer_p2p_amd(...) clmem__cxx_p2p_(__VA_ARGS__, CLMEM__CXX_END)
#define clmem__cxx_p2p_(platform, queue, src, dst, ...)                                                           \
    CLMEM__CXX_RET(clmem_enqueue_copy_buffer_p2p_amd_opts(platform, queue, clmem::detail::handle(src),           \
                                                          clmem::detail::handle(dst),                            \
                                                          CLMEM__CXX_O(clmem_copy_options, __VA_ARGS__)))

namespace clmem {
namespace detail {
/* ---- handles: a clmem::unique<H> passes where H goes ---- */
template <class T> inline T &handle(T &h) { return h; }
template <class T> inline const T &handle(const T &h) { return h; }
template <class H> inline const H &handle(const unique<H> &u) { return u.get(); }
template <class H> inline const H &handle(unique<H> &u) { return u.get(); }
template <class T> struct unwrap {
    typedef T type;
};
template <class H> struct unwrap<unique<H> > {
    typedef H type;
};

/* ---- memory objects ---- */
#define CLMEM__CXX_MEM_OF(T, name) \
    inline cl_mem mem_of(T h) { return h.mem; }
CLMEM__KINDS(CLMEM__KIND_IF_MEM, CLMEM__CXX_MEM_OF)
#undef CLMEM__CXX_MEM_OF
inline cl_mem mem_of(cl_mem m) { return m; }
template <class H> inline cl_mem mem_of(const unique<H> &u) { return mem_of(u.get()); }

/* ---- enqueue_copy: the DISPATCH TABLE as overloads, from CLMEM__COPY_KINDS and CLMEM__COPY_PAIRS ---- */
/* kind_of<T>: a kind's number (CLMEM__COPY_KIND_*: k_host for a pointer), k_const_host for a
   pointer to const (a source only), k_other for what is no kind. */
enum {
    k_host = CLMEM__COPY_KIND_host,
    k_buffer = CLMEM__COPY_KIND_clmem_buffer,
    k_other = CLMEM__COPY_KIND_COUNT,
    k_const_host
};
template <class T> struct kind_of {
    static const int value = std::is_pointer<T>::value
                                 ? (std::is_const<typename std::remove_pointer<T>::type>::value ? k_const_host : k_host)
                                 : k_other;
};
#define CLMEM__CXX_KIND_NAME(T) #T ", "
#define CLMEM__CXX_KIND(T)                              \
    template <> struct kind_of<T> {                     \
        static const int value = CLMEM__COPY_KIND_##T; \
    };
CLMEM__COPY_KINDS(CLMEM__CXX_KIND)
#undef CLMEM__CXX_KIND
template <int D, int S> struct copy_ok { /* S: k_host also for a pointer to const */
    static const bool value = false;
};
#define CLMEM__CXX_COPY(d, s, fn, inline_, what)                                                                  \
    template <> struct copy_ok<CLMEM__COPY_KIND_##d, CLMEM__COPY_KIND_##s> {                                      \
        static const bool value = true;                                                                           \
    };                                                                                                            \
    inline cl_int copy_pair(cl_command_queue q, CLMEM__COPY_DST_T(d) dst, CLMEM__COPY_SRC_T(s) src,               \
                            const clmem_copy_options *o) {                                                        \
        return CLMEM__COPY_ENTRY(inline_, fn)(q, dst, src, o);                                                    \
    }
CLMEM__COPY_PAIRS(CLMEM__CXX_COPY)
#undef CLMEM__CXX_COPY
template <class D, class S>
inline cl_int copy_dispatch(std::true_type, cl_command_queue q, const D &d, const S &s, const clmem_copy_options *o) {
    return copy_pair(q, d, s, o);
}
template <class D, class S>
inline cl_int copy_dispatch(std::false_type, cl_command_queue, const D &, const S &, const clmem_copy_options *) {
    return CL_INVALID_VALUE; /* never runs: the static_asserts in copy() stop the build */
}
template <class D0, class S0>
inline cl_int copy(cl_command_queue q, D0 &&dst, S0 &&src, const clmem_copy_options *o) {
    typedef typename unwrap<typename std::decay<D0>::type>::type D;
    typedef typename unwrap<typename std::decay<S0>::type>::type S;
    static const int kd = kind_of<D>::value, ks0 = kind_of<S>::value, ks = ks0 == k_const_host ? k_host : ks0;
    static_assert(kd != k_other && ks != k_other,
                  "clmem_enqueue_copy: dst and src must each be one of " CLMEM__COPY_KINDS(CLMEM__CXX_KIND_NAME)
                  "or a host pointer (see the DISPATCH TABLE in clmem.h)");
    static_assert(kd != k_const_host, "clmem_enqueue_copy: the destination host pointer points to const");
    static_assert(kd == k_other || ks == k_other || kd == k_const_host || copy_ok<kd, ks>::value, CLMEM__COPY_REFUSAL);
    return copy_dispatch(std::integral_constant<bool, copy_ok<kd, ks>::value>(), q, static_cast<D>(handle(dst)),
                         static_cast<S>(handle(src)), o);
}

/* ---- enqueue_fill ---- */
#define CLMEM__CXX_FILL_TARGET(T, name) \
    inline clmem__fill_target fill_target(T dst) { return clmem__fill_target_##name(dst); }
CLMEM__FILL_TARGETS(CLMEM__CXX_FILL_TARGET)
#undef CLMEM__CXX_FILL_TARGET
template <class H> inline clmem__fill_target fill_target(const unique<H> &u) { return fill_target(u.get()); }
#define CLMEM__CXX_FILL(T, name)                                                                                  \
    inline cl_int fill_pattern(cl_command_queue q, clmem__fill_target t, T p, size_t n, const clmem_fill_options *o) { \
        return clmem__fill_##name(q, t, p, n, o);                                                                  \
    }                                                                                                              \
    inline cl_int set_arg(cl_kernel k, cl_uint i, T v) { return clmem__set_arg_##name(k, i, v); }
CLMEM__PATTERN_TYPES(CLMEM__CXX_FILL)
#undef CLMEM__CXX_FILL
template <class T>
inline cl_int fill_pattern(cl_command_queue q, clmem__fill_target t, T *p, size_t n, const clmem_fill_options *o) {
    return clmem__fill_ptr(q, t, p, n, o);
}
template <class T> struct always_false {
    static const bool value = false;
};
template <class T>
inline cl_int fill_pattern(cl_command_queue, clmem__fill_target, T, size_t, const clmem_fill_options *) {
    static_assert(always_false<T>::value,
                  "clmem_enqueue_fill: the pattern must be a scalar or OpenCL vector value (char ... double, "
                  "cl_float4, ...) or a pointer with .pattern_size");
    return CL_INVALID_VALUE;
}
template <class D, class P>
inline cl_int fill(cl_command_queue q, const D &dst, P pattern, size_t size, const clmem_fill_options *o) {
    return fill_pattern(q, fill_target(dst), pattern, size, o);
}

/* ---- kernel arguments ---- */
#define CLMEM__CXX_KIND_ARG(T, name, ARG, arg, text) \
    inline cl_int set_arg(cl_kernel k, cl_uint i, T v) { return clmem__set_arg_##name(k, i, v); }
CLMEM__KINDS(CLMEM__KIND_IF_ARG, CLMEM__CXX_KIND_ARG)
#undef CLMEM__CXX_KIND_ARG
#define CLMEM__CXX_WIDE_ARG(T, name, n) \
    inline cl_int set_arg(cl_kernel k, cl_uint i, const T &v) { return clmem__set_arg_vector(k, i, v.s, sizeof v, n); }
CLMEM__WIDE_VECTOR_TYPES(CLMEM__CXX_WIDE_ARG)
#undef CLMEM__CXX_WIDE_ARG
template <class H> inline cl_int set_arg(cl_kernel k, cl_uint i, const unique<H> &u) { return set_arg(k, i, u.get()); }
template <class T> inline cl_int set_arg(cl_kernel, cl_uint, T) {
    static_assert(always_false<T>::value,
                  "clmem_set_kernel_arg: the value must be a clmem handle (buffer, image, sampler, pipe, svm, usm), a "
                  "cl_mem, clmem_local_memory(size) or a scalar/vector value whose type gives its size");
    return CL_INVALID_ARG_VALUE;
}

/* ---- image_from_array and fill_image: the element and color types ---- */
template <class T> struct array_traits {
    static const cl_channel_type type = 0;
    static const cl_uint width = 0;
};
#define CLMEM__CXX_ARRAY(T, ct, n)                         \
    template <> struct array_traits<T> {                  \
        static const cl_channel_type type = ct;           \
        static const cl_uint width = n;                   \
    };                                                     \
    template <> struct array_traits<const T> : array_traits<T> {};
CLMEM__ARRAY_TYPES(CLMEM__CXX_ARRAY)
#undef CLMEM__CXX_ARRAY
inline clmem_image create_image(cl_context c, cl_mem_flags f, clmem_image_format fmt, const clmem_image_options *o,
                                cl_int *errcode_ret) {
    cl_int e = CL_SUCCESS;
    clmem_image img = clmem_create_image_opts(c, f, fmt, &e, o);
    return ctor_ret(img, e, errcode_ret);
}
template <class T>
inline clmem_image image_from_array(cl_context c, T *array, size_t ndim, const size_t *shape,
                                    const clmem_image_from_array_options *o, cl_int *errcode_ret) {
    static_assert(array_traits<T>::width != 0,
                  "clmem_image_from_array: the element type must be float, int8_t ... uint32_t, or a 2- or 4-vector "
                  "of them (cl_float4, cl_uchar4, ...)");
    cl_int e = CL_SUCCESS;
    clmem_image img = clmem_image_from_array_opts(c, array, array_traits<T>::type, array_traits<T>::width, ndim, shape,
                                                  &e, o);
    return ctor_ret(img, e, errcode_ret);
}
inline clmem_svm_array svm_empty(cl_context c, cl_svm_mem_flags f, size_t itemsize, const char *dtype,
                                 cl_int *errcode_ret, const clmem_svm_empty_options *o) {
    cl_int e = CL_SUCCESS;
    clmem_svm_array a = clmem_svm_empty_opts(c, f, itemsize, dtype, &e, o);
    return ctor_ret(a, e, errcode_ret);
}
inline clmem_svm_array svm_empty_like(cl_context c, cl_svm_mem_flags f, const clmem_svm_array *like,
                                      cl_int *errcode_ret, const clmem_svm_empty_options *o) {
    cl_int e = CL_SUCCESS;
    clmem_svm_array a = clmem_svm_empty_like_opts(c, f, like, &e, o);
    return ctor_ret(a, e, errcode_ret);
}
/* 0.1.0's svm_empty(ctx, flags, T, &arr, ...) filled arr: refused with the new form */
template <class D = void>
inline clmem_svm_array svm_empty(cl_context, cl_svm_mem_flags, size_t, const char *, clmem_svm_array *,
                                 const clmem_svm_empty_options *) {
    static_assert(std::is_same<D, clmem_svm_array>::value, "clmem 0.2.0: the svm_empty family returns the array and takes cl_int "
                                      "*errcode_ret where it took the array: clmem_svm_array a = "
                                      "clmem_fsvm_empty(ctx, float, &err, ...)");
    return clmem_svm_array();
}
template <class D = void>
inline clmem_svm_array svm_empty_like(cl_context, cl_svm_mem_flags, const clmem_svm_array *, clmem_svm_array *,
                                      const clmem_svm_empty_options *) {
    static_assert(std::is_same<D, clmem_svm_array>::value, "clmem 0.2.0: the svm_empty family returns the array and takes cl_int "
                                      "*errcode_ret where it took the array: clmem_svm_array a = "
                                      "clmem_fsvm_empty_like(ctx, &like, &err, ...)");
    return clmem_svm_array();
}
/* clmem_stager_copy: the two directions; anything else does not compile */
inline cl_int stager_pair(clmem_stager *st, clmem_buffer d, const void *s, const clmem_stager_copy_options *o) {
    return clmem__stager_write_fn(st, d, s, o);
}
inline cl_int stager_pair(clmem_stager *st, void *d, clmem_buffer s, const clmem_stager_copy_options *o) {
    return clmem__stager_read_fn(st, d, s, o);
}
template <class D, class S>
inline cl_int stager_dispatch(std::true_type, clmem_stager *st, const D &d, const S &s, const clmem_stager_copy_options *o) {
    return stager_pair(st, d, s, o);
}
template <class D, class S>
inline cl_int stager_dispatch(std::false_type, clmem_stager *, const D &, const S &, const clmem_stager_copy_options *) {
    return CL_INVALID_VALUE; /* never runs: the static_assert stops the build */
}
template <class D0, class S0>
inline cl_int stager_copy(clmem_stager *st, D0 &&dst, S0 &&src, const clmem_stager_copy_options *o) {
    typedef typename unwrap<typename std::decay<D0>::type>::type D;
    typedef typename unwrap<typename std::decay<S0>::type>::type S;
    static const int kd = kind_of<D>::value, ks = kind_of<S>::value;
    static const bool ok = (kd == k_buffer && (ks == k_host || ks == k_const_host)) || (kd == k_host && ks == k_buffer);
    static_assert(ok, "clmem_stager_copy: a stager copies between a clmem_buffer and host memory only "
                      "(host -> buffer or buffer -> host)");
    return stager_dispatch(std::integral_constant<bool, ok>(), st, static_cast<D>(handle(dst)),
                           static_cast<S>(handle(src)), o);
}
inline clmem_color_kind color_kind(const float *) { return CLMEM_COLOR_FLOAT; }
inline clmem_color_kind color_kind(const cl_int *) { return CLMEM_COLOR_INT; }
inline clmem_color_kind color_kind(const cl_uint *) { return CLMEM_COLOR_UINT; }

/* ---- release ---- */
#define CLMEM__CXX_RELEASE(T, fn, live_field)                                      \
    inline bool live(const T &h) { return h.live_field != 0; }                        \
    inline cl_int release(T *h) { return fn(h); }
CLMEM__HANDLES(CLMEM__CXX_RELEASE)
#undef CLMEM__CXX_RELEASE
} // namespace detail

/** clmem::unique<H>: owns one clmem handle and releases it (clmem_release) when
    destroyed, reset or assigned another handle (u = handle); move-only; never throws. get()/operator* give the handle,
    out() empties the owner and gives &handle for calls that fill one in (maps,
    svm_empty), release() gives up ownership. clmem_enqueue_copy, clmem_enqueue_fill,
    clmem_set_kernel_arg, clmem_memory_object_* and the buffer, image and map macros
    accept a unique<H> where they accept H. */
template <class H> class unique {
  public:
    unique() : h_() {}
    explicit unique(const H &h) : h_(h) {}
    unique(unique &&o) noexcept : h_(o.release()) {}
    unique &operator=(unique &&o) noexcept {
        if (this != &o) reset(o.release());
        return *this;
    }
    unique(const unique &) = delete;
    unique &operator=(const unique &) = delete;
    /** u = h: release what is held and own h (as reset(h)); u = u.get() keeps it. */
    unique &operator=(const H &h) noexcept {
        if (&h != &h_) reset(h);
        return *this;
    }
    ~unique() { reset(); }
    const H &get() const noexcept { return h_; }
    H &get() noexcept { return h_; }
    const H &operator*() const noexcept { return h_; }
    H &operator*() noexcept { return h_; }
    const H *operator->() const noexcept { return &h_; }
    H *operator->() noexcept { return &h_; }
    /** out(): release what is held and give the address of the (empty) handle. */
    H *out() noexcept {
        reset();
        return &h_;
    }
    /** release(): stop owning; returns the handle (yours to release). */
    H release() noexcept {
        H h = h_;
        h_ = H();
        return h;
    }
    /** reset(h): release what is held (its result is dropped) and own h instead. */
    void reset(const H &h = H()) noexcept {
        H old = h_;
        h_ = h;
        if (detail::live(old)) (void)detail::release(&old);
    }
    explicit operator bool() const noexcept { return detail::live(h_); }

  private:
    H h_;
};

/** clmem::data<T>(m): the host pointer of a memory map, SVM array or SVM map as T *;
    NULL when the map or array is empty, or when sizeof(T) is not the item size it
    recorded (maps and arrays; an SVM map records none). */
template <class T> inline T *data(const clmem_memory_map &m) {
    return m.ptr && m.itemsize == sizeof(T) ? static_cast<T *>(m.ptr) : NULL;
}
template <class T> inline T *data(const clmem_svm_array &a) {
    return a.svm.ptr && a.itemsize == sizeof(T) ? static_cast<T *>(a.svm.ptr) : NULL;
}
template <class T> inline T *data(const clmem_svm_map &m) { return static_cast<T *>(m.ptr); }
template <class T, class H> inline T *data(const unique<H> &u) { return data<T>(u.get()); }
/** clmem::at<T>(m, {i, j, ...}): the element at that index of a memory map as T *
    (clmem_memory_map_at); NULL when the index is out of range, its length is not
    m.ndim, or sizeof(T) is not m.itemsize. */
template <class T> inline T *at(const clmem_memory_map &m, std::initializer_list<size_t> index) {
    if (index.size() != m.ndim || m.itemsize != sizeof(T)) return NULL;
    return static_cast<T *>(clmem_memory_map_at(&m, index.begin()));
}
} // namespace clmem

/* ---- the C names that C gives to _Generic: C++ overloads ---- */
/** clmem_set_kernel_arg(kernel, index, value): see clmem/kernel_arg.h. */
template <class V> inline cl_int clmem_set_kernel_arg(cl_kernel kernel, cl_uint index, const V &value) {
    return clmem::detail::ret(clmem::detail::set_arg(kernel, index, value));
}
/** clmem_release(&handle): see clmem/memobj.h. */
#define CLMEM__CXX_RELEASE(T, fn, live) \
    inline cl_int clmem_release(T *h) { return clmem::detail::ret(clmem::detail::release(h)); }
CLMEM__HANDLES(CLMEM__CXX_RELEASE)
#undef CLMEM__CXX_RELEASE
/** The generic memory-object functions (clmem/memobj.h) for clmem_buffer,
    clmem_image, clmem_pipe, cl_mem and clmem::unique of the first three. */
template <class M> inline cl_mem clmem_memory_object_int_ptr(const M &obj) { return clmem::detail::mem_of(obj); }
template <class M> inline cl_int clmem_memory_object_get_info(const M &obj, clmem_mem_info *info) {
    return clmem::detail::ret(clmem_mem_get_info(clmem::detail::mem_of(obj), info));
}
/* a stale copy of a pooled buffer handle is refused (CL_INVALID_MEM_OBJECT), as in C */
inline cl_int clmem_memory_object_get_info(const clmem_buffer &obj, clmem_mem_info *info) {
    return clmem::detail::ret(clmem__object_get_info(obj.mem, clmem__buffer_stale(obj), info));
}
template <class M> inline void *clmem_memory_object_get_host_array(const M &obj, size_t nbytes, cl_int *errcode_ret) {
    return clmem_mem_get_host_array(clmem::detail::mem_of(obj), nbytes, errcode_ret);
}
template <class M> inline void *clmem_memory_object_hostbuf(const M &obj) {
    return clmem_mem_hostbuf(clmem::detail::mem_of(obj));
}
template <class A, class B> inline bool clmem_memory_object_equal(const A &a, const B &b) {
    return clmem::detail::mem_of(a) == clmem::detail::mem_of(b);
}
template <class M> inline size_t clmem_memory_object_hash(const M &obj) {
    return clmem_mem_hash(clmem::detail::mem_of(obj));
}
/** clmem_memory_map_at(&m, {i, j, ...}): the C function with a brace list for the
    index (C writes a compound literal there). */
inline void *clmem_memory_map_at(const clmem_memory_map *map, std::initializer_list<size_t> index) {
    return clmem_memory_map_at(map, index.begin());
}

#endif /* __cplusplus */
