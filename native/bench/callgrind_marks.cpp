// Callgrind's zero and dump client requests for io.tfjni.bench.CallgrindMarks,
// so a Java program can count instructions over exactly the calls it chooses.
// Without valgrind each request is a few no-op instructions.
#include <jni.h>
#include <valgrind/callgrind.h>

extern "C" {

JNIEXPORT void JNICALL Java_io_tfjni_bench_CallgrindMarks_zero(JNIEnv*, jclass) { CALLGRIND_ZERO_STATS; }

JNIEXPORT void JNICALL Java_io_tfjni_bench_CallgrindMarks_dump(JNIEnv*, jclass) {
  CALLGRIND_DUMP_STATS_AT("measured");
}

}  // extern "C"
