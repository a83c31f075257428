package dev.georesolver.config;

import dev.georesolver.provider.CredentialPlacement;

/**
 * Where a tier's secret comes from and where it goes (manifest {@code routing.tiers[].credential}).
 * Immutable and thread-safe.
 *
 * <p>Exactly one source ({@code env} or {@code file}); at most one placement ({@code header} or
 * {@code query_param}; when neither is given the adapter's default applies). The secret itself is
 * never part of the manifest: the loader reads it once ({@link Manifest#secret}).
 */
public final class CredentialConfig extends Settings {

  /** The keys of {@code credential:}. */
  public static final Section<CredentialConfig> SECTION = new Section<>(CredentialConfig::new);

  /** Header that carries the secret; optional. */
  public static final Field<String> HEADER = SECTION.string("header");

  /** Query parameter that carries the secret; optional, not with {@code header}. */
  public static final Field<String> QUERY_PARAM = SECTION.string("query_param");

  /** Environment variable holding the secret. */
  public static final Field<String> ENV = SECTION.string("env");

  /** File holding the secret (trailing whitespace trimmed). */
  public static final Field<String> FILE = SECTION.string("file");

  static {
    SECTION.rule((v, at) -> {
      if ((v.get(ENV) == null) == (v.get(FILE) == null)) {
        at.problem("needs exactly one of env or file");
      }
      if (v.get(HEADER) != null && v.get(QUERY_PARAM) != null) {
        at.problem("takes header or query_param, not both");
      }
    });
  }

  private CredentialConfig(Settings read) {
    super(read);
  }

  /** Header or query parameter, or null for the adapter's default. */
  public CredentialPlacement placement() {
    String header = get(HEADER);
    String query = get(QUERY_PARAM);
    return header != null ? CredentialPlacement.header(header) : query != null ? CredentialPlacement.queryParam(query) : null;
  }

  /** See {@link #ENV}; null when the secret is in a file. */
  public String env() {
    return get(ENV);
  }

  /** See {@link #FILE}; null when the secret is in the environment. */
  public String file() {
    return get(FILE);
  }

  /** Where the secret comes from, for log lines that must not show the secret. */
  public String sourceDescription() {
    return env() != null ? "environment variable " + env() : "file " + file();
  }
}
