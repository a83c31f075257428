package dev.georesolver.config;

/**
 * What the HTTP server allows a client (manifest {@code server:}): how long a connection may wait
 * and how much it may send. Each value may also be overridden at start by its {@code GEO_SERVER_*}
 * environment variable (see {@code ingress.ServerLimits}). Immutable and thread-safe.
 */
public final class ServerConfig extends Settings {

  /** The shortest request line allowed, bytes: the longest address must still fit a GET. */
  public static final int MIN_REQUEST_LINE_BYTES = 13_000;

  /** The keys of {@code server:}. */
  public static final Section<ServerConfig> SECTION = new Section<>(ServerConfig::new);

  /**
   * A connection on which nothing is read or written for this long is closed, milliseconds; never
   * shorter in effect than {@code max_budget_ms} plus the ingress grace and a second; default 30,000 ms.
   */
  public static final Field<Long> IDLE_TIMEOUT_MS = SECTION.longs("idle_timeout_ms", 1, Long.MAX_VALUE).byDefault(30_000L);

  /** A new connection must complete its first request's line and headers within this, milliseconds; default 10,000 ms. */
  public static final Field<Long> HEADER_TIMEOUT_MS = SECTION.longs("header_timeout_ms", 1, Long.MAX_VALUE).byDefault(10_000L);

  /** A request's body must have arrived this long after its headers, milliseconds (else 408); default 10,000 ms. */
  public static final Field<Long> BODY_TIMEOUT_MS = SECTION.longs("body_timeout_ms", 1, Long.MAX_VALUE).byDefault(10_000L);

  /** Open client connections at most (lowered to 3/4 of the file-descriptor limit when that is smaller); default 10,000. */
  public static final Field<Integer> MAX_CONNECTIONS = SECTION.ints("max_connections", 1, Integer.MAX_VALUE).byDefault(10_000);

  /** All request headers together, bytes (over it: 431); default 8,192 bytes. */
  public static final Field<Integer> MAX_HEADER_BYTES = SECTION.ints("max_header_bytes", 1, Integer.MAX_VALUE).byDefault(8 * 1024);

  /**
   * The request line, bytes (over it: 414); at least 13,000 so the longest address accepted (1,000
   * code points of up to 4 UTF-8 bytes, percent-encoded) fits a GET with its other parameters;
   * default 16,384 bytes.
   */
  public static final Field<Integer> MAX_REQUEST_LINE_BYTES =
      SECTION.ints("max_request_line_bytes", ServerConfig.MIN_REQUEST_LINE_BYTES, Integer.MAX_VALUE).byDefault(16 * 1024);

  /** A request body, bytes (over it: 413); default 65,536 bytes. */
  public static final Field<Long> MAX_BODY_BYTES = SECTION.longs("max_body_bytes", 1, Long.MAX_VALUE).byDefault(64L * 1024);

  /**
   * The address the HTTP server listens on: an interface's IP or name, {@code 0.0.0.0} for every
   * interface (the default), {@code 127.0.0.1} for this machine only; {@code serve --host} wins.
   */
  public static final Field<String> HOST = SECTION.string("host").byDefault("0.0.0.0");

  private ServerConfig(Settings read) {
    super(read);
  }

  /** See {@link #HOST}. */
  public String host() {
    return get(HOST);
  }

  /** See {@link #IDLE_TIMEOUT_MS}. */
  public long idleTimeoutMs() {
    return get(IDLE_TIMEOUT_MS);
  }

  /** See {@link #HEADER_TIMEOUT_MS}. */
  public long headerTimeoutMs() {
    return get(HEADER_TIMEOUT_MS);
  }

  /** See {@link #BODY_TIMEOUT_MS}. */
  public long bodyTimeoutMs() {
    return get(BODY_TIMEOUT_MS);
  }

  /** See {@link #MAX_CONNECTIONS}. */
  public int maxConnections() {
    return get(MAX_CONNECTIONS);
  }

  /** See {@link #MAX_HEADER_BYTES}. */
  public int maxHeaderBytes() {
    return get(MAX_HEADER_BYTES);
  }

  /** See {@link #MAX_REQUEST_LINE_BYTES}. */
  public int maxRequestLineBytes() {
    return get(MAX_REQUEST_LINE_BYTES);
  }

  /** See {@link #MAX_BODY_BYTES}. */
  public long maxBodyBytes() {
    return get(MAX_BODY_BYTES);
  }
}
