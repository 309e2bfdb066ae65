package io.tfjni.flink;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** How this module hands a batch's answer on to Flink. */
final class Completions {
  private Completions() {}

  /**
   * Gives {@code pending}'s value to {@code onValue}, or its failure as it is to {@code onFailure}
   * (not {@code thenApply}, which would wrap the batch's exception in a CompletionException); an
   * exception {@code onValue} throws goes to {@code onFailure} too.
   */
  static <T> void relay(CompletableFuture<T> pending, Consumer<T> onValue,
      Consumer<Throwable> onFailure) {
    pending.whenComplete((value, failure) -> {
      if (failure != null) {
        onFailure.accept(failure);
        return;
      }
      try {
        onValue.accept(value);
      } catch (RuntimeException e) {
        onFailure.accept(e);
      }
    });
  }
}
