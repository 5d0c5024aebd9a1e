# bench/device_env.sh - sourced by the scripts that run prebuilt binaries on a GPU
# machine (bench/device_suite.sh, bench/multidev_bench.sh), with $dir the folder of
# the binaries. Without /etc/OpenCL/vendors/nvidia.icd and OCL_ICD_VENDORS it makes a
# vendors folder holding nvidia.icd (libnvidia-opencl.so.1) and a copy of pocl.icd
# (DESIGN.md); without a system ICD loader it uses $dir/libOpenCL.so.1 when there is one.
if [ -z "${OCL_ICD_VENDORS:-}" ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
    v=$(mktemp -d)
    echo libnvidia-opencl.so.1 > "$v/nvidia.icd"
    [ -e /etc/OpenCL/vendors/pocl.icd ] && cp /etc/OpenCL/vendors/pocl.icd "$v/"
    export OCL_ICD_VENDORS="$v"
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libOpenCL.so.1 ' && [ -e "$dir/libOpenCL.so.1" ]; then
    export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
