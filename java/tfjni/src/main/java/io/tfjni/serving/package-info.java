/**
 * Serving a model whose new versions arrive while it serves: {@link
 * io.tfjni.serving.VersionedModel} watches a base directory of numeric version directories
 * (TensorFlow Serving's layout), loads and warms up a new version off the request path and swaps
 * it in without losing a call. {@link io.tfjni.serving.ServingPredictor} and {@link
 * io.tfjni.serving.ServingBatchingPredictor} follow the swaps; {@link
 * io.tfjni.serving.ServingListener} reports loads, failures, swaps and unloads.
 */
package io.tfjni.serving;
