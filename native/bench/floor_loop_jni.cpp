// The C API floor inside a JVM, for io.tfjni.bench.FloorLoop: the paired
// benchmark (io.tfjni.bench.PairedCallerBench) alternates it with tfjni's fast
// path on the same threads of one process, so that the machine's drift hits
// both alike. Every call is floor_call(), as in model_floor_bench, in a C++ loop
// on the calling thread. This library carries no search path and binds to
// libtensorflow by soname: loaded after tfjni, it uses the copy tfjni loaded
// (FloorLoop checks /proc/self/maps for that).
#include <jni.h>
#include <tensorflow/c/c_api.h>

#include <time.h>

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_manifest.h"
#include "c_api_model.h"
#include "floor_call.h"

namespace floor_bench {
namespace {

// The case (CApiModel keeps a reference to it) and its session, shared by every caller thread.
struct FloorModel {
  FloorModel(BenchCase c, int intra_op_threads, int inter_op_threads)
      : bench_case(std::move(c)), model(bench_case, intra_op_threads, inter_op_threads) {}

  const BenchCase bench_case;
  const CApiModel model;
};

// What one caller thread owns, as each thread of model_floor_bench does: its input, the
// buffer it copies outputs into, its status.
struct FloorThread {
  explicit FloorThread(const FloorModel& m)
      : model(m.model), input(m.model.make_input()), output(m.bench_case.expected.size()) {}

  const CApiModel& model;
  TensorPtr input;
  std::vector<float> output;
  StatusPtr status{TF_NewStatus()};
  std::vector<jlong> latencies_ns;  // filled by a recording run, then copied to Java once
};

// steady_clock is CLOCK_MONOTONIC, the clock of the JVM's System.nanoTime(): both
// contenders read the same clock the same number of times per call.
using Clock = std::chrono::steady_clock;

jlong elapsed_ns(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count();
}

void throw_java(JNIEnv* env, const char* class_name, const std::string& message) {
  jclass type = env->FindClass(class_name);
  if (type != nullptr) env->ThrowNew(type, message.c_str());
}

void throw_failed_run(JNIEnv* env, const FloorThread& t) {
  throw_java(env, "java/lang/IllegalStateException",
             "C API floor: TF_SessionRun failed with code " + std::to_string(TF_GetCode(t.status.get())) + ": " +
                 TF_Message(t.status.get()));
}

std::string utf8(JNIEnv* env, jstring s) {
  const char* chars = env->GetStringUTFChars(s, nullptr);
  std::string text(chars == nullptr ? "" : chars);
  if (chars != nullptr) env->ReleaseStringUTFChars(s, chars);
  return text;
}

}  // namespace
}  // namespace floor_bench

using floor_bench::FloorModel;
using floor_bench::FloorThread;

extern "C" {

JNIEXPORT jstring JNICALL Java_io_tfjni_bench_FloorLoop_tensorFlowVersion(JNIEnv* env, jclass) {
  return env->NewStringUTF(TF_Version());
}

// The CPU time of every thread of the process, in ns (the JVM's own process CPU time counts
// clock ticks of 10 ms, too coarse for a slice).
JNIEXPORT jlong JNICALL Java_io_tfjni_bench_FloorLoop_processCpuNanos(JNIEnv*, jclass) {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<jlong>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

JNIEXPORT jlong JNICALL Java_io_tfjni_bench_FloorLoop_openModel(JNIEnv* env, jclass, jstring models,
                                                                 jstring case_name, jint intra_op_threads,
                                                                 jint inter_op_threads) {
  try {
    const std::vector<floor_bench::BenchCase> cases = floor_bench::read_manifest(floor_bench::utf8(env, models));
    auto model = std::make_unique<FloorModel>(floor_bench::find_case(cases, floor_bench::utf8(env, case_name)),
                                              intra_op_threads, inter_op_threads);
    return reinterpret_cast<jlong>(model.release());
  } catch (const std::exception& e) {
    floor_bench::throw_java(env, "java/lang/IllegalStateException", std::string("C API floor: ") + e.what());
    return 0;
  }
}

JNIEXPORT void JNICALL Java_io_tfjni_bench_FloorLoop_closeModel(JNIEnv*, jclass, jlong model) {
  delete reinterpret_cast<FloorModel*>(model);
}

JNIEXPORT jlong JNICALL Java_io_tfjni_bench_FloorLoop_openThread(JNIEnv* env, jclass, jlong model) {
  try {
    return reinterpret_cast<jlong>(new FloorThread(*reinterpret_cast<FloorModel*>(model)));
  } catch (const std::exception& e) {
    floor_bench::throw_java(env, "java/lang/IllegalStateException", std::string("C API floor: ") + e.what());
    return 0;
  }
}

JNIEXPORT void JNICALL Java_io_tfjni_bench_FloorLoop_closeThread(JNIEnv*, jclass, jlong thread) {
  delete reinterpret_cast<FloorThread*>(thread);
}

// One call; the output is copied into `into` (of the output's length) for the output check.
JNIEXPORT void JNICALL Java_io_tfjni_bench_FloorLoop_callOnce(JNIEnv* env, jclass, jlong thread, jfloatArray into) {
  FloorThread& t = *reinterpret_cast<FloorThread*>(thread);
  if (static_cast<size_t>(env->GetArrayLength(into)) != t.output.size()) {
    floor_bench::throw_java(env, "java/lang/IllegalArgumentException",
                            "C API floor: the output has " + std::to_string(t.output.size()) + " values");
    return;
  }
  if (!floor_bench::floor_call(t.model, t.input.get(), t.output, t.status.get())) {
    floor_bench::throw_failed_run(env, t);
    return;
  }
  env->SetFloatArrayRegion(into, 0, static_cast<jsize>(t.output.size()), t.output.data());
}

// Calls until `duration_ns` has passed (checked after each call); with `latencies`, also
// times each call into it and stops early when it is full. Returns the number of calls.
// The Java side of the pair (PairedCallerBench's fast-path loop) is written the same way.
JNIEXPORT jlong JNICALL Java_io_tfjni_bench_FloorLoop_run(JNIEnv* env, jclass, jlong thread, jlong duration_ns,
                                                          jlongArray latencies) {
  FloorThread& t = *reinterpret_cast<FloorThread*>(thread);
  TF_Tensor* const input = t.input.get();
  const floor_bench::Clock::time_point deadline = floor_bench::Clock::now() + std::chrono::nanoseconds(duration_ns);
  jlong calls = 0;
  if (latencies == nullptr) {
    do {
      if (!floor_bench::floor_call(t.model, input, t.output, t.status.get())) {
        floor_bench::throw_failed_run(env, t);
        return calls;
      }
      ++calls;
    } while (floor_bench::Clock::now() < deadline);
    return calls;
  }
  const jsize capacity = env->GetArrayLength(latencies);
  if (capacity == 0) {
    floor_bench::throw_java(env, "java/lang/IllegalArgumentException", "C API floor: no room for latencies");
    return 0;
  }
  t.latencies_ns.resize(static_cast<size_t>(capacity));
  floor_bench::Clock::time_point end;
  do {
    const floor_bench::Clock::time_point start = floor_bench::Clock::now();
    if (!floor_bench::floor_call(t.model, input, t.output, t.status.get())) {
      floor_bench::throw_failed_run(env, t);
      return calls;
    }
    end = floor_bench::Clock::now();
    t.latencies_ns[static_cast<size_t>(calls++)] = floor_bench::elapsed_ns(start, end);
  } while (end < deadline && calls < capacity);
  env->SetLongArrayRegion(latencies, 0, static_cast<jsize>(calls), t.latencies_ns.data());
  return calls;
}

}  // extern "C"
