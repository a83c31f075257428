package dev.georesolver.web;

import dev.georesolver.config.ServerConfig;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * What the HTTP server allows a client: how long a connection may wait and how much it may send.
 * Immutable and thread-safe.
 *
 * <p>Every limit has a default fit for a resolver behind a load balancer, and an environment
 * variable ({@link #fromEnv}) that overrides it. Units are in the names: milliseconds, bytes,
 * connections.
 *
 * @param idleTimeoutMs a connection on which nothing is read or written for this long is closed, and
 *     a kept-alive connection must complete its next request's headers within this long of the
 *     previous answer; default {@value #DEFAULT_IDLE_TIMEOUT_MS}. Never shorter, in effect, than the
 *     longest request budget plus the ingress grace (see {@link #effectiveIdleTimeoutMs}), so a
 *     request waiting for its answer is not cut off
 * @param headerTimeoutMs a new connection must complete its first request's line and headers within
 *     this long, however slowly it trickles them; default {@value #DEFAULT_HEADER_TIMEOUT_MS}
 * @param bodyTimeoutMs a request's body must have arrived this long after its headers, else the
 *     answer is 408 and the connection is closed; default {@value #DEFAULT_BODY_TIMEOUT_MS}
 * @param maxConnections open client connections at most; a connection over it is closed as soon as
 *     it is accepted; default {@value #DEFAULT_MAX_CONNECTIONS}, lowered at start to three quarters
 *     of the process's file-descriptor limit when that is smaller
 *     ({@link #effectiveMaxConnections})
 * @param maxHeaderBytes all request headers together, bytes; over it the answer is 431; default
 *     {@value #DEFAULT_MAX_HEADER_BYTES}
 * @param maxRequestLineBytes the request line ({@code GET /v1/geocode?… HTTP/1.1}), bytes; over it
 *     the answer is 414; default {@value #DEFAULT_MAX_REQUEST_LINE_BYTES}, which holds the longest
 *     address accepted in any script, percent-encoded, with every other parameter
 * @param maxBodyBytes a request body, bytes; over it the answer is 413; default {@value
 *     #DEFAULT_MAX_BODY_BYTES}
 */
public record ServerLimits(
    long idleTimeoutMs,
    long headerTimeoutMs,
    long bodyTimeoutMs,
    int maxConnections,
    int maxHeaderBytes,
    int maxRequestLineBytes,
    long maxBodyBytes) {

  private static final ServerConfig DEFAULTS = ServerConfig.SECTION.defaults();

  /** Default {@link #idleTimeoutMs}, milliseconds ({@code server.idle_timeout_ms}). */
  public static final long DEFAULT_IDLE_TIMEOUT_MS = DEFAULTS.idleTimeoutMs();
  /** Default {@link #headerTimeoutMs}, milliseconds. */
  public static final long DEFAULT_HEADER_TIMEOUT_MS = DEFAULTS.headerTimeoutMs();
  /** Default {@link #bodyTimeoutMs}, milliseconds. */
  public static final long DEFAULT_BODY_TIMEOUT_MS = DEFAULTS.bodyTimeoutMs();
  /** Default {@link #maxConnections}. */
  public static final int DEFAULT_MAX_CONNECTIONS = DEFAULTS.maxConnections();
  /** Default {@link #maxHeaderBytes}, bytes (Netty's and Vert.x's own default). */
  public static final int DEFAULT_MAX_HEADER_BYTES = DEFAULTS.maxHeaderBytes();
  /** Default {@link #maxRequestLineBytes}, bytes. */
  public static final int DEFAULT_MAX_REQUEST_LINE_BYTES = DEFAULTS.maxRequestLineBytes();
  /** Default {@link #maxBodyBytes}, bytes. */
  public static final long DEFAULT_MAX_BODY_BYTES = DEFAULTS.maxBodyBytes();

  /** The environment variables {@link #fromEnv} reads, each naming one limit. */
  public static final String ENV_IDLE_TIMEOUT_MS = "GEO_SERVER_IDLE_TIMEOUT_MS";
  public static final String ENV_HEADER_TIMEOUT_MS = "GEO_SERVER_HEADER_TIMEOUT_MS";
  public static final String ENV_BODY_TIMEOUT_MS = "GEO_SERVER_BODY_TIMEOUT_MS";
  public static final String ENV_MAX_CONNECTIONS = "GEO_SERVER_MAX_CONNECTIONS";
  public static final String ENV_MAX_HEADER_BYTES = "GEO_SERVER_MAX_HEADER_BYTES";
  public static final String ENV_MAX_REQUEST_LINE_BYTES = "GEO_SERVER_MAX_REQUEST_LINE_BYTES";
  public static final String ENV_MAX_BODY_BYTES = "GEO_SERVER_MAX_BODY_BYTES";

  /** The smallest request line allowed: the longest address must still fit a GET. */
  static final int MIN_REQUEST_LINE_BYTES = ServerConfig.MIN_REQUEST_LINE_BYTES;

  /** @throws IllegalArgumentException naming the first limit that is not positive or too small */
  public ServerLimits {
    positive("idle_timeout_ms", idleTimeoutMs);
    positive("header_timeout_ms", headerTimeoutMs);
    positive("body_timeout_ms", bodyTimeoutMs);
    positive("max_connections", maxConnections);
    positive("max_header_bytes", maxHeaderBytes);
    positive("max_body_bytes", maxBodyBytes);
    if (maxRequestLineBytes < MIN_REQUEST_LINE_BYTES) {
      throw new IllegalArgumentException("max_request_line_bytes must be at least " + MIN_REQUEST_LINE_BYTES
          + " so that a 1,000-character address fits a GET (got " + maxRequestLineBytes + ")");
    }
  }

  /** Every limit at its default. */
  public static ServerLimits defaults() {
    return of(DEFAULTS, Map.of());
  }

  /**
   * The defaults, each overridden by its {@code GEO_SERVER_*} variable when set.
   *
   * @throws IllegalArgumentException naming the variable when a value is not a positive integer
   */
  public static ServerLimits fromEnv(Map<String, String> env) {
    return of(DEFAULTS, env);
  }

  /**
   * The manifest's {@code server:} limits, each overridden by its {@code GEO_SERVER_*} variable when
   * set (an operator's override at start, without editing the reviewed manifest).
   *
   * @throws IllegalArgumentException naming the variable when a value is not a positive integer
   */
  public static ServerLimits of(ServerConfig cfg, Map<String, String> env) {
    return new ServerLimits(
        read(env, ENV_IDLE_TIMEOUT_MS, cfg.idleTimeoutMs()),
        read(env, ENV_HEADER_TIMEOUT_MS, cfg.headerTimeoutMs()),
        read(env, ENV_BODY_TIMEOUT_MS, cfg.bodyTimeoutMs()),
        (int) Math.min(Integer.MAX_VALUE, read(env, ENV_MAX_CONNECTIONS, cfg.maxConnections())),
        (int) Math.min(Integer.MAX_VALUE, read(env, ENV_MAX_HEADER_BYTES, cfg.maxHeaderBytes())),
        (int) Math.min(Integer.MAX_VALUE, read(env, ENV_MAX_REQUEST_LINE_BYTES, cfg.maxRequestLineBytes())),
        read(env, ENV_MAX_BODY_BYTES, cfg.maxBodyBytes()));
  }

  /** These limits with other deadlines (tests shorten them). */
  public ServerLimits withTimeouts(long idleMs, long headerMs, long bodyMs) {
    return new ServerLimits(idleMs, headerMs, bodyMs, maxConnections, maxHeaderBytes, maxRequestLineBytes, maxBodyBytes);
  }

  /** These limits with another connection cap. */
  public ServerLimits withMaxConnections(int n) {
    return new ServerLimits(idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, n, maxHeaderBytes, maxRequestLineBytes, maxBodyBytes);
  }

  /**
   * The idle timeout given to the server: {@link #idleTimeoutMs}, raised when needed to the longest
   * budget a request may have plus the ingress grace and a second, since nothing is written to a
   * connection while its answer is being worked out.
   *
   * @param maxBudgetMs the manifest's {@code max_budget_ms}
   * @param graceMs how long past the budget the ingress waits for the chain
   * @param raised told the effective value when it differs from the configured one
   */
  public long effectiveIdleTimeoutMs(long maxBudgetMs, long graceMs, LongConsumer raised) {
    long floor = maxBudgetMs + graceMs + 1000;
    if (idleTimeoutMs >= floor) {
      return idleTimeoutMs;
    }
    raised.accept(floor);
    return floor;
  }

  /**
   * The connection cap in effect: {@link #maxConnections}, or three quarters of the
   * file-descriptor limit when that is lower, so that provider calls, the store and the log still
   * have descriptors when clients hold every connection they may.
   *
   * @param fileDescriptorLimit the process's limit, or a value {@code <= 0} when unknown
   */
  public int effectiveMaxConnections(long fileDescriptorLimit) {
    if (fileDescriptorLimit <= 0) {
      return maxConnections;
    }
    return (int) Math.max(1, Math.min(maxConnections, fileDescriptorLimit * 3 / 4));
  }

  private static long read(Map<String, String> env, String name, long dflt) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.strip());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be a positive integer (got '" + v.strip() + "')");
  }

  private static void positive(String key, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException(key + " must be positive (got " + v + ")");
    }
  }
}
