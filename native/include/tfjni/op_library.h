// Custom op libraries (TF_LoadLibrary): shared libraries that register ops and kernels a
// SavedModel may need beyond libtensorflow's own, e.g. TensorFlow Text's tokenizers.
//
// A loaded library stays loaded for the life of the process: TensorFlow keeps the ops and
// kernels it registered and offers no way to unregister them, so unloading the code would leave
// the registry pointing into unmapped memory. Loading is idempotent (one registry entry per
// canonical path) and thread-safe (one mutex serialises loads).
#pragma once

#include <string>
#include <vector>

namespace tfjni {

struct OpLibrary {
  std::string path;                   // canonical (symbolic links resolved)
  std::vector<std::string> op_names;  // the ops the library registered, in its order
};

// Loads one op library. Throws Error with a message naming the file: NOT_FOUND (no such file),
// INVALID_ARGUMENT (a directory, not a shared library, a Python extension module),
// FAILED_PRECONDITION (built for another TensorFlow version: refused before loading when its
// Python package declares a TensorFlow requirement this TensorFlow does not meet, or when the
// dynamic linker finds a symbol missing). Loading the same file again returns the first result.
OpLibrary load_op_library(const std::string& path);

// The op libraries loaded through tfjni so far, by canonical path.
std::vector<OpLibrary> loaded_op_libraries();

// Loads every op library (*.so, Python extension modules left out) under a directory, e.g. an
// installed Python package such as site-packages/tensorflow_text, in path order. A library
// whose load fails because of a missing symbol is retried after the others (it may need one of
// them); the first error that remains is thrown. NOT_FOUND if the directory holds no library.
std::vector<OpLibrary> load_op_libraries_of(const std::string& directory);

}  // namespace tfjni
