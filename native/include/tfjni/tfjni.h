// The tfjni C++ core: RAII over TensorFlow's C API.
#pragma once

#include "tfjni/device_list.h"
#include "tfjni/dtype.h"
#include "tfjni/error.h"
#include "tfjni/graph.h"
#include "tfjni/live_objects.h"
#include "tfjni/run_options.h"
#include "tfjni/op_library.h"
#include "tfjni/runner.h"
#include "tfjni/saved_model.h"
#include "tfjni/session.h"
#include "tfjni/session_config.h"
#include "tfjni/signature.h"
#include "tfjni/step_stats.h"
#include "tfjni/tensor.h"
