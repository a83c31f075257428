package dev.georesolver.state.tables;

import java.nio.charset.StandardCharsets;

/** One entry of a {@link Log}: its sequence number and its body (not to be changed). */
public record Entry(long seq, byte[] body) {

  /** The body as UTF-8 text. */
  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
