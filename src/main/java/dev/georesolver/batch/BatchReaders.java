package dev.georesolver.batch;

import org.apache.commons.io.ByteOrderMark;
import org.apache.commons.io.input.BOMInputStream;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Opens a batch file, telling its format from its content: after an optional UTF-8 byte-order mark
 * and blank space, {@code [} is a JSON array, <code>{</code> is JSON Lines, anything else is CSV
 * whose delimiter is whichever of {@code ,} {@code ;} and tab occurs most in the header record
 * (outside double quotes; {@code ,} when none does). The text must be UTF-8: a malformed byte
 * sequence, a UTF-16 or UTF-32 byte-order mark, or a control character in the first record is
 * {@link BatchInputException.Kind#NOT_TEXT}.
 */
public final class BatchReaders {

  private static final char[] DELIMITERS = {',', ';', '\t'};

  private BatchReaders() {}

  /**
   * A reader over {@code in}, which it owns (closing the reader closes it).
   *
   * @throws BatchInputException when the file is empty, not UTF-8 text, or its header (first JSON
   *     row) names no accepted column set
   */
  public static BatchReader open(InputStream in, BatchLimits limits) throws IOException, BatchInputException {
    BOMInputStream bomIn = BOMInputStream.builder().setInputStream(in)
        .setByteOrderMarks(ByteOrderMark.UTF_8, ByteOrderMark.UTF_16LE, ByteOrderMark.UTF_16BE, ByteOrderMark.UTF_32LE,
            ByteOrderMark.UTF_32BE)
        .get();
    boolean bom = false;
    try {
      ByteOrderMark mark = bomIn.getBOM();
      if (mark != null && !mark.equals(ByteOrderMark.UTF_8)) {
        throw new BatchInputException(BatchInputException.Kind.NOT_TEXT,
            "the file is " + mark.getCharsetName() + ": save it as UTF-8");
      }
      bom = mark != null;
      BufferedReader reader = new BufferedReader(new InputStreamReader(bomIn, StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)), 1 << 16);
      Sniffed s = sniff(reader, limits);
      return switch (s.format) {
        case JSON_ARRAY -> new JsonArrayBatchReader(reader, bom, limits);
        case NDJSON -> new JsonLinesBatchReader(reader, bom, limits);
        case CSV -> new CsvBatchReader(reader, s.delimiter, bom, limits);
      };
    } catch (BatchInputException | IOException | RuntimeException e) {
      bomIn.close();
      throw e;
    }
  }

  private record Sniffed(InputFormat format, char delimiter) {}

  /** Looks at the first record without consuming it. */
  private static Sniffed sniff(BufferedReader reader, BatchLimits limits) throws IOException, BatchInputException {
    reader.mark(limits.maxRecordChars() + 1);
    Sniffed s = firstRecord(reader, limits);
    reader.reset();
    return s;
  }

  private static Sniffed firstRecord(BufferedReader reader, BatchLimits limits) throws IOException, BatchInputException {
    try {
      int c = reader.read();
      int read = 1;
      while (c == ' ' || c == '\r' || c == '\n' || c == '\uFEFF') {
        c = reader.read();
        read++;
      }
      if (c < 0) {
        throw new BatchInputException(BatchInputException.Kind.EMPTY, "the file is empty: a header row is needed");
      }
      if (c == '[') {
        return new Sniffed(InputFormat.JSON_ARRAY, ',');
      }
      if (c == '{') {
        return new Sniffed(InputFormat.NDJSON, ',');
      }
      int[] counts = new int[DELIMITERS.length];
      boolean quoted = false;
      for (; c >= 0; c = reader.read()) {
        if (++read > limits.maxRecordChars()) {
          throw new BatchInputException(BatchInputException.Kind.TOO_LARGE,
              "the header row is longer than " + limits.maxRecordChars() + " characters");
        }
        if (c == '"') {
          quoted = !quoted;
        } else if (!quoted && (c == '\n' || c == '\r')) {
          break;
        } else if (c != '\t' && Character.getType(c) == Character.CONTROL) {
          throw new BatchInputException(BatchInputException.Kind.NOT_TEXT, "the file is not CSV or JSON text "
              + "(its first line holds control characters" + (c == 0 ? ": UTF-16 without a byte-order mark?" : "") + ")");
        } else if (!quoted) {
          for (int i = 0; i < DELIMITERS.length; i++) {
            if (c == DELIMITERS[i]) {
              counts[i]++;
            }
          }
        }
      }
      int best = 0;
      for (int i = 1; i < DELIMITERS.length; i++) {
        if (counts[i] > counts[best]) {
          best = i;
        }
      }
      return new Sniffed(InputFormat.CSV, DELIMITERS[best]);
    } catch (CharacterCodingException e) {
      throw notUtf8("in the first line");
    }
  }

  static BatchInputException notUtf8(String where) {
    return new BatchInputException(BatchInputException.Kind.NOT_TEXT,
        "the file is not UTF-8 text (a malformed byte sequence " + where + ")");
  }
}
