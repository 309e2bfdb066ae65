package io.tfjni;

import io.tfjni.eager.EagerContext;
import java.nio.file.Path;

/**
 * Run in a fresh JVM by {@link ThreadPoolsTest}: asks {@link ThreadPools} for intra-op counts
 * before and after the process's first session ({@code session}) or eager context ({@code eager})
 * starts, printing one line per answer.
 */
public final class ThreadPoolsProbe {
  private ThreadPoolsProbe() {}

  public static void main(String[] args) {
    String first = args[0];
    Path model = Path.of(args[1], "multi");
    System.out.println("before, " + attempt(3));
    SessionOptions options = ThreadPools.intraOpThreads(SessionOptions.defaults(), 3);
    if (first.equals("session")) {
      SavedModel.load(model, options, SavedModel.DEFAULT_TAG).close();
    } else {
      EagerContext.create(SessionOptions.defaults(), false, EagerContext.DevicePlacement.SILENT)
          .close();
    }
    for (int intra : new int[] {3, 5, 0}) {
      System.out.println("after, " + attempt(intra));
    }
    // A later session sizes nothing: what the first one set stays.
    SavedModel.load(model, SessionOptions.defaults().intraOpThreads(7), SavedModel.DEFAULT_TAG)
        .close();
    System.out.println("after another, " + attempt(7));
  }

  private static String attempt(int intra) {
    try {
      ThreadPools.intraOpThreads(SessionOptions.defaults(), intra);
      return "intra " + intra + ": accepted";
    } catch (IllegalArgumentException e) {
      return "intra " + intra + ": refused: " + e.getMessage();
    }
  }
}
