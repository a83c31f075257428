package dev.georesolver.shadow;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The durable form's primitives: unsigned LEB128 varints and short UTF-8 names, written to a growing
 * buffer and read back from a bounded one. Reading never allocates more than the input's length and
 * fails with a {@link ShadowFormatException} naming the field on anything out of bounds.
 */
final class Codec {

  private Codec() {}

  /** Appends to a byte buffer. Not thread-safe. */
  static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

    void byteValue(int b) {
      out.write(b);
    }

    /** A non-negative long in 1 to 9 bytes (7 bits each, high bit: more follow). */
    void varlong(long v) {
      if (v < 0) {
        throw new IllegalStateException("a varlong is never negative here");
      }
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    void name(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      varlong(b.length);
      out.write(b, 0, b.length);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  /** Reads a byte array front to back. Not thread-safe. */
  static final class Reader {
    private final byte[] in;
    private int pos;

    Reader(byte[] in) {
      this.in = in;
    }

    int byteValue(String field) {
      if (pos >= in.length) {
        throw truncated(field);
      }
      return in[pos++] & 0xFF;
    }

    /** A varlong of at most 9 bytes (63 bits): never negative. */
    long varlong(String field) {
      long v = 0;
      for (int shift = 0; shift < 63; shift += 7) {
        int b = byteValue(field);
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          if (shift > 0 && b == 0) {
            throw new ShadowFormatException(field + ": a number is written longer than it needs");
          }
          return v;
        }
      }
      throw new ShadowFormatException(field + ": a number is longer than 63 bits");
    }

    /** A varlong no larger than {@code max}. */
    long bounded(String field, long max) {
      long v = varlong(field);
      if (v > max) {
        throw new ShadowFormatException(field + ": " + v + " is more than the most allowed, " + max);
      }
      return v;
    }

    /** A name of at most {@code maxBytes} UTF-8 bytes that {@link PairKey#isName} accepts. */
    String name(String field, int maxBytes) {
      int len = (int) bounded(field + " length", maxBytes);
      if (len > in.length - pos) {
        throw truncated(field);
      }
      String s = new String(in, pos, len, StandardCharsets.UTF_8);
      pos += len;
      if (!PairKey.isName(s)) {
        throw new ShadowFormatException(field + ": not a rung or intent name");
      }
      return s;
    }

    void end() {
      if (pos != in.length) {
        throw new ShadowFormatException((in.length - pos) + " bytes follow the end of the figures");
      }
    }

    private static ShadowFormatException truncated(String field) {
      return new ShadowFormatException(field + ": the input ends early (truncated)");
    }
  }
}
