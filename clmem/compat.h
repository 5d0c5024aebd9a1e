/* >>compat: the names and forms of an earlier release that changed, still defined for
   one release so that code written for it stops at a compile error naming the new
   spelling (in C and in C++) instead of compiling to something else */
#include "base.h"
#include "memobj.h"
#include "image.h"
#include "svm.h"
#include "map.h"

/* ---------------------------------------------------------------------------------
   OLD SPELLINGS FAIL LOUDLY

   Every public name removed or renamed since 0.1.0 is still defined here, and using
   it is a compile error whose message names what to write instead:
       clmem_memory_object_get_infos(b, &info)
       error: static assertion failed: "clmem 0.2.0: clmem_memory_object_get_infos was
              renamed: write clmem_memory_object_get_info"
   Calls whose form changed without a change of name are refused the same way where
   the old form can be told from the new one:
     clmem_svm_empty(ctx, flags, T, &arr, ...) and its family (csvm, fsvm, _like)
         return the array and take `cl_int *errcode_ret` where they took the array:
         clmem_svm_array arr = clmem_fsvm_empty(ctx, float, &err, .shape = {n});
     clmem_create_image_opts, clmem_image_from_array_opts, clmem_svm_empty_opts,
     clmem_svm_empty_like_opts take `cl_int *errcode_ret` before the options
         (a macro of the function's own name checks the two arguments' types, in C
         with gcc or clang and in C++; the function is still there for pointers)
     CLMEM_WITH_MAP(m, map_call) takes the error variable: CLMEM_WITH_MAP(m, err, map_call)
     clmem_svm_map's field .array is .ptr (.array is still a member, of a struct type
         named clmem_svm_map_array_is_now_ptr, so that any use of it is refused with
         that name in the message)
   What no compiler can catch: CLMEM_NON_BLOCKING was -1 and is 0, and an options
   struct filled by hand meant "default" for every zero field. Such a struct (one not
   made by a macro, a C++ form or an initializer such as CLMEM_COPY_OPTIONS_INIT) is
   refused at run time with CL_INVALID_VALUE, since a zero could mean either (see NAMED
   OPTIONS in clmem/base.h).
   Gone in 0.3.0 (0.2.x patch releases keep it).

   Adding a renamed function or macro is one line in the list below:
       #define old_name(...) CLMEM__RENAMED(old_name, new_name)
   (an object-like name, such as a constant: #define OLD_NAME CLMEM__RENAMED(OLD_NAME, NEW_NAME)).
   A name removed without a successor: #define old_name(...) CLMEM__REMOVED("old_name was removed: <what to do>").
   --------------------------------------------------------------------------------- */

/* CLMEM__REMOVED("text"): an int expression that stops the compiler with "clmem 0.2.0:
   text" (C: a _Static_assert in a struct inside sizeof; C++: a static_assert in a
   lambda). */
#ifdef __cplusplus
#define CLMEM__REMOVED(text) ([]() -> int { static_assert(sizeof(int) == 0, "clmem 0.2.0: " text); return 0; }())
#else
#define CLMEM__REMOVED(text) ((void)sizeof(struct { _Static_assert(0, "clmem 0.2.0: " text); int clmem__x; }), 0)
#endif
#define CLMEM__RENAMED(old_name, new_name) CLMEM__REMOVED(#old_name " was renamed: write " #new_name)

/* ---- renamed and removed names, one line each ---- */
#define clmem_memory_object_get_infos(...) CLMEM__RENAMED(clmem_memory_object_get_infos, clmem_memory_object_get_info)

/* ---- CLMEM_WITH_MAP(m, map_call): the error variable is an argument now ---- */
#define CLMEM__WITH_MAP_0_1(m, map_call)                                                                        \
    for (clmem_memory_map m = CLMEM__ZERO;                                                                      \
         CLMEM__REMOVED("CLMEM_WITH_MAP takes the error variable: write CLMEM_WITH_MAP(m, err, map_call) with " \
                        "cl_int err, and map_call without 'err ='");)

/* ---- errcode_ret before the options; svm_empty returns the array ---- */
#if !defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
/* In C a macro of each function's name picks the function, or, when errcode_ret is not
   a cl_int * (or NULL) or the options are a cl_int *, a function that exists only to
   stop the compiler with its error attribute (gcc, clang) naming the new order. The
   options are the trailing arguments, so that a compound literal's commas pass. */
clmem_image clmem__old_order_image(cl_context, ...) __attribute__((error(
    "clmem 0.2.0: clmem_create_image_opts and clmem_image_from_array_opts take cl_int *errcode_ret before the "
    "options: clmem_create_image_opts(ctx, flags, format, &err, &opts)")));
clmem_svm_array clmem__old_order_svm(cl_context, ...) __attribute__((error(
    "clmem 0.2.0: the svm_empty family returns the array and takes cl_int *errcode_ret where it took the array, "
    "before the options: clmem_svm_array a = clmem_fsvm_empty(ctx, float, &err, .shape = {n}); "
    "a = clmem_svm_empty_opts(ctx, flags, itemsize, dtype, &err, &opts)")));
#define CLMEM__ERRCODE_FIRST(fn, old, e, ...)                                                        \
    _Generic((e), cl_int *: CLMEM__OPTS_NOT_ERRCODE(fn, old, __VA_ARGS__),                          \
                  void *: CLMEM__OPTS_NOT_ERRCODE(fn, old, __VA_ARGS__),                            \
                  int: CLMEM__OPTS_NOT_ERRCODE(fn, old, __VA_ARGS__), default: old)
#define CLMEM__OPTS_NOT_ERRCODE(fn, old, ...) _Generic((__VA_ARGS__), cl_int *: old, default: fn)
#define clmem_create_image_opts(context, flags, format, errcode_ret, ...)                                    \
    CLMEM__ERRCODE_FIRST(clmem_create_image_opts, clmem__old_order_image, errcode_ret, __VA_ARGS__)(          \
        context, flags, format, errcode_ret, __VA_ARGS__)
#define clmem_image_from_array_opts(context, array, element_type, vector_width, ndim, shape, errcode_ret, ...) \
    CLMEM__ERRCODE_FIRST(clmem_image_from_array_opts, clmem__old_order_image, errcode_ret, __VA_ARGS__)(      \
        context, array, element_type, vector_width, ndim, shape, errcode_ret, __VA_ARGS__)
#define clmem_svm_empty_opts(ctx, flags, itemsize, dtype, errcode_ret, ...)                               \
    CLMEM__ERRCODE_FIRST(clmem_svm_empty_opts, clmem__old_order_svm, errcode_ret, __VA_ARGS__)(            \
        ctx, flags, itemsize, dtype, errcode_ret, __VA_ARGS__)
#define clmem_svm_empty_like_opts(ctx, flags, like, errcode_ret, ...)                                     \
    CLMEM__ERRCODE_FIRST(clmem_svm_empty_like_opts, clmem__old_order_svm, errcode_ret, __VA_ARGS__)(       \
        ctx, flags, like, errcode_ret, __VA_ARGS__)
#elif defined(__cplusplus)
/* In C++ the same macros check the two arguments' types with a static_assert (the
   function itself stays one function, so &clmem_create_image_opts still works). */
#include <cstddef>
#include <type_traits>
namespace clmem {
namespace detail {
template <class E, class O> struct errcode_first {
    typedef typename std::remove_cv<typename std::remove_reference<E>::type>::type e;
    typedef typename std::remove_cv<typename std::remove_reference<O>::type>::type o;
    static const bool value = (std::is_same<e, cl_int *>::value || std::is_integral<e>::value ||
                               std::is_same<e, std::nullptr_t>::value) &&
                              !std::is_same<o, cl_int *>::value;
};
template <class E, class O> inline void old_order_image() {
    static_assert(errcode_first<E, O>::value,
                  "clmem 0.2.0: clmem_create_image_opts and clmem_image_from_array_opts take cl_int *errcode_ret "
                  "before the options: clmem_create_image_opts(ctx, flags, format, &err, &opts)");
}
template <class E, class O> inline void old_order_svm() {
    static_assert(errcode_first<E, O>::value,
                  "clmem 0.2.0: the svm_empty family returns the array and takes cl_int *errcode_ret where it took "
                  "the array, before the options: clmem_svm_array a = clmem_svm_empty_opts(ctx, flags, itemsize, "
                  "dtype, &err, &opts)");
}
} // namespace detail
} // namespace clmem
#define CLMEM__ERRCODE_FIRST(kind, e, ...) clmem::detail::old_order_##kind<decltype((e)), decltype((__VA_ARGS__))>()
#define clmem_create_image_opts(context, flags, format, errcode_ret, ...)     \
    (CLMEM__ERRCODE_FIRST(image, errcode_ret, __VA_ARGS__),                  \
     clmem_create_image_opts(context, flags, format, errcode_ret, __VA_ARGS__))
#define clmem_image_from_array_opts(context, array, element_type, vector_width, ndim, shape, errcode_ret, ...) \
    (CLMEM__ERRCODE_FIRST(image, errcode_ret, __VA_ARGS__),                                                    \
     clmem_image_from_array_opts(context, array, element_type, vector_width, ndim, shape, errcode_ret, __VA_ARGS__))
#define clmem_svm_empty_opts(ctx, flags, itemsize, dtype, errcode_ret, ...) \
    (CLMEM__ERRCODE_FIRST(svm, errcode_ret, __VA_ARGS__),                  \
     clmem_svm_empty_opts(ctx, flags, itemsize, dtype, errcode_ret, __VA_ARGS__))
#define clmem_svm_empty_like_opts(ctx, flags, like, errcode_ret, ...) \
    (CLMEM__ERRCODE_FIRST(svm, errcode_ret, __VA_ARGS__),            \
     clmem_svm_empty_like_opts(ctx, flags, like, errcode_ret, __VA_ARGS__))
#endif
