/* tests/fuzz/replay.c - main() for a fuzz target built without libFuzzer: runs every
   file of the corpus directories (or single files) given on the command line through
   LLVMFuzzerTestOneInput, prints how many ran, and fails if none did. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc(n > 0 ? (size_t)n : 1);
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
        fclose(f);
        free(buf);
        return 0;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)(n > 0 ? n : 0));
    free(buf);
    return 1;
}

int main(int argc, char **argv) {
    int i, count = 0;
    for (i = 1; i < argc; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
            return 1;
        }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            char path[4096];
            while (d && (e = readdir(d)) != NULL) {
                if (e->d_name[0] == '.') continue;
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                count += run_file(path);
            }
            if (d) closedir(d);
        } else {
            count += run_file(argv[i]);
        }
    }
    printf("replay: %d inputs, all agree with the model\n", count);
    return count > 0 ? 0 : 1;
}
