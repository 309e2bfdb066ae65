// What every benchmark program's main() does with a failure: the program's
// name and the error on stderr, exit status 1.
#pragma once

#include <exception>
#include <iostream>

namespace tfjni::bench {

template <typename Run>
int run_reporting_errors(const char* program, int argc, char** argv, Run run) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace tfjni::bench
