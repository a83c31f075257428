package dev.georesolver.config;

import dev.georesolver.provider.CredentialPlacement;

/**
 * Where a tier's secret comes from and where it goes (manifest {@code credential:}).
 *
 * <p>Exactly one source ({@code env} or {@code file}); at most one placement ({@code header} or
 * {@code query_param}; when neither is given the adapter's default applies). The secret itself is
 * never part of the manifest.
 *
 * @param placement header or query parameter, or null for the adapter's default
 * @param env environment variable holding the secret, or null
 * @param file path of a file holding the secret (trailing whitespace trimmed), or null
 */
public record CredentialConfig(CredentialPlacement placement, String env, String file) {

  /** Where the secret comes from, for log lines that must not show the secret. */
  public String sourceDescription() {
    return env != null ? "environment variable " + env : "file " + file;
  }
}
