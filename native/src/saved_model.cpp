#include "tfjni/saved_model.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfjni/error.h"
#include "tfjni/python_ops.h"
#include "tfjni/utf8_path.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

struct BufferDeleter {
  void operator()(TF_Buffer* b) const noexcept { TF_DeleteBuffer(b); }
};

constexpr uint32_t kMetaGraphGraphDef = 2;
constexpr uint32_t kMetaGraphSaverDef = 3;

// The GraphDef of a serialized MetaGraphDef (empty if it has none).
std::string_view graph_def_of(std::string_view meta_graph_def) {
  wire::Reader reader(meta_graph_def);
  while (reader.next()) {
    if (reader.field() == kMetaGraphGraphDef) return reader.bytes();
  }
  return {};
}

bool has_saver(std::string_view meta_graph_def) {
  wire::Reader reader(meta_graph_def);
  while (reader.next()) {
    if (reader.field() == kMetaGraphSaverDef) return true;
  }
  return false;
}

// TensorFlow loads a model whose variables/ is missing with only a log line,
// and every later use of a variable fails; refuse it at load instead.
void check_variables_present(const std::string& export_dir, std::string_view meta_graph_def) {
  std::filesystem::path index = utf8_path(export_dir) / "variables" / "variables.index";
  std::error_code ec;
  if (has_saver(meta_graph_def) && !std::filesystem::is_regular_file(index, ec)) {
    throw_error(TF_NOT_FOUND, "SavedModel '" + export_dir +
                                  "' has variables to restore but '" + utf8_string(index) +
                                  "' does not exist");
  }
}

// The whole of a file; NOT_FOUND if it cannot be opened, DATA_LOSS if it cannot be read.
std::string read_file(const std::string& path, const std::string& what) {
  std::ifstream file(utf8_path(path), std::ios::binary);
  if (!file) throw_error(TF_NOT_FOUND, "cannot open " + what + " '" + path + "'");
  std::ostringstream bytes;
  bytes << file.rdbuf();
  if (file.bad()) throw_error(TF_DATA_LOSS, "cannot read " + what + " '" + path + "'");
  return bytes.str();
}

// Field numbers of tensorflow.SavedModel, MetaGraphDef and MetaInfoDef (saved_model.proto,
// meta_graph.proto).
constexpr uint32_t kSavedModelMetaGraphs = 2;
constexpr uint32_t kMetaGraphMetaInfoDef = 1;
constexpr uint32_t kMetaInfoDefTags = 4;

// The tag-sets of a saved_model.pb's MetaGraphDefs, in file order; DATA_LOSS if the file is not
// a whole protocol buffer.
std::vector<std::vector<std::string>> tag_sets(std::string_view saved_model) {
  std::vector<std::vector<std::string>> sets;
  wire::Reader model(saved_model);
  while (model.next()) {
    if (model.field() != kSavedModelMetaGraphs) continue;
    std::vector<std::string>& tags = sets.emplace_back();
    wire::Reader meta_graph(model.bytes());
    while (meta_graph.next()) {
      if (meta_graph.field() != kMetaGraphMetaInfoDef) continue;
      wire::Reader info(meta_graph.bytes());
      while (info.next()) {
        if (info.field() == kMetaInfoDefTags) tags.emplace_back(info.bytes());
      }
    }
  }
  return sets;
}

std::string braced(std::span<const std::string> tags) {
  std::string text = "{";
  for (const std::string& tag : tags) text += (text.size() > 1 ? ", " : "") + tag;
  return text + "}";
}

// TensorFlow's errors for a path that is a file, a saved_model.pb that is empty or cut short, or
// tags the model lacks do not name the file or say what the model has. Throws a clearer error
// for those (with TensorFlow's message kept at its end); returns for anything else.
void explain_load_failure(const std::string& export_dir, std::span<const std::string> tags,
                          const Error& tensorflow) {
  std::filesystem::path pb = utf8_path(export_dir) / "saved_model.pb";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(pb, ec)) return;  // missing, or saved_model.pbtxt
  std::string content;
  try {
    content = read_file(utf8_string(pb), "SavedModel file");
  } catch (const Error&) {
    return;  // unreadable: TensorFlow's error stands
  }
  std::string theirs = std::string(" (TensorFlow said: ") + tensorflow.what() + ")";
  std::vector<std::vector<std::string>> sets;
  try {
    sets = tag_sets(content);
  } catch (const Error& malformed) {
    throw_error(TF_DATA_LOSS, "'" + utf8_string(pb) + "' (" + std::to_string(content.size()) +
                                  " bytes) is damaged, cut short or not a SavedModel: " +
                                  malformed.what() + theirs);
  }
  if (sets.empty()) {
    throw_error(TF_DATA_LOSS, "'" + utf8_string(pb) + "' (" + std::to_string(content.size()) +
                                  " bytes) holds no MetaGraphDef: it is empty or not a SavedModel" +
                                  theirs);
  }
  // A libtensorflow without the Python ops refuses such a model as one of unknown ops: the same
  // message as where it has them (refuse_python_ops at the end of load).
  wire::Reader model(content);
  while (model.next()) {
    if (model.field() == kSavedModelMetaGraphs) {
      refuse_python_ops(graph_def_of(model.bytes()), "SavedModel '" + export_dir + "'");
    }
  }
  std::vector<std::string> wanted(tags.begin(), tags.end());
  std::sort(wanted.begin(), wanted.end());
  std::string available;
  for (std::vector<std::string>& set : sets) {
    std::sort(set.begin(), set.end());
    if (set == wanted) return;  // the tags match: TensorFlow failed for another reason
    available += (available.empty() ? "" : ", ") + braced(set);
  }
  throw_error(TF_NOT_FOUND, "SavedModel '" + export_dir + "' has no MetaGraphDef tagged " +
                                braced(wanted) + "; its tag-sets are " + available + theirs);
}

std::string list_keys(const std::vector<SignatureDef>& signatures) {
  std::string keys;
  for (const SignatureDef& def : signatures) {
    if (!keys.empty()) keys += ", ";
    keys += def.key;
  }
  return keys.empty() ? "(none)" : keys;
}

}  // namespace

SavedModel::SavedModel(std::shared_ptr<Session> session, std::vector<SignatureDef> signatures)
    : session_(std::move(session)), signatures_(std::move(signatures)) {}

std::unique_ptr<SavedModel> SavedModel::load(const std::string& export_dir,
                                             std::span<const std::string> tags,
                                             const SessionConfig& config) {
  if (tags.empty()) throw_invalid_argument("at least one tag is needed to load a SavedModel");
  std::error_code ec;
  if (std::filesystem::is_regular_file(utf8_path(export_dir), ec)) {
    throw_invalid_argument("SavedModel path '" + export_dir +
                           "' is a file, not a directory: give the directory that holds "
                           "saved_model.pb and variables/ ('" +
                           utf8_string(utf8_path(export_dir).parent_path()) + "')");
  }
  std::vector<const char*> tag_ptrs;
  for (const std::string& tag : tags) tag_ptrs.push_back(tag.c_str());

  SessionOptions options(config);
  auto graph = std::make_shared<Graph>();
  std::unique_ptr<TF_Buffer, BufferDeleter> meta_graph(TF_NewBuffer());
  Status status;
  TF_Session* raw = TF_LoadSessionFromSavedModel(options.get(), nullptr, export_dir.c_str(),
                                                 tag_ptrs.data(), static_cast<int>(tag_ptrs.size()),
                                                 graph->get(), meta_graph.get(), status.get());
  try {
    status.check();
  } catch (const Error& tensorflow) {
    explain_load_failure(export_dir, tags, tensorflow);
    throw;
  }
  auto session = std::make_shared<Session>(raw, graph, config.runs_on_caller_thread());
  std::string_view meta_bytes(static_cast<const char*>(meta_graph->data), meta_graph->length);
  check_variables_present(export_dir, meta_bytes);
  refuse_python_ops(graph_def_of(meta_bytes), "SavedModel '" + export_dir + "'");
  return std::unique_ptr<SavedModel>(
      new SavedModel(std::move(session), parse_signature_defs(meta_bytes)));
}

const SignatureDef& SavedModel::signature(std::string_view key) const {
  for (const SignatureDef& def : signatures_) {
    if (def.key == key) return def;
  }
  throw_invalid_argument("no signature '" + std::string(key) + "' in the model; signatures are: " +
                         list_keys(signatures_));
}

std::unique_ptr<GraphModel> GraphModel::from_bytes(std::string_view graph_def,
                                                   const SessionConfig& config) {
  auto graph = std::make_shared<Graph>();
  try {
    graph->import_graph_def(graph_def);
  } catch (const Error&) {
    // A libtensorflow without the Python ops refuses them as unknown ops: the same message as
    // where it has them. Bytes that are no GraphDef keep TensorFlow's error.
    std::string found;
    try {
      found = find_python_op(graph_def);
    } catch (const Error&) {
    }
    if (!found.empty()) refuse_python_ops(graph_def, "the GraphDef");
    throw;
  }
  refuse_python_ops(graph_def, "the GraphDef");
  return std::unique_ptr<GraphModel>(new GraphModel(std::make_shared<Session>(graph, config)));
}

std::unique_ptr<GraphModel> GraphModel::load(const std::string& path, const SessionConfig& config) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(utf8_path(path), ec)) {
    throw_error(TF_NOT_FOUND, "GraphDef file '" + path + "' does not exist or is not a file");
  }
  return from_bytes(read_file(path, "GraphDef file"), config);
}

}  // namespace tfjni
