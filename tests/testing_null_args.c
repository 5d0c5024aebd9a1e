/* NULL where a pointer is asked for, in the functions without an error code to return:
   clmem_image_shape (NULL shape: the count only), clmem_image_extent (NULL ext: a
   message), clmem_test_skip / clmem_test_fail (NULL context or format), and the runner
   given a NULL or zeroed case table (a failed run, not a crash). */
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"

/* a handle as clmem_create_image makes it, without a driver: shape and extent read only
   the handle */
static clmem_image fake_image(cl_mem_object_type type, size_t w, size_t h, size_t d, size_t n) {
    static int storage;
    clmem_image img;
    memset(&img, 0, sizeof img);
    img.mem = (cl_mem)(void *)&storage;
    img.type = type;
    img.width = w;
    img.height = h;
    img.depth = d;
    img.array_size = n;
    return img;
}

static void test_image_shape_null(clmem_test_context *t) {
    clmem_image empty;
    size_t s[3] = {9, 9, 9};
    memset(&empty, 0, sizeof empty);
    CLMEM_CHECK_EQ(t, clmem_image_shape(fake_image(CL_MEM_OBJECT_IMAGE2D, 4, 3, 0, 0), NULL), 2);
    CLMEM_CHECK_EQ(t, clmem_image_shape(fake_image(CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 0), NULL), 3);
    CLMEM_CHECK_EQ(t, clmem_image_shape(fake_image(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 5), NULL), 2);
    CLMEM_CHECK_EQ(t, clmem_image_shape(empty, NULL), 0);
    /* with an array: as before */
    CLMEM_CHECK_EQ(t, clmem_image_shape(fake_image(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 3, 0, 5), s), 3);
    CLMEM_CHECK_EQ(t, s[0], 4);
    CLMEM_CHECK_EQ(t, s[1], 3);
    CLMEM_CHECK_EQ(t, s[2], 5);
}

static void test_image_extent_null(clmem_test_context *t) {
    size_t e[3] = {9, 9, 9};
    clmem_clear_error();
    clmem_image_extent(fake_image(CL_MEM_OBJECT_IMAGE2D, 4, 3, 0, 0), NULL);
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_image_extent: ext") != NULL);
    clmem_image_extent(fake_image(CL_MEM_OBJECT_IMAGE1D, 4, 0, 0, 0), e);
    CLMEM_CHECK_EQ(t, e[0], 4);
    CLMEM_CHECK_EQ(t, e[1], 1);
    CLMEM_CHECK_EQ(t, e[2], 1);
}

static void test_skip_fail_null(clmem_test_context *t) {
    clmem_test_context other;
    const char *no_format = NULL;
    /* through pointers without the printf attribute: the compilers refuse a NULL format */
    void (*skip)(clmem_test_context *, const char *, ...) = clmem_test_skip;
    void (*fail)(clmem_test_context *, const char *, int, const char *, ...) = clmem_test_fail;
    memset(&other, 0, sizeof other);
    clmem_clear_error();
    clmem_test_skip(NULL, "%s", "nothing to skip");
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_test_skip: t ") != NULL);
    clmem_clear_error();
    clmem_test_fail(NULL, NULL, 1, "%s", "(expected: a failure printed for no case)");
    CLMEM_CHECK(t, strstr(clmem_last_error_message(), "clmem_test_fail: t ") != NULL);
    skip(&other, no_format);
    CLMEM_CHECK(t, strcmp(other.skip_reason, "skipped") == 0);
    fail(&other, "here.c", 2, no_format);
    CLMEM_CHECK_EQ(t, other.failed, 1);
}

static void nothing(clmem_test_context *t) { (void)t; }

static void test_main_zeroed_table(clmem_test_context *t) {
    clmem_test_case zeroed[2], named[1];
    char arg0[] = "prog", arg1[] = "x";
    char *argv[] = {arg0, arg1, NULL};
    memset(zeroed, 0, sizeof zeroed);
    memset(named, 0, sizeof named);
    named[0].name = "no_function";
    named[0].no_device = true;
    printf("  (a nested runner follows: its FAIL lines are expected)\n");
    CLMEM_CHECK_EQ(t, clmem_test_main_on(zeroed, 2, 1, argv, NULL, 0), 1);
    CLMEM_CHECK_EQ(t, clmem_test_main_on(zeroed, 2, 2, argv, NULL, 0), 1); /* with a filter */
    CLMEM_CHECK_EQ(t, clmem_test_main_on(named, 1, 1, argv, NULL, 0), 1);
    CLMEM_CHECK_EQ(t, clmem_test_main_on(NULL, 3, 1, argv, NULL, 0), 1);
    CLMEM_CHECK_EQ(t, clmem_test_main(NULL, 3, 1, argv), 1);
    CLMEM_CHECK_EQ(t, clmem_test_main_on(NULL, 0, 5, NULL, NULL, 0), 77); /* nothing to run: all (none) skipped */
    named[0].fn = nothing;
    CLMEM_CHECK_EQ(t, clmem_test_main_on(named, 1, 2, NULL, NULL, 0), 0); /* argc 2 but argv NULL: no filter */
}

static const clmem_test_case cases[] = {
    {"image_shape_null", test_image_shape_null, true},
    {"image_extent_null", test_image_extent_null, true},
    {"skip_fail_null", test_skip_fail_null, true},
    {"main_zeroed_table", test_main_zeroed_table, true},
};
int main(int argc, char **argv) { return clmem_test_main(cases, sizeof cases / sizeof cases[0], argc, argv); }
