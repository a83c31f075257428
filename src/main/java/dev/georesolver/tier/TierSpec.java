package dev.georesolver.tier;

import dev.georesolver.config.Secret;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Ticker;

import java.time.Clock;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * Everything one {@link TierVerticle} is built from.
 *
 * @param config the tier's manifest entry
 * @param secret its credential, or null
 * @param admissionFactor the manifest's {@code admission_factor}, for retries
 * @param crsDefinitions the manifest's pinned CRS definitions
 * @param localAdapter for local adapters: builds the adapter on the verticle's context; null for HTTP
 * @param clock wall clock (breaker open periods, ages)
 * @param ticker monotonic clock (deadlines, latencies)
 * @param random jitter source
 * @param metrics the process's meters
 */
public record TierSpec(
    TierConfig config,
    Secret secret,
    double admissionFactor,
    Map<String, String> crsDefinitions,
    LocalAdapterFactory localAdapter,
    Clock clock,
    Ticker ticker,
    RandomGenerator random,
    dev.georesolver.metrics.Metrics metrics) {}
