package dev.georesolver.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A tier's credential. {@link #toString()} never shows it, so it cannot leak through a log line or
 * an exception message; only {@link #reveal()} gives the value, at the one place it is sent.
 */
public final class Secret {

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /** Wraps a value. */
  public static Secret of(String value) {
    return new Secret(value);
  }

  /**
   * Reads a tier's secret from its source: the environment variable or the file (trailing
   * whitespace trimmed). Blocking for files: call at start-up.
   *
   * @return empty when the source is unset, empty or unreadable
   */
  public static Optional<Secret> read(CredentialConfig c, Map<String, String> env) {
    if (c == null) {
      return Optional.empty();
    }
    String v;
    if (c.env() != null) {
      v = env.get(c.env());
    } else {
      try {
        v = Files.readString(Path.of(c.file()), StandardCharsets.UTF_8);
      } catch (IOException e) {
        v = null;
      }
    }
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(new Secret(v.strip()));
  }

  /** The value, for placing on an outbound request only. */
  public String reveal() {
    return value;
  }

  @Override
  public String toString() {
    return "Secret[redacted]";
  }
}
