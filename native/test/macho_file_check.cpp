// Runs tfjni's Mach-O reader (src/macho_file.cpp) on files whose answers are known, on Linux:
// scripts/platforms/check-macos-arm64.sh builds it for aarch64 Linux (so the reader looks for arm64, as on
// an Apple-silicon Mac) and runs it under qemu-user. Arguments: triples of
// PATH IS_SHARED_OBJECT(0|1) DEFINES_PyInit_(0|1); exits 1 on the first wrong answer.
#include <cstdio>
#include <cstring>
#include <string>

#include "tfjni/macho_file.h"

int main(int argc, char** argv) {
  if (argc < 4 || (argc - 1) % 3 != 0) {
    std::fprintf(stderr, "usage: %s (PATH IS_SHARED_OBJECT DEFINES_PyInit_)...\n", argv[0]);
    return 2;
  }
  int wrong = 0;
  for (int i = 1; i + 2 < argc; i += 3) {
    std::string path = argv[i];
    bool shared = tfjni::macho::is_shared_object(path);
    bool python = tfjni::macho::defines_symbol_with_prefix(path, "PyInit_");
    bool expected_shared = std::strcmp(argv[i + 1], "1") == 0;
    bool expected_python = std::strcmp(argv[i + 2], "1") == 0;
    bool right = shared == expected_shared && python == expected_python;
    std::printf("%s %s: shared object %d (expected %d), PyInit_ %d (expected %d)\n", right ? "ok   " : "WRONG",
                path.c_str(), shared, expected_shared, python, expected_python);
    wrong += right ? 0 : 1;
  }
  return wrong == 0 ? 0 : 1;
}
