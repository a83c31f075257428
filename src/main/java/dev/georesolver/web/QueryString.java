package dev.georesolver.web;

import dev.georesolver.bus.FieldProblem;
import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a raw query string ({@code application/x-www-form-urlencoded}) strictly into request
 * fields. Pure and thread-safe.
 *
 * <ul>
 *   <li>Parameters are separated by {@code &} only; empty ones, and ones with an empty name, are
 *       skipped; a name without {@code =} has the empty value; {@code +} is a blank.
 *   <li>A {@code %} must be followed by two hexadecimal digits, and the decoded bytes must be
 *       valid UTF-8 (characters that arrive unescaped are taken as the bytes they came as).
 *       Otherwise the parameter is a problem naming it, or naming {@code query} when it is the
 *       name itself that does not decode.
 *   <li>A name given twice is a problem naming it: one request, one value per field.
 * </ul>
 */
public final class QueryString {

  private QueryString() {}

  /**
   * Decodes {@code rawQuery}, the part after {@code ?} as it arrived.
   *
   * @param rawQuery the raw query, or null for none
   */
  public static RequestFields parse(String rawQuery) {
    JsonObject fields = new JsonObject();
    List<FieldProblem> problems = new ArrayList<>(0);
    if (rawQuery == null || rawQuery.isEmpty()) {
      return new RequestFields(fields, List.of());
    }
    int start = 0;
    while (start <= rawQuery.length()) {
      int end = rawQuery.indexOf('&', start);
      if (end < 0) {
        end = rawQuery.length();
      }
      if (end > start) {
        parameter(rawQuery, start, end, fields, problems);
      }
      start = end + 1;
    }
    return problems.isEmpty() ? new RequestFields(fields, List.of()) : RequestFields.invalid(problems);
  }

  private static void parameter(String raw, int start, int end, JsonObject fields, List<FieldProblem> problems) {
    int eq = raw.indexOf('=', start);
    int nameEnd = eq < 0 || eq > end ? end : eq;
    String name = decode(raw, start, nameEnd);
    if (name == null) {
      problems.add(new FieldProblem("query", "has a parameter name that is not a well-formed UTF-8 percent-encoding"));
      return;
    }
    if (name.isEmpty()) {
      return;
    }
    String value = nameEnd == end ? "" : decode(raw, nameEnd + 1, end);
    if (value == null) {
      problems.add(new FieldProblem(name, "is not a well-formed UTF-8 percent-encoding"));
    } else if (fields.containsKey(name)) {
      if (problems.stream().noneMatch(p -> p.field().equals(name))) {
        problems.add(new FieldProblem(name, "is given more than once"));
      }
    } else {
      fields.put(name, value);
    }
  }

  /** Whether {@code s} (a raw path, say) has a {@code %} not followed by two hexadecimal digits. */
  public static boolean hasMalformedEscape(String s) {
    if (s == null) {
      return false;
    }
    for (int i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
      if (i + 2 >= s.length() || hex(s.charAt(i + 1)) < 0 || hex(s.charAt(i + 2)) < 0) {
        return true;
      }
    }
    return false;
  }

  /** The decoded text of {@code raw[start, end)}, or null when an escape or the UTF-8 is malformed. */
  private static String decode(String raw, int start, int end) {
    boolean plain = true;
    for (int i = start; i < end; i++) {
      char c = raw.charAt(i);
      if (c == '%' || c == '+' || c > 0x7F) {
        plain = false;
        break;
      }
    }
    if (plain) {
      return raw.substring(start, end);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(end - start);
    for (int i = start; i < end; i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= end) {
          return null;
        }
        int hi = hex(raw.charAt(i + 1));
        int lo = hex(raw.charAt(i + 2));
        if (hi < 0 || lo < 0) {
          return null;
        }
        bytes.write(hi << 4 | lo);
        i += 2;
      } else if (c == '+') {
        bytes.write(' ');
      } else if (c <= 0xFF) {
        // The request line arrives as bytes, one character each.
        bytes.write(c);
      } else {
        byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(utf8, 0, utf8.length);
      }
    }
    return utf8(bytes.toByteArray());
  }

  /** Strict UTF-8: null for malformed or overlong sequences, encoded surrogates, or code points past U+10FFFF. */
  public static String utf8(byte[] bytes) {
    CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return d.decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
