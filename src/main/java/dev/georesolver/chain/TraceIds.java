package dev.georesolver.chain;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Random 16-hex-digit trace ids for requests that arrive without one. Thread-safe. */
public final class TraceIds {

  private TraceIds() {}

  /** A new trace id. */
  public static String next() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }
}
