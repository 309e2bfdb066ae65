// Reads NumPy .npy files holding little-endian float32 arrays (what the benchmark
// model generator writes for inputs and expected outputs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace floor_bench {

struct FloatArray {
  std::vector<int64_t> shape;
  std::vector<float> values;  // C order
};

// Throws std::runtime_error naming the file for anything but a C-order '<f4' array.
FloatArray read_npy_float32(const std::string& path);

}  // namespace floor_bench
