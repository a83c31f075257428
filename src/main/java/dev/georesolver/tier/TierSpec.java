package dev.georesolver.tier;

import dev.georesolver.config.MarginsConfig;
import dev.georesolver.config.Secret;
import dev.georesolver.config.TierConfig;
import dev.georesolver.crs.CrsCatalog;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.metrics.Metrics;

import java.time.Clock;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Everything one {@link TierVerticle} is built from.
 *
 * @param config the tier's manifest entry
 * @param secret its credential, or null
 * @param admissionFactor the manifest's {@code admission_factor}, for retries
 * @param margins the manifest's margins (the tier's reply margin)
 * @param crs the process's CRS definitions (pinned, bundled, EPSG), shared by every tier
 * @param localAdapter for a local adapter, a factory to use instead of the built-in one
 *     ({@link LocalAdapters}); null otherwise
 * @param clock wall clock (breaker open periods, ages)
 * @param ticker monotonic clock (deadlines, latencies)
 * @param random the jitter source, asked for on each draw on the tier's thread
 *     ({@link Backoff#THREAD_LOCAL} in production)
 * @param metrics the process's meters
 * @param batchShare the share (0, 1] of the tier's rate limit and connections that batch attempts
 *     may use ({@code batch.max_share}); live traffic keeps the rest
 */
public record TierSpec(
    TierConfig config,
    Secret secret,
    double admissionFactor,
    MarginsConfig margins,
    CrsCatalog crs,
    LocalAdapterFactory localAdapter,
    Clock clock,
    Ticker ticker,
    Supplier<RandomGenerator> random,
    Metrics metrics,
    double batchShare) {

  /** A spec with the default batch share (0.5). */
  public TierSpec(TierConfig config, Secret secret, double admissionFactor, MarginsConfig margins, CrsCatalog crs,
      LocalAdapterFactory localAdapter, Clock clock, Ticker ticker, Supplier<RandomGenerator> random, Metrics metrics) {
    this(config, secret, admissionFactor, margins, crs, localAdapter, clock, ticker, random, metrics, 0.5);
  }
}
