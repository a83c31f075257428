/**
 * The process's meters ({@link dev.georesolver.metrics.Metrics}, Micrometer, scraped as Prometheus
 * text on {@code /metrics}). Every label value comes from a fixed set (tier names and intents from
 * the manifest, outcomes and reasons from enums, known field names or {@code other}), so nothing a
 * client or provider sends can grow the exposition. Meters are thread-safe; recording must stay
 * cheap enough for the hot path (tag records, no strings built per request). It must not decide
 * anything: parts record what happened here and read nothing back.
 */
package dev.georesolver.metrics;
