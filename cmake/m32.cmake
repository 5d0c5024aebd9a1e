# cmake/m32.cmake - build clmem's suite for 32-bit x86 Linux with the host's gcc or clang
# (-m32; Debian's gcc-multilib, g++-multilib, libc6-dev-i386 and ocl-icd-libopencl1:i386):
#   cmake -S . -B build/m32-gcc -DCMAKE_TOOLCHAIN_FILE=cmake/m32.cmake \
#         -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
# (tools/m32 does it for gcc and clang). No libatomic is linked: clmem needs none.
set(CMAKE_C_FLAGS_INIT "-m32")
set(CMAKE_CXX_FLAGS_INIT "-m32")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-m32")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-m32")
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
# Debian's i386 ICD loader ships libOpenCL.so.1 only (the .so link is in the amd64 -dev
# package): take it by its full name.
if(NOT OpenCL_LIBRARY AND EXISTS /usr/lib/i386-linux-gnu/libOpenCL.so.1)
  set(OpenCL_LIBRARY /usr/lib/i386-linux-gnu/libOpenCL.so.1 CACHE FILEPATH "32-bit ICD loader")
endif()
