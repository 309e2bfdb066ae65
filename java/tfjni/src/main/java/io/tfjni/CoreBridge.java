package io.tfjni;

import io.tfjni.internal.CoreAccess;
import io.tfjni.internal.PackedStrings;
import java.util.List;

/** The core's side of {@link CoreAccess}: package-private members, for tfjni's other packages. */
final class CoreBridge extends CoreAccess {
  @Override
  public Tensor adopt(long handle) {
    return Tensor.adopt(handle);
  }

  @Override
  public Predictor ownerOf(RunResult result) {
    return result.owner();
  }

  @Override
  public void refill(RunResult result, Tensor[] outputs) {
    result.refill(outputs);
  }

  @Override
  public boolean isWritable(Tensor tensor) {
    return tensor.isWritable();
  }

  @Override
  public PackedStrings packedStrings(Tensor tensor) {
    return tensor.packedStrings();
  }

  @Override
  public Tensor ofPackedStrings(PackedStrings strings, long... shape) {
    return Tensor.ofPackedStrings(strings, shape);
  }

  @Override
  public List<Device> decodeDevices(byte[] encoded) {
    return Device.decodeList(encoded);
  }

  @Override
  public NativeSessionOptions encode(SessionOptions options) {
    return new NativeSessionOptions(options.scalars(), options.visibleDevices(),
        options.rawConfig(), options.poolThreads(), options.poolNames(),
        options.runsOnCallerThread());
  }

  @Override
  public void threadPoolsStarted(SessionOptions options) {
    ThreadPools.started(options);
  }
}
