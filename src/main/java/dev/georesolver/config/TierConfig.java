package dev.georesolver.config;

import dev.georesolver.geo.Claim;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.SchemaMode;
import dev.georesolver.provider.StandInBodies;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One rung of the ladder (manifest {@code routing.tiers[]}). Immutable and thread-safe.
 *
 * <p>Each field below is the whole truth about its key: kind, default (with its unit), checks.
 */
public final class TierConfig extends Settings {

  /** The keys of one {@code tiers:} entry. */
  public static final Section<TierConfig> SECTION = new Section<>(TierConfig::new);

  private static final Pattern NAME_PATTERN = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,62}");
  private static final String KNOWN_CLAIMS = Arrays.stream(Claim.values()).map(Claim::wire).collect(Collectors.joining(", "));

  /** Unique tier name ({@code [a-z0-9][a-z0-9_.-]{0,62}}), also its event-bus address suffix; required. */
  public static final Field<String> NAME = SECTION.string("name").required()
      .check(TierConfig::isName, "must match " + NAME_PATTERN.pattern());

  /** Whether {@code s} can be a tier's name (so that it may be used in an event-bus address). */
  public static boolean isName(String s) {
    return s != null && NAME_PATTERN.matcher(s).matches();
  }

  /** The adapter's manifest name ({@link AdapterRegistry#names()}); required. */
  public static final Field<String> ADAPTER = SECTION.string("adapter").required()
      .check(a -> AdapterRegistry.names().contains(a) ? null
          : "'" + a + "' is unknown (known: " + String.join(", ", AdapterRegistry.names()) + ")");

  /** Base URL, absolute http(s) with a host: required for HTTP adapters, unused by local ones. */
  public static final Field<String> ENDPOINT = SECTION.string("endpoint").shownAs(Redaction::url);

  /** What its answers may claim; required. */
  public static final Field<Claim> CLAIM = SECTION.choice("claim", List.of(Claim.values()), Claim::wire,
      text -> "'" + text + "' is unknown (known: " + KNOWN_CLAIMS + ")").required();

  /**
   * The region its provider runs in, for tenants whose residency is strict; default {@code global}
   * (out of every tenant's region). A local rung runs where the deployment runs: it takes
   * {@code routing.region} ({@link RoutingConfig#regionOf}), and may only repeat it.
   */
  public static final Field<String> REGION = SECTION.string("region").check(RoutingConfig::regionProblem)
      .defaultFrom(v -> v.get(ADAPTER) != null && AdapterRegistry.isLocal(v.get(ADAPTER)) ? null : "global");

  /** The longest one attempt may take, milliseconds; required. */
  public static final Field<Long> TIMEOUT_MS = SECTION.longs("timeout_ms", 1, Long.MAX_VALUE).required();

  /**
   * The seed of its observed median latency, milliseconds (admission, reserves), at most
   * {@code timeout_ms}; default {@code timeout_ms / 2} (at least 1).
   */
  public static final Field<Long> TYPICAL_MS = SECTION.longs("typical_ms", 1, Long.MAX_VALUE)
      .defaultFrom(v -> v.get(TIMEOUT_MS) == null ? null : Math.max(1, v.get(TIMEOUT_MS) / 2));

  /** Retries of transient failures allowed per request, 0–10; default 0. */
  public static final Field<Integer> RETRY_BUDGET = SECTION.ints("retry_budget", 0, 10).byDefault(0);

  /** Base of the full-jitter exponential backoff, milliseconds; default 50 ms. */
  public static final Field<Long> RETRY_BACKOFF_MS = SECTION.longs("retry_backoff_ms", 0, Long.MAX_VALUE).byDefault(50L);

  /** The longest a provider's Retry-After may hold this tier's breaker open, milliseconds; default 300,000 ms (5 min). */
  public static final Field<Long> RETRY_AFTER_MAX_MS = SECTION.longs("retry_after_max_ms", 1, Long.MAX_VALUE).byDefault(300_000L);

  /** Outbound calls allowed per second; default 0, which means unlimited. */
  public static final Field<Double> RATE_LIMIT_PER_S = SECTION.number("rate_limit_per_s", Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY).byDefault(0.0).check(r -> r >= 0, "must be >= 0 (0 means unlimited)");

  /** Where its secret comes from; none by default. */
  public static final Field<CredentialConfig> CREDENTIAL = SECTION.section("credential", CredentialConfig.SECTION);

  /** The tier's own TLS material: client certificate, trusted authorities, expected name ({@link TlsConfig}); none by default. */
  public static final Field<TlsConfig> TLS = SECTION.section("tls", TlsConfig.SECTION);

  /** Breaker settings; each defaults on its own ({@link BreakerConfig}). */
  public static final Field<BreakerConfig> BREAKER = SECTION.section("circuit_breaker", BreakerConfig.SECTION)
      .byDefault(BreakerConfig.defaults());

  /** Body validation, {@code strict} or {@code relaxed}; default {@code strict}. */
  public static final Field<SchemaMode> SCHEMA_MODE = SECTION.choice("schema_validation", List.of(SchemaMode.values()),
      m -> m.name().toLowerCase(Locale.ROOT), text -> "must be strict or relaxed").byDefault(SchemaMode.STRICT);

  /** Extra request headers (e.g. User-Agent); none by default. Values of credential-like headers are redacted when shown. */
  public static final Field<Map<String, String>> HEADERS = SECTION.stringMap("headers").byDefault(Map.of())
      .shownAs(Redaction::headers);

  /** The result notice opener for this rung ({@code {tier}} and {@code {age}} filled in); default the claim's. */
  public static final Field<String> NOTICE = SECTION.string("notice");

  /** Maximum HTTP/1 connections to the provider; default 64. */
  public static final Field<Integer> POOL_SIZE = SECTION.ints("pool_size", 1, Integer.MAX_VALUE).byDefault(64);

  /**
   * For local rungs, how far a reverse lookup may look for the nearest point, metres, &gt; 0;
   * default the adapter's own (cached index 250 m, gazetteer 100 km).
   */
  public static final Field<Double> REVERSE_RADIUS_M = SECTION.number("reverse_radius_m", Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY).check(r -> r > 0, "must be > 0");

  static {
    SECTION.rule((v, at) -> {
      String adapter = v.get(ADAPTER);
      if (adapter != null && !AdapterRegistry.isLocal(adapter)) {
        String problem = endpointProblem(v.get(ENDPOINT));
        if (problem != null) {
          at.problem(ENDPOINT.key(), problem);
        }
      }
    });
    SECTION.rule((v, at) -> {
      String adapter = v.get(ADAPTER);
      String endpoint = v.get(ENDPOINT);
      if (v.get(TLS) == null || adapter == null) {
        return;
      }
      if (AdapterRegistry.isLocal(adapter)) {
        at.problem(TLS.key(), "is for HTTP rungs: a local rung makes no connection");
      } else if (endpoint != null && !endpoint.startsWith("https://")) {
        at.problem(TLS.key(), "needs an https endpoint");
      }
    });
    SECTION.rule((v, at) -> {
      Long typical = v.get(TYPICAL_MS);
      Long timeout = v.get(TIMEOUT_MS);
      if (typical != null && timeout != null && typical > timeout) {
        at.problem(TYPICAL_MS.key(), "must be <= timeout_ms");
      }
    });
  }

  private TierConfig(Settings read) {
    super(read);
  }

  private static String endpointProblem(String endpoint) {
    return endpoint == null ? "is required for this adapter" : httpUrlProblem(endpoint);
  }

  /** Why {@code url} is not an absolute http(s) URL with a host, or null when it is one. */
  static String httpUrlProblem(String url) {
    try {
      URI u = new URI(url);
      boolean http = "http".equals(u.getScheme()) || "https".equals(u.getScheme());
      return http && u.getHost() != null ? null : "must be an absolute http(s) URL with a host";
    } catch (URISyntaxException e) {
      return "is not a valid URL: " + e.getReason();
    }
  }

  /** See {@link #NAME}. */
  public String name() {
    return get(NAME);
  }

  /** See {@link #ADAPTER}. */
  public String adapter() {
    return get(ADAPTER);
  }

  /** See {@link #ENDPOINT}; null for local adapters. */
  public String endpoint() {
    return get(ENDPOINT);
  }

  /** See {@link #CLAIM}. */
  public Claim claim() {
    return get(CLAIM);
  }

  /** See {@link #REGION}; null for a local rung that names none (it is {@code routing.region}'s). */
  public String region() {
    return get(REGION);
  }

  /** See {@link #TIMEOUT_MS}. */
  public long timeoutMs() {
    return get(TIMEOUT_MS);
  }

  /** See {@link #TYPICAL_MS}. */
  public long typicalMs() {
    return get(TYPICAL_MS);
  }

  /** See {@link #RETRY_BUDGET}. */
  public int retryBudget() {
    return get(RETRY_BUDGET);
  }

  /** See {@link #RETRY_BACKOFF_MS}. */
  public long retryBackoffMs() {
    return get(RETRY_BACKOFF_MS);
  }

  /** See {@link #RETRY_AFTER_MAX_MS}. */
  public long retryAfterMaxMs() {
    return get(RETRY_AFTER_MAX_MS);
  }

  /** See {@link #RATE_LIMIT_PER_S}. */
  public double rateLimitPerS() {
    return get(RATE_LIMIT_PER_S);
  }

  /** See {@link #CREDENTIAL}; null when the tier needs none. */
  public CredentialConfig credential() {
    return get(CREDENTIAL);
  }

  /** See {@link #TLS}; null when the tier has no TLS material of its own. */
  public TlsConfig tls() {
    return get(TLS);
  }

  /** See {@link #BREAKER}. */
  public BreakerConfig breaker() {
    return get(BREAKER);
  }

  /** See {@link #SCHEMA_MODE}. */
  public SchemaMode schemaMode() {
    return get(SCHEMA_MODE);
  }

  /** See {@link #HEADERS}; unmodifiable. */
  public Map<String, String> headers() {
    return get(HEADERS);
  }

  /** See {@link #NOTICE}; null for the claim's default. */
  public String notice() {
    return get(NOTICE);
  }

  /** See {@link #POOL_SIZE}. */
  public int poolSize() {
    return get(POOL_SIZE);
  }

  /** See {@link #REVERSE_RADIUS_M}; 0 when not given, for the adapter's own. */
  public double reverseRadiusM() {
    Double r = get(REVERSE_RADIUS_M);
    return r == null ? 0 : r;
  }

  /**
   * Whether this rung's adapter answers {@code direction} (the adapter registry's capabilities): the
   * one question the ladder asks of an adapter, asked here so that callers need not know adapters.
   */
  public boolean answers(dev.georesolver.geo.Direction direction) {
    return AdapterRegistry.get(adapter()).capabilities().supports(direction);
  }

  /** Whether this rung reads the cached spatial index (its answers come from the node's store). */
  public boolean readsIndex() {
    return AdapterRegistry.get(adapter()).capabilities().readsIndex();
  }

  /** Whether this rung is the cached-index rung itself ({@code adapter: cached_index}). */
  public boolean isCachedIndex() {
    return AdapterRegistry.CACHED_INDEX.equals(adapter());
  }

  /** Whether this rung is answered in-process (a local adapter: no endpoint, no connection). */
  public boolean local() {
    return AdapterRegistry.isLocal(adapter());
  }

  /**
   * The body a stand-in for this rung answers a forward lookup with, in its provider's own dialect
   * ({@link StandInBodies}): what {@code validate --simulate} serves in the provider's place. Empty
   * for a local rung, which needs no stand-in.
   */
  public Optional<String> standInBody() {
    return StandInBodies.forward(adapter());
  }
}
