/* tests/capture_log.h - clmem's log into a buffer, for tests that check the warnings:
   clmem_set_log_callback(capture_log, NULL), then read g_log and g_warnings. */
#ifndef CLMEM_TESTS_CAPTURE_LOG_H
#define CLMEM_TESTS_CAPTURE_LOG_H
#include <stdio.h>
#include <string.h>

static char g_log[8192];
static int g_warnings;
static void capture_log(clmem_log_level level, cl_int code, const char *message, void *user) {
    size_t used = strlen(g_log);
    (void)code;
    (void)user;
    if (level == CLMEM_LOG_WARNING) ++g_warnings;
    snprintf(g_log + used, sizeof g_log - used, "%s\n", message);
}
#endif
