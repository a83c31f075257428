package dev.georesolver.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One key a tenant may present (manifest {@code tenants[].keys[]}): its sha256 written in the
 * manifest, or a reference to where the key itself is kept. Immutable and thread-safe.
 *
 * <p>Exactly one of {@code sha256}, {@code env} and {@code file}. A key is the text a client sends
 * ({@code Authorization: Bearer <key>} or {@code X-Api-Key}); its hash is the sha256 of that text's
 * UTF-8 bytes, in hex ({@code printf %s "$KEY" | sha256sum}). The key itself is never part of the
 * manifest: the loader reads a referenced key once and keeps only its digest
 * ({@link Manifest#tenantKeys}); the effective configuration shows a hash by its first
 * {@value #SHOWN_HEX_DIGITS} hex digits only.
 */
public final class TenantKeyConfig extends Settings {

  /** How many hex digits of a key's hash {@code GET /manifest} shows. */
  public static final int SHOWN_HEX_DIGITS = 8;

  private static final Pattern HEX_64 = Pattern.compile("[0-9a-fA-F]{64}");

  /** The keys of one {@code keys:} entry. */
  public static final Section<TenantKeyConfig> SECTION = new Section<>(TenantKeyConfig::new);

  /** The sha256 of the key, 64 hex digits (either case). */
  public static final Field<String> SHA256 = SECTION.string("sha256")
      .check(h -> HEX_64.matcher(h).matches(), "must be 64 hex digits (the sha256 of the key)")
      .shownAs(h -> h.substring(0, SHOWN_HEX_DIGITS).toLowerCase(Locale.ROOT) + "…");

  /** Environment variable holding the key. */
  public static final Field<String> ENV = SECTION.string("env");

  /** File holding the key (surrounding whitespace trimmed). */
  public static final Field<String> FILE = SECTION.string("file");

  static {
    SECTION.rule((v, at) -> {
      int given = (v.get(SHA256) != null ? 1 : 0) + (v.get(ENV) != null ? 1 : 0) + (v.get(FILE) != null ? 1 : 0);
      if (given != 1 && !at.reported(SHA256.key()) && !at.reported(ENV.key()) && !at.reported(FILE.key())) {
        at.problem("needs exactly one of sha256, env or file");
      }
    });
  }

  private TenantKeyConfig(Settings read) {
    super(read);
  }

  /** See {@link #SHA256}, in lower case; null when the key is referenced. */
  public String sha256() {
    String h = get(SHA256);
    return h == null ? null : h.toLowerCase(Locale.ROOT);
  }

  /** See {@link #ENV}; null unless the key is in the environment. */
  public String env() {
    return get(ENV);
  }

  /** See {@link #FILE}; null unless the key is in a file. */
  public String file() {
    return get(FILE);
  }
}
