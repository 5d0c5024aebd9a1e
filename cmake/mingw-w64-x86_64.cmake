# cmake/mingw-w64-x86_64.cmake - cross-build clmem's suite for 64-bit Windows with
# Debian's mingw-w64 (gcc-mingw-w64-x86-64, g++-mingw-w64-x86-64; their -posix compilers,
# whose C++ library has std::thread, which C++ tests use) and run it under Wine:
#   cmake -S . -B build/wine -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DOpenCL_INCLUDE_DIR=<dir holding CL/cl.h> -DOpenCL_LIBRARY=<libOpenCL.dll.a>
# tools/wine makes the include folder (the Khronos headers without the host's other
# headers) and the import library (from cmake/OpenCL.def), and runs the suite.
# CLMEM_WINE_EXEC: the program that runs a .exe (tools/wine-exec: wine64 in a prefix of
# the build's own); CTest runs every test through it.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# mingw-w64's C99 printf: clmem's messages use %zu and %llu (msvcrt's printf lacks them).
set(CMAKE_C_FLAGS_INIT "-D__USE_MINGW_ANSI_STDIO=1")
set(CMAKE_CXX_FLAGS_INIT "-D__USE_MINGW_ANSI_STDIO=1")
# Static libgcc and libstdc++: the .exe files run without mingw's DLLs on Wine's path.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libgcc -static-libstdc++ -static")
get_filename_component(_clmem_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(CLMEM_WINE_EXEC "${_clmem_root}/tools/wine-exec" CACHE FILEPATH "runs a Windows program (Wine)")
set(CMAKE_CROSSCOMPILING_EMULATOR "${CLMEM_WINE_EXEC}")
