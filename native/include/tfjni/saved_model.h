// A loaded SavedModel: its session, graph and SignatureDefs. Restore and init
// ops (variables, lookup tables) run once here, at load.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tfjni/live_objects.h"
#include "tfjni/session.h"
#include "tfjni/session_config.h"
#include "tfjni/signature.h"

namespace tfjni {

class SavedModel {
 public:
  static std::unique_ptr<SavedModel> load(const std::string& export_dir,
                                          std::span<const std::string> tags,
                                          const SessionConfig& config = {});

  const std::vector<SignatureDef>& signatures() const noexcept { return signatures_; }
  // Throws INVALID_ARGUMENT listing the available keys if `key` is unknown.
  const SignatureDef& signature(std::string_view key) const;
  const std::shared_ptr<Session>& session() const noexcept { return session_; }

 private:
  SavedModel(std::shared_ptr<Session> session, std::vector<SignatureDef> signatures);

  std::shared_ptr<Session> session_;
  std::vector<SignatureDef> signatures_;
  LiveToken token_{ObjectKind::kSavedModel};
};

// A frozen GraphDef imported into a fresh graph with its own session.
class GraphModel {
 public:
  static std::unique_ptr<GraphModel> from_bytes(std::string_view graph_def,
                                                const SessionConfig& config = {});
  static std::unique_ptr<GraphModel> load(const std::string& path,
                                          const SessionConfig& config = {});

  const std::shared_ptr<Session>& session() const noexcept { return session_; }

 private:
  explicit GraphModel(std::shared_ptr<Session> session) : session_(std::move(session)) {}

  std::shared_ptr<Session> session_;
  LiveToken token_{ObjectKind::kGraphModel};
};

}  // namespace tfjni
