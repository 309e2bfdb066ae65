package io.tfjni.serving;

import io.tfjni.SavedModel;
import java.nio.file.Path;

/**
 * One loaded version of a {@link VersionedModel}, as a {@link Warmup} sees it before the version
 * takes traffic.
 *
 * @param version the version's number (its directory's name)
 * @param directory the version's SavedModel directory
 * @param model the loaded model, owned by the versioned model: run it, do not close it
 */
public record ModelVersion(long version, Path directory, SavedModel model) {}
