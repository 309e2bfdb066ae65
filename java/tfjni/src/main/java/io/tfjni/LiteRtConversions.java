package io.tfjni;

import io.tfjni.internal.JsonText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The LiteRT models converted from a SavedModel ({@code tfjni convert}), as its manifest records
 * them. The layout, inside the SavedModel directory:
 *
 * <pre>
 * DIR/litert/conversion.json                 what was converted, checked or refused
 * DIR/litert/&lt;signature&gt;/batch-&lt;N&gt;.tflite   one model per signature and batch size
 * </pre>
 *
 * <p>For each signature and batch size asked for, the manifest holds either the model's file and
 * the largest absolute difference per output between TensorFlow's outputs and LiteRT's on sample
 * inputs, or the reason it does not convert; and the TensorFlow version that converted it.
 * {@link SavedModel#load(Path, SessionOptions, String...)} with {@link
 * SessionOptions#preferLiteRt(int)} runs the converted ones.
 */
public final class LiteRtConversions {
  /** The directory inside the SavedModel that holds the converted models. */
  public static final String DIRECTORY = "litert";
  /** The manifest's file name inside {@link #DIRECTORY}. */
  public static final String MANIFEST = "conversion.json";

  private static final int FORMAT = 1;

  private final Path manifest;
  private final List<Conversion> conversions;

  private LiteRtConversions(Path manifest, List<Conversion> conversions) {
    this.manifest = manifest;
    this.conversions = List.copyOf(conversions);
  }

  /**
   * One signature at one batch size: converted (a file and its recorded differences) or not (the
   * converter's reason).
   *
   * @param signatureKey the SavedModel signature's key
   * @param batchSize the static batch size (the leading dimension of every input of rank 1 or more)
   * @param tensorFlowVersion the TensorFlow version that converted (or tried to convert) it
   * @param file the {@code .tflite} file, or null if it did not convert
   * @param maxAbsDifference per output key, the largest |TensorFlow - LiteRT| on the sample inputs;
   *     empty if it did not convert
   * @param error why it did not convert, or null if it did
   */
  public record Conversion(String signatureKey, int batchSize, String tensorFlowVersion,
      Path file, Map<String, Double> maxAbsDifference, String error) {
    /**
     * Whether there is a converted model for this signature and batch size.
     *
     * @return true if {@link #file()} is set
     */
    public boolean converted() {
      return file != null;
    }

    /**
     * The largest recorded difference over all outputs.
     *
     * @return the maximum of {@link #maxAbsDifference()}, 0 if it is empty
     */
    public double largestDifference() {
      return maxAbsDifference.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
  }

  /**
   * Reads a SavedModel's conversion manifest, if it has one.
   *
   * @param savedModelDir the SavedModel directory
   * @return the conversions, sorted by signature key and batch size; none if there is no
   *     {@code litert/conversion.json}
   * @throws NullPointerException if {@code savedModelDir} is null
   * @throws IllegalArgumentException if the manifest is not one {@code tfjni convert} writes
   *     (the message names the file)
   * @throws UncheckedIOException if the manifest exists but cannot be read
   */
  public static LiteRtConversions read(Path savedModelDir) {
    Path manifest = savedModelDir.resolve(DIRECTORY).resolve(MANIFEST);
    String text;
    try {
      text = Files.readString(manifest, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new LiteRtConversions(manifest, List.of());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + manifest, e);
    }
    try {
      return new LiteRtConversions(manifest, decode(manifest.getParent(), JsonText.parse(text)));
    } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
      throw new IllegalArgumentException(manifest + " is not a conversion manifest tfjni reads: "
          + e.getMessage(), e);
    }
  }

  private static List<Conversion> decode(Path layout, Object json) {
    Map<?, ?> root = (Map<?, ?>) json;
    Object format = root.get("format");
    if (!(format instanceof Double number) || number.intValue() != FORMAT) {
      throw new IllegalArgumentException("format " + format + ", expected " + FORMAT);
    }
    List<Conversion> conversions = new ArrayList<>();
    for (Map.Entry<?, ?> signature : ((Map<?, ?>) root.get("signatures")).entrySet()) {
      String key = (String) signature.getKey();
      Map<?, ?> sizes = (Map<?, ?>) ((Map<?, ?>) signature.getValue()).get("batch_sizes");
      Set<Integer> seen = new HashSet<>();
      for (Map.Entry<?, ?> size : sizes.entrySet()) {
        int batch = Integer.parseInt((String) size.getKey());
        if (!seen.add(batch)) {
          throw new IllegalArgumentException("signature " + key + " has batch " + batch
              + " twice");
        }
        conversions.add(conversion(layout, key, batch, (Map<?, ?>) size.getValue()));
      }
    }
    conversions.sort(Comparator.comparing(Conversion::signatureKey)
        .thenComparingInt(Conversion::batchSize));
    return conversions;
  }

  private static Conversion conversion(Path layout, String key, int batch, Map<?, ?> entry) {
    String version = (String) entry.get("tensorflow_version");
    String error = (String) entry.get("error");
    if (error != null) {
      return new Conversion(key, batch, version, null, Map.of(), error);
    }
    String file = Objects.requireNonNull((String) entry.get("file"),
        "signature " + key + ", batch " + batch + " has neither a file nor an error");
    Path path = layout.resolve(file).normalize();
    if (!path.startsWith(layout)) {
      throw new IllegalArgumentException("file " + file + " lies outside " + layout);
    }
    Map<String, Double> differences = new LinkedHashMap<>();
    for (Map.Entry<?, ?> d : ((Map<?, ?>) entry.get("max_abs_difference")).entrySet()) {
      differences.put((String) d.getKey(), (Double) d.getValue());
    }
    return new Conversion(key, batch, version, path, Map.copyOf(differences), null);
  }

  /**
   * The manifest this was read from (which may not exist).
   *
   * @return {@code DIR/litert/conversion.json}
   */
  public Path manifest() {
    return manifest;
  }

  /**
   * Every recorded signature and batch size, converted or not.
   *
   * @return the conversions, sorted by signature key and batch size; empty without a manifest
   */
  public List<Conversion> all() {
    return conversions;
  }

  /**
   * The record for one signature and batch size.
   *
   * @param signatureKey the signature's key
   * @param batchSize the batch size
   * @return the record, converted or not; empty if that size was not asked for
   */
  public Optional<Conversion> find(String signatureKey, int batchSize) {
    return conversions.stream()
        .filter(c -> c.signatureKey().equals(signatureKey) && c.batchSize() == batchSize)
        .findFirst();
  }
}
