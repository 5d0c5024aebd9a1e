/* multidev on CPU sub-devices: each device CLMEM_TEST selects that can be partitioned
   (CL_DEVICE_PARTITION_EQUALLY) is split into sub-devices of half its compute units,
   and the first two of them make one context on which the cases of
   tests/multidev_cases.h run. Devices that cannot be partitioned (GPUs, a CPU with
   one compute unit) are reported and left out; when none can, the test is skipped. */
#include "multidev_shim.h"
#define CLMEM_IMPLEMENTATION
#include "clmem.h"
#include "common.h"
#include "multidev_cases.h"

/* partition_in_two(dev, sub, why): two sub-devices of dev, or false with the reason. */
static bool partition_in_two(cl_device_id dev, cl_device_id sub[2], char *why, size_t whysize) {
    cl_device_partition_property have[8] = {0}, props[3];
    cl_device_id all[64];
    cl_uint cu = 0, nsub = 0, i;
    size_t size = 0, k;
    bool equally = false;
    cl_int err;
    if (device_version(dev) < 120) {
        snprintf(why, whysize, "OpenCL before 1.2 has no sub-devices");
        return false;
    }
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_PARTITION_PROPERTIES, sizeof have, have, &size);
    for (k = 0; k < size / sizeof have[0] && k < 8; ++k) equally = equally || have[k] == CL_DEVICE_PARTITION_EQUALLY;
    if (!equally) {
        snprintf(why, whysize, "CL_DEVICE_PARTITION_PROPERTIES lacks CL_DEVICE_PARTITION_EQUALLY");
        return false;
    }
    if (cu < 2) {
        snprintf(why, whysize, "%u compute unit(s): nothing to split", cu);
        return false;
    }
    props[0] = CL_DEVICE_PARTITION_EQUALLY;
    props[1] = (cl_device_partition_property)(cu / 2);
    props[2] = 0;
    err = clCreateSubDevices(dev, props, 64, all, &nsub);
    if (err != CL_SUCCESS || nsub < 2) {
        snprintf(why, whysize, "clCreateSubDevices(EQUALLY, %u) gave %s and %u sub-devices", cu / 2,
                 clmem_error_string(err), nsub);
        for (i = 0; err == CL_SUCCESS && i < nsub && i < 64; ++i) clReleaseDevice(all[i]);
        return false;
    }
    sub[0] = all[0];
    sub[1] = all[1];
    for (i = 2; i < nsub && i < 64; ++i) clReleaseDevice(all[i]);
    return true;
}

int main(int argc, char **argv) {
    clmem_test_device sel[64], devs[64];
    size_t nsel = 0, n = 0, i, j;
    int rc;
    if (clmem_get_test_platforms_and_devices(NULL, sel, 64, &nsel) != CL_SUCCESS) {
        printf("multidev_subdevices: cannot select devices: %s\n", clmem_last_error_message());
        return 1;
    }
    if (nsel > 64) nsel = 64;
    for (i = 0; i < nsel; ++i) {
        cl_device_id sub[2];
        char why[200], name[128];
        bool seen = false;
        for (j = 0; j < i; ++j) seen = seen || sel[j].device == sel[i].device;
        if (seen) continue; /* a device in several selected contexts: partition it once */
        device_name(sel[i].device, name, sizeof name);
        if (!partition_in_two(sel[i].device, sub, why, sizeof why)) {
            printf("multidev_subdevices: '%s' left out: %s\n", name, why);
            continue;
        }
        for (j = 0; j < 2; ++j) {
            devs[n].platform = sel[i].platform;
            devs[n].device = sub[j];
            devs[n].group = i;
            ++n;
        }
    }
    if (n == 0) {
        printf("skip: no selected device can be partitioned into 2 sub-devices\n");
        return 77;
    }
    rc = clmem_test_main_on(multidev_cases, MULTIDEV_NCASES, argc, argv, devs, n);
    for (i = 0; i < n; ++i) clReleaseDevice(devs[i].device);
    return rc;
}
