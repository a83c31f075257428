package dev.georesolver.tier;

import io.vertx.core.buffer.Buffer;

import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * One provider body, read as it arrives and held to a cap whatever way it arrives — with a
 * {@code Content-Length}, chunked, or until the connection closes — and, for a compressed body, on
 * the bytes it inflates to: a gzip bomb of half a megabyte is refused at the cap, not inflated to
 * half a gigabyte.
 *
 * <p>Encodings read: identity, {@code gzip} (and {@code x-gzip}) and {@code deflate} (zlib, or raw
 * deflate as some servers send it); anything else is refused. A compressed body is inflated
 * incrementally with an {@link Inflater} fed each chunk as it arrives, stopping the moment the
 * output passes the cap: the work per chunk is bounded by the cap (at most a few milliseconds for
 * 4 MiB, the same order as parsing a body of that size), so it stays on the event loop and never
 * outlives the attempt's timeout. A gzip body's trailer (CRC-32 and length) is checked.
 *
 * <p>An identity body that arrives in one chunk is kept as that chunk (no copy); one in several is
 * gathered into one buffer, sized by its {@code Content-Length} when that is known.
 *
 * <p>Not thread-safe: confined to the attempt's context. {@link #close()} releases the inflater's
 * native memory; call it however the read ends.
 */
abstract class BoundedBody {

  final long cap;
  private long received;

  private BoundedBody(long cap) {
    this.cap = cap;
  }

  /**
   * The reader for a response.
   *
   * @param contentEncoding the {@code Content-Encoding} header, or null
   * @param declaredLength the {@code Content-Length}, or -1 when absent or unreadable
   * @param cap the most bytes accepted on the wire, and once inflated
   * @throws BodyRefusedException for an encoding not read here
   */
  static BoundedBody of(String contentEncoding, long declaredLength, long cap) throws BodyRefusedException {
    String coding = coding(contentEncoding);
    return switch (coding) {
      case "identity" -> new Identity(declaredLength, cap);
      case "gzip", "x-gzip" -> new Inflating(true, cap);
      case "deflate" -> new Inflating(false, cap);
      default -> throw new BodyRefusedException("content-encoding not supported: " + printable(coding));
    };
  }

  /** The one coding applied, {@code identity} when none; several stacked codings are refused. */
  private static String coding(String header) {
    if (header == null || header.isBlank()) {
      return "identity";
    }
    String found = "identity";
    for (String part : header.split(",", -1)) {
      String c = part.strip().toLowerCase(Locale.ROOT);
      if (c.isEmpty() || c.equals("identity")) {
        continue;
      }
      if (!found.equals("identity")) {
        return header.strip();
      }
      found = c;
    }
    return found;
  }

  private static String printable(String s) {
    String cut = s.length() > 32 ? s.substring(0, 32) : s;
    return cut.replaceAll("[^\\x21-\\x7e]", "?");
  }

  /** Takes the next chunk of the body as received. */
  final void accept(Buffer chunk) throws BodyRefusedException {
    received += chunk.length();
    if (received > cap) {
      throw tooLarge();
    }
    take(chunk);
  }

  abstract void take(Buffer chunk) throws BodyRefusedException;

  /** The whole body (inflated), once the response has ended. */
  abstract Buffer finish() throws BodyRefusedException;

  /** Releases what the reader holds; idempotent. */
  void close() {}

  final BodyRefusedException tooLarge() {
    return new BodyRefusedException("body over " + cap + " bytes");
  }

  /** An identity body. */
  private static final class Identity extends BoundedBody {

    private final int expected;
    private Buffer first;
    private Buffer gathered;

    Identity(long declaredLength, long cap) {
      super(cap);
      this.expected = declaredLength > 0 && declaredLength <= cap ? (int) declaredLength : 0;
    }

    @Override
    void take(Buffer chunk) {
      if (gathered != null) {
        gathered.appendBuffer(chunk);
      } else if (first == null) {
        first = chunk;
      } else {
        gathered = Buffer.buffer(Math.max(expected, 2 * (first.length() + chunk.length()))).appendBuffer(first).appendBuffer(chunk);
        first = null;
      }
    }

    @Override
    Buffer finish() {
      return gathered != null ? gathered : first != null ? first : Buffer.buffer();
    }
  }

  /** A gzip or deflate body, inflated chunk by chunk up to the cap. */
  private static final class Inflating extends BoundedBody {

    private static final int RESERVED_FLAGS = 0xE0;
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    /** Where the reader is in the stream. */
    private enum Phase { HEADER, EXTRA_LENGTH, EXTRA, NAME, COMMENT, HEADER_CRC, DEFLATE, TRAILER, DONE }

    private final boolean gzip;
    private final byte[] scratch = new byte[16 * 1024];
    private final byte[] head = new byte[10];
    private final Buffer out = Buffer.buffer(8 * 1024);
    private final CRC32 crc = new CRC32();
    private Inflater inflater;
    private Phase phase = Phase.HEADER;
    private int headRead;
    private int flags;
    private int skip;
    private long inflated;

    Inflating(boolean gzip, long cap) {
      super(cap);
      this.gzip = gzip;
    }

    @Override
    void take(Buffer chunk) throws BodyRefusedException {
      byte[] b = chunk.getBytes();
      int i = 0;
      while (i < b.length && phase != Phase.DONE) {
        i = phase == Phase.DEFLATE ? inflate(b, i) : gzip ? gzipFrame(b, i) : zlibSniff(b, i);
      }
    }

    /** Reads the first two bytes of a deflate body: a zlib header, or the start of raw deflate. */
    private int zlibSniff(byte[] b, int i) throws BodyRefusedException {
      head[headRead++] = b[i++];
      if (headRead == 2) {
        int cmf = head[0] & 0xff;
        boolean zlib = (cmf & 0x0f) == 8 && ((cmf << 8) | (head[1] & 0xff)) % 31 == 0;
        inflater = new Inflater(!zlib);
        phase = Phase.DEFLATE;
        inflater.setInput(head, 0, 2);
        drain();
      }
      return i;
    }

    /** Reads one byte or more of a gzip member's header (RFC 1952 §2.3), or of its trailer. */
    private int gzipFrame(byte[] b, int i) throws BodyRefusedException {
      switch (phase) {
        case HEADER -> {
          head[headRead++] = b[i++];
          if (headRead == 10) {
            if ((head[0] & 0xff) != 0x1f || (head[1] & 0xff) != 0x8b || head[2] != 8 || (head[3] & RESERVED_FLAGS) != 0) {
              throw new BodyRefusedException("compressed body does not decode: not a gzip stream");
            }
            flags = head[3];
            headRead = 0;
            afterField(Phase.HEADER);
          }
        }
        case EXTRA_LENGTH -> {
          head[headRead++] = b[i++];
          if (headRead == 2) {
            skip = (head[0] & 0xff) | (head[1] & 0xff) << 8;
            headRead = 0;
            phase = Phase.EXTRA;
            if (skip == 0) {
              afterField(Phase.EXTRA);
            }
          }
        }
        case EXTRA, HEADER_CRC -> {
          int n = Math.min(skip, b.length - i);
          i += n;
          skip -= n;
          if (skip == 0) {
            afterField(phase);
          }
        }
        case NAME, COMMENT -> {
          if (b[i++] == 0) {
            afterField(phase);
          }
        }
        case TRAILER -> {
          head[headRead++] = b[i++];
          if (headRead == 8) {
            phase = Phase.DONE;
          }
        }
        default -> throw new IllegalStateException(phase.name());
      }
      return i;
    }

    /** Moves past one header field to the next one the flags announce, then to the deflate data. */
    private void afterField(Phase done) {
      Phase next = Phase.DEFLATE;
      if (done.ordinal() < Phase.EXTRA_LENGTH.ordinal() && (flags & FEXTRA) != 0) {
        next = Phase.EXTRA_LENGTH;
      } else if (done.ordinal() < Phase.NAME.ordinal() && (flags & FNAME) != 0) {
        next = Phase.NAME;
      } else if (done.ordinal() < Phase.COMMENT.ordinal() && (flags & FCOMMENT) != 0) {
        next = Phase.COMMENT;
      } else if (done.ordinal() < Phase.HEADER_CRC.ordinal() && (flags & FHCRC) != 0) {
        next = Phase.HEADER_CRC;
        skip = 2;
      }
      phase = next;
      if (next == Phase.DEFLATE) {
        inflater = new Inflater(true);
      }
    }

    /** Feeds the rest of the chunk to the inflater; returns where its unused bytes (the trailer) start. */
    private int inflate(byte[] b, int i) throws BodyRefusedException {
      inflater.setInput(b, i, b.length - i);
      drain();
      if (!inflater.finished()) {
        return b.length;
      }
      int rest = b.length - inflater.getRemaining();
      phase = gzip ? Phase.TRAILER : Phase.DONE;
      return rest;
    }

    /** Inflates everything the inflater holds, stopping at the cap. */
    private void drain() throws BodyRefusedException {
      while (!inflater.finished()) {
        int n;
        try {
          n = inflater.inflate(scratch);
        } catch (DataFormatException e) {
          throw new BodyRefusedException("compressed body does not decode");
        }
        if (n == 0) {
          if (inflater.needsDictionary()) {
            throw new BodyRefusedException("compressed body does not decode: it needs a preset dictionary");
          }
          if (inflater.needsInput()) {
            return;
          }
        }
        if (inflated + n > cap) {
          throw new BodyRefusedException("body over " + cap + " bytes once inflated");
        }
        inflated += n;
        out.appendBytes(scratch, 0, n);
        if (gzip) {
          crc.update(scratch, 0, n);
        }
      }
    }

    @Override
    Buffer finish() throws BodyRefusedException {
      if (phase != Phase.DONE) {
        throw new BodyRefusedException("compressed body ends early");
      }
      if (gzip && (le32(head, 0) != crc.getValue() || le32(head, 4) != (inflated & 0xffffffffL))) {
        throw new BodyRefusedException("compressed body does not decode: its checksum does not match");
      }
      return out;
    }

    private static long le32(byte[] b, int at) {
      return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    @Override
    void close() {
      if (inflater != null) {
        inflater.end();
      }
    }
  }
}
