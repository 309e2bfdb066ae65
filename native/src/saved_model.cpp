#include "tfjni/saved_model.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfjni/error.h"
#include "tfjni/wire_format.h"

namespace tfjni {
namespace {

struct BufferDeleter {
  void operator()(TF_Buffer* b) const noexcept { TF_DeleteBuffer(b); }
};

constexpr uint32_t kMetaGraphSaverDef = 3;

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
  std::filesystem::path index = std::filesystem::path(export_dir) / "variables" / "variables.index";
  std::error_code ec;
  if (has_saver(meta_graph_def) && !std::filesystem::is_regular_file(index, ec)) {
    throw_error(TF_NOT_FOUND, "SavedModel '" + export_dir +
                                  "' has variables to restore but '" + index.string() +
                                  "' does not exist");
  }
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
  std::vector<const char*> tag_ptrs;
  for (const std::string& tag : tags) tag_ptrs.push_back(tag.c_str());

  SessionOptions options(config);
  auto graph = std::make_shared<Graph>();
  std::unique_ptr<TF_Buffer, BufferDeleter> meta_graph(TF_NewBuffer());
  Status status;
  TF_Session* raw = TF_LoadSessionFromSavedModel(options.get(), nullptr, export_dir.c_str(),
                                                 tag_ptrs.data(), static_cast<int>(tag_ptrs.size()),
                                                 graph->get(), meta_graph.get(), status.get());
  status.check();
  auto session = std::make_shared<Session>(raw, graph, config.runs_on_caller_thread());
  std::string_view meta_bytes(static_cast<const char*>(meta_graph->data), meta_graph->length);
  check_variables_present(export_dir, meta_bytes);
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
  graph->import_graph_def(graph_def);
  return std::unique_ptr<GraphModel>(new GraphModel(std::make_shared<Session>(graph, config)));
}

std::unique_ptr<GraphModel> GraphModel::load(const std::string& path, const SessionConfig& config) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw_error(TF_NOT_FOUND, "GraphDef file '" + path + "' does not exist or is not a file");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw_error(TF_NOT_FOUND, "cannot open GraphDef file '" + path + "'");
  std::ostringstream bytes;
  bytes << file.rdbuf();
  if (file.bad()) throw_error(TF_DATA_LOSS, "cannot read GraphDef file '" + path + "'");
  return from_bytes(bytes.str(), config);
}

}  // namespace tfjni
