package dev.georesolver.config;

import dev.georesolver.normalize.IdempotencyKey;

import java.util.Map;
import java.util.Set;

/**
 * One webhook that receives the corrections of the tenants it names (manifest
 * {@code corrections.webhooks[]}): a URL, its tenants and where its signing secret comes from. The secret is never part of the manifest. Immutable and
 * thread-safe.
 */
public final class WebhookConfig extends Settings {

  /** The keys of one {@code webhooks:} entry. */
  public static final Section<WebhookConfig> SECTION = new Section<>(WebhookConfig::new);

  /** Where corrections are POSTed: an absolute http(s) URL; required; unique. */
  public static final Field<String> URL = SECTION.string("url").required().shownAs(Redaction::url)
      .check(TierConfig::httpUrlProblem);

  /** Environment variable holding the HMAC-SHA256 signing secret. */
  public static final Field<String> SECRET_ENV = SECTION.string("secret_env");

  /** File holding the signing secret (surrounding whitespace trimmed). */
  public static final Field<String> SECRET_FILE = SECTION.string("secret_file");

  /**
   * The tenants whose corrections this webhook receives: tenant ids, or {@code "*"} for every
   * tenant's; default {@code ["public"]} (the tenant of every request without a {@code tenants:}
   * block), so with tenants a webhook receives nothing until it names them.
   */
  public static final Field<Set<String>> TENANTS = SECTION.strings("tenants").byDefault(Set.of("public"));

  /** Each delivery's timeout, milliseconds; default 5,000 ms. */
  public static final Field<Long> TIMEOUT_MS = SECTION.longs("timeout_ms", 1, 600_000).byDefault(5000L);

  static {
    SECTION.rule((v, at) -> {
      if ((v.get(SECRET_ENV) == null) == (v.get(SECRET_FILE) == null)) {
        at.problem("needs exactly one of secret_env or secret_file");
      }
    });
  }

  private WebhookConfig(Settings read) {
    super(read);
  }

  /** See {@link #URL}. */
  public String url() {
    return get(URL);
  }

  /** Whether this webhook receives the corrections of {@code tenant} ({@link #TENANTS}). */
  public boolean receives(String tenant) {
    Set<String> ts = get(TENANTS);
    return ts.contains("*") || ts.contains(tenant);
  }

  /** See {@link #TIMEOUT_MS}. */
  public long timeoutMs() {
    return get(TIMEOUT_MS);
  }

  /**
   * The webhook's stable name for its delivery cursor and logs: {@code webhook-} and the first 16
   * hex digits of the URL's sha256 (never the URL, which may carry a token).
   */
  public String id() {
    return "webhook-" + IdempotencyKey.sha256Hex(url()).substring(0, 16);
  }

  /** Where the secret comes from, for log lines that must not show it. */
  public String secretSource() {
    return get(SECRET_ENV) != null ? "environment variable " + get(SECRET_ENV) : "file " + get(SECRET_FILE);
  }

  /**
   * Reads the signing secret once (blocking for a file: call off the event loop).
   *
   * @throws IllegalStateException saying why there is none (naming the variable or file, never a value)
   */
  public Secret readSecret(Map<String, String> env) {
    Secret.Lookup l = Secret.lookup(get(SECRET_ENV), get(SECRET_FILE), "webhook secret", env);
    if (l.secret() == null) {
      throw new IllegalStateException(l.missing());
    }
    return l.secret();
  }
}
