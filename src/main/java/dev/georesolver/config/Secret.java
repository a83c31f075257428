package dev.georesolver.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A tier's credential. {@link #toString()} never shows it, so it cannot leak through a log line or
 * an exception message; only {@link #reveal()} gives the value, at the one place it is sent.
 * Immutable and thread-safe.
 */
public final class Secret {

  /** The largest credential file read, bytes: a bigger one is refused, not read whole. */
  static final int MAX_FILE_BYTES = 64 * 1024;

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /** Wraps a value. */
  public static Secret of(String value) {
    return new Secret(value);
  }

  /**
   * What looking a credential up found: the secret, or why there is none.
   *
   * @param secret the value, trimmed, or null
   * @param missing why there is none, naming the variable or file (never a value), or null
   */
  record Lookup(Secret secret, String missing) {}

  /**
   * Reads a tier's secret from its source, once: the environment variable, or the file (at most
   * {@value #MAX_FILE_BYTES} bytes, surrounding whitespace trimmed). Blocking for files: call at start-up.
   */
  static Lookup lookup(CredentialConfig c, Map<String, String> env) {
    return lookup(c.env(), c.file(), "credential", env);
  }

  /**
   * Reads a secret from the environment variable {@code envVar}, or else from {@code file}, as
   * {@link #lookup(CredentialConfig, Map)} does; {@code what} names it in the reason when missing.
   */
  static Lookup lookup(String envVar, String file, String what, Map<String, String> env) {
    if (envVar != null) {
      String v = env.get(envVar);
      return v == null || v.isBlank()
          ? new Lookup(null, what + " environment variable " + envVar + " is unset")
          : new Lookup(new Secret(v.strip()), null);
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1);
    } catch (IOException | InvalidPathException e) {
      return new Lookup(null, what + " file " + file + " is not readable");
    }
    if (bytes.length > MAX_FILE_BYTES) {
      return new Lookup(null, what + " file " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
    }
    String v = new String(bytes, StandardCharsets.UTF_8);
    return v.isBlank() ? new Lookup(null, what + " file " + file + " is empty") : new Lookup(new Secret(v.strip()), null);
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
