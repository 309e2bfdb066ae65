/**
 * tfjni's versioned models in Micrometer: {@link io.tfjni.micrometer.VersionedModelMetrics} binds
 * a {@link io.tfjni.serving.VersionedModel}'s metrics to a {@code MeterRegistry} (Spring Boot's,
 * Prometheus', or any other Micrometer publishes to).
 */
package io.tfjni.micrometer;
