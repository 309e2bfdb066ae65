package io.tfjni.djl;

import ai.djl.engine.Engine;
import ai.djl.engine.EngineProvider;

/**
 * Registers {@link TfjniEngine} with DJL (META-INF/services/ai.djl.engine.EngineProvider) under
 * the name "TensorFlow", so that code written for DJL's TensorFlow engine runs unchanged.
 */
public class TfjniEngineProvider implements EngineProvider {
  @Override
  public String getEngineName() {
    return TfjniEngine.ENGINE_NAME;
  }

  @Override
  public int getEngineRank() {
    return TfjniEngine.RANK;
  }

  @Override
  public Engine getEngine() {
    return TfjniEngine.getInstance();
  }
}
