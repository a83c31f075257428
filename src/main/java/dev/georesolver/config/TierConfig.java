package dev.georesolver.config;

import dev.georesolver.geo.Claim;
import dev.georesolver.provider.SchemaMode;

import java.util.Map;

/**
 * One rung of the ladder (manifest {@code routing.tiers[]}, DESIGN §8). Immutable.
 *
 * @param name unique tier name; also its event-bus address suffix
 * @param adapter the adapter's manifest name
 * @param endpoint base URL, or null for local adapters
 * @param claim what its answers may claim
 * @param region documentation and residency label
 * @param timeoutMs the longest one attempt may take, milliseconds
 * @param typicalMs the seed of its observed median latency, milliseconds (admission, reserves);
 *     {@code timeout_ms/2} when the manifest gives none
 * @param retryBudget retries of transient failures allowed per request; default 0
 * @param retryBackoffMs base of the full-jitter exponential backoff, milliseconds; default
 *     {@value #DEFAULT_RETRY_BACKOFF_MS}
 * @param rateLimitPerS outbound calls allowed per second; 0 means unlimited
 * @param credential where its secret comes from, or null
 * @param breaker breaker settings
 * @param schemaMode strict or relaxed body validation
 * @param headers extra request headers (e.g. User-Agent)
 * @param notice the result notice opener for this rung, or null for the claim's default
 * @param poolSize maximum HTTP/1 connections to the provider; default {@value #DEFAULT_POOL_SIZE}
 * @param reverseRadiusM for local rungs, how far a reverse lookup may look for the nearest
 *     point, metres; 0 (the default) means the adapter's own default (cached index 250 m,
 *     gazetteer 100 km)
 */
public record TierConfig(
    String name,
    String adapter,
    String endpoint,
    Claim claim,
    String region,
    long timeoutMs,
    long typicalMs,
    int retryBudget,
    long retryBackoffMs,
    double rateLimitPerS,
    CredentialConfig credential,
    BreakerConfig breaker,
    SchemaMode schemaMode,
    Map<String, String> headers,
    String notice,
    int poolSize,
    double reverseRadiusM) {

  public static final long DEFAULT_RETRY_BACKOFF_MS = 50;
  public static final int DEFAULT_POOL_SIZE = 64;

  public TierConfig {
    headers = Map.copyOf(headers);
  }
}
