package dev.georesolver.state.tables;

import java.nio.charset.StandardCharsets;

/**
 * One row as read: its key, its version (0 when the row does not exist; every write of a row makes
 * it one more), and its body (null when absent). The body array must not be changed by anyone once
 * the row exists.
 */
public record Row(String key, long version, byte[] body) {

  /** The row that is not there. */
  public static Row absent(String key) {
    return new Row(key, 0, null);
  }

  /** Whether the row exists. */
  public boolean exists() {
    return version > 0;
  }

  /** The body as UTF-8 text, or null when absent. */
  public String text() {
    return body == null ? null : new String(body, StandardCharsets.UTF_8);
  }
}
