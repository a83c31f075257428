package dev.georesolver.fuzz;

import dev.georesolver.support.RawHttp;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A seeded generator of hostile client requests, as the exact bytes sent on a fresh connection.
 * Case {@code i} of seed {@code s} is always the same bytes, so any case replays on its own.
 *
 * <p>Four families: queries whose values are hostile (escapes, encodings, invisible and control
 * characters, Java number syntax, sizes at and past the limits, unknown and repeated names), JSON
 * bodies that are hostile (malformed, duplicate keys, deep nesting, wrong types, other encodings,
 * broken or oversized chunking), malformed HTTP (request lines, headers, framing), and plain valid
 * requests so that the ladder and its misbehaving provider are exercised too.
 */
final class HostileRequests {

  /**
   * One request.
   *
   * @param index the case number
   * @param kind the family and variant, for the report
   * @param bytes exactly what is sent
   * @param budgetMs the budget the resolver works to for this request
   * @param complete whether the bytes are a whole request; an incomplete one is followed by a
   *     half-close, and may be closed without an answer
   */
  record Case(long index, String kind, byte[] bytes, long budgetMs, boolean complete, Sent sent) {

    /** A case that sends no key of its own (the fuzz without tenants). */
    Case(long index, String kind, byte[] bytes, long budgetMs, boolean complete) {
      this(index, kind, bytes, budgetMs, complete, Sent.NOTHING);
    }

    /** The request line's method, or "" when there is none. */
    String method() {
      int n = Math.min(bytes.length, 16);
      for (int k = 0; k < n; k++) {
        if (bytes[k] == ' ') {
          return new String(bytes, 0, k, StandardCharsets.ISO_8859_1);
        }
      }
      return "";
    }

    /** The path of the request line's target (before any query), or "" when there is no request line. */
    String path() {
      String head = new String(bytes, 0, Math.min(bytes.length, 20_000), StandardCharsets.ISO_8859_1);
      int sp = head.indexOf(' ');
      int eol = head.indexOf('\n');
      if (sp < 0 || (eol >= 0 && eol < sp)) {
        return "";
      }
      int end = head.indexOf(' ', sp + 1);
      String target = end < 0 ? head.substring(sp + 1) : head.substring(sp + 1, end);
      int q = target.indexOf('?');
      return q < 0 ? target : target.substring(0, q);
    }

    /** The request as printable text: non-ASCII and control bytes escaped, cut to {@code max} characters. */
    String printable(int max) {
      StringBuilder sb = new StringBuilder();
      for (byte b : bytes) {
        int c = b & 0xFF;
        if (c == '\r') {
          sb.append("\\r");
        } else if (c == '\n') {
          sb.append("\\n");
        } else if (c < 0x20 || c > 0x7E || c == '\\') {
          sb.append(String.format("\\x%02x", c));
        } else {
          sb.append((char) c);
        }
        if (sb.length() >= max) {
          return sb.append("… (").append(bytes.length).append(" bytes)").toString();
        }
      }
      return sb.toString();
    }
  }

  /** Which key a case presents, when the resolver under test has tenants. */
  enum Sent {
    /** No key header at all. */
    NOTHING,
    /** The key of a tenant with every intent but {@code contain} and no rate limit. */
    VALID,
    /** The key of a tenant with a small rate limit. */
    LIMITED,
    /** An admin tenant's key. */
    ADMIN,
    /** A key no tenant has: near misses of a real one, and inventions. */
    WRONG,
    /** A key header that does not carry a usable key, or carries a wrong one before a right one. */
    MALFORMED,
    /** An admin tenant's key as HTTP Basic credentials, which a browser keeps: enough to read the admin surface, never to change it. */
    ADMIN_BASIC,
    /**
     * A command to the admin surface (POST) without {@code X-Requested-By} or a JSON content type, as
     * a page on another site can send one: with an admin's Bearer key when tenants exist.
     */
    UNMARKED,
    /** Without tenants: an admin request that came through a proxy or names another host (DNS rebinding): not local. */
    AFAR;

    /** Whether the request authenticates as some tenant. */
    boolean authenticates() {
      return this == VALID || this == LIMITED || this == ADMIN || this == ADMIN_BASIC || this == UNMARKED;
    }

    /** Whether it presents an admin tenant's key in some form. */
    boolean admin() {
      return this == ADMIN || this == ADMIN_BASIC || this == UNMARKED;
    }
  }

  private static final String[] ADDRESSES = {
      "Paris, France", "10 Downing St, London", "1600 Amphitheatre Parkway, Mountain View, CA", "東京都千代田区丸の内1丁目",
      "Москва, Красная площадь", "القاهرة", "São Paulo", "Zürich Hbf", "123 Main St. Apt 4B, Springfield, IL 62704",
      "Berlin", "Sydney NSW 2000", "Mumbai", "北京市东城区", "서울특별시", "Ελλάδα, Αθήνα", "Reykjavík", "Lagos",
  };

  /** Characters that have broken parsers, normalizers and logs before. */
  private static final String[] NASTY = {
      "\u0000", "\u0007", "\u001b[31m", "\u007f", "\u0085", "\r\n", "\n", "\t", "\u202e", "\u200b", "\u200d", "\ufeff",
      "\u0301\u0301\u0301\u0301", "\uD83D\uDDFA", "\uD83D\uDC69\u200D\uD83D\uDCBB", "\u2603", "\u20ac", "~", "\\", "\"",
      "'", "<script>alert(1)</script>", "${jndi:ldap://x/a}", "%s%n%x", "../../etc/passwd", "\u00a0", "\u3000", "①",
      "㎏", "ﬁ", "İ", "ß", "\uFFFD", "\uFFFF", "\uD800", "\uDC00", "%", "+", "&", "=", "#", ";", ",", "؟", "𝟘𝟙",
  };

  /** Number texts of every syntax parsers accept when they should not, and some that are fine. */
  private static final String[] NUMBERS = {
      "0x1p4", "45d", "2f", "1e400", "-0", "NaN", "Infinity", "-Infinity", "٤٥", "1_000", "  45 ", "+-1",
      "9".repeat(400), "45.1234567890123", "-180.0000001", "90.0000001", "1,5", "", "0x2D", "1e2", ".", "-", "45.",
      ".5", "48.8566", "2.3522", "-33.86", "151.2", "0", "180", "-90",
  };

  private static final String[] BUDGETS = {
      "0", "-1", "1", "10", "250", "999999999999999999999", "abc", "1.5", "", "2000", "100000", "٣", "+5", "0x10",
  };

  private static final String[] INTENTS = {"describe", "measure", "contain", "", "guess", "DESCRIBE", "describe\u0000"};

  private static final String[] LANGUAGES = {"en", "pt-BR", "zh-Hant-TW", "x".repeat(100), "en\u0000", "*", "fr;q=0.9"};

  private final long seed;
  private final long defaultBudgetMs;
  private final long maxBudgetMs;

  HostileRequests(long seed, long defaultBudgetMs, long maxBudgetMs) {
    this.seed = seed;
    this.defaultBudgetMs = defaultBudgetMs;
    this.maxBudgetMs = maxBudgetMs;
  }

  /** Case {@code i}. */
  Case generate(long i) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + i);
    int family = r.nextInt(100);
    if (family < 25) {
      return valid(i, r);
    }
    if (family < 60) {
      return hostileQuery(i, r);
    }
    if (family < 85) {
      return hostileBody(i, r);
    }
    return malformedHttp(i, r);
  }

  // ---- valid requests ----

  private Case valid(long i, SplittableRandom r) {
    if (r.nextInt(4) == 0) {
      String q = "lat=" + fmt(r.nextDouble(-90, 90)) + "&lon=" + fmt(r.nextDouble(-180, 180));
      return get(i, "valid reverse", "/v1/reverse?" + q, defaultBudgetMs);
    }
    // Mostly distinct addresses, so that most reach the provider rather than a stored answer.
    StringBuilder q = new StringBuilder("q=").append(enc(pick(r, ADDRESSES) + (r.nextInt(5) > 0 ? " " + r.nextInt(100_000) : "")));
    long budget = defaultBudgetMs;
    if (r.nextBoolean()) {
      budget = 50 + r.nextInt(3000);
      q.append("&budget_ms=").append(budget);
      budget = Math.min(budget, maxBudgetMs);
    }
    if (r.nextInt(3) == 0) {
      q.append("&bbox=-180,-90,180,90");
    }
    if (r.nextInt(3) == 0) {
      q.append("&intent=").append(pick(r, new String[] {"describe", "measure", "contain"}));
    }
    return get(i, "valid forward", "/v1/geocode?" + q, budget);
  }

  // ---- hostile query strings ----

  private Case hostileQuery(long i, SplittableRandom r) {
    return switch (r.nextInt(12)) {
      case 0 -> get(i, "query: nasty characters", "/v1/geocode?q=" + enc(nastyText(r)), defaultBudgetMs);
      case 1 -> get(i, "query: random bytes escaped", "/v1/geocode?q=" + escapedBytes(r, 1 + r.nextInt(40)), defaultBudgetMs);
      case 2 -> get(i, "query: malformed escape", "/v1/geocode?" + malformedEscape(r), defaultBudgetMs);
      case 3 -> get(i, "query: reverse numbers", "/v1/reverse?lat=" + enc(pick(r, NUMBERS)) + "&lon=" + enc(pick(r, NUMBERS)),
          defaultBudgetMs);
      case 4 -> get(i, "query: bbox numbers", "/v1/geocode?q=Paris&bbox=" + enc(pick(r, NUMBERS) + "," + pick(r, NUMBERS)
          + "," + pick(r, NUMBERS) + "," + pick(r, NUMBERS)), defaultBudgetMs);
      case 5 -> get(i, "query: budget and intent", "/v1/geocode?q=Berlin&budget_ms=" + enc(pick(r, BUDGETS))
          + "&intent=" + enc(pick(r, INTENTS)) + "&language=" + enc(pick(r, LANGUAGES)), maxBudgetMs);
      case 6 -> get(i, "query: unknown names", "/v1/geocode?q=x" + unknownNames(r), defaultBudgetMs);
      case 7 -> get(i, "query: repeated names", "/v1/geocode?q=Paris&q=Berlin" + (r.nextBoolean() ? "&Q=x" : ""), defaultBudgetMs);
      case 8 -> get(i, "query: address at the length limit", "/v1/geocode?q="
          + enc(pick(r, new String[] {"a", "北", "\uD841\uDF0E", "\uD83D\uDDFA", "é"}).repeat(995 + r.nextInt(10))), defaultBudgetMs);
      case 9 -> get(i, "query: raw UTF-8 and raw specials", "/v1/geocode?q=" + rawSpecials(r), defaultBudgetMs);
      case 10 -> get(i, "query: many parameters", "/v1/geocode?" + "a=1&".repeat(500 + r.nextInt(2500)) + "q=x", defaultBudgetMs);
      default -> get(i, "query: path games", pick(r, new String[] {
          "/v1/geocode/../metrics", "/v1/%2e%2e/metrics", "/v1/geo%ZZcode?q=x", "/v1//geocode?q=x", "/V1/GEOCODE?q=x",
          "/v1/geocode;jsessionid=1?q=x", "/v1/geocode?", "/v1/geocode?&&&", "/v1/geocode?=", "/v1/geocode?q",
          "/metrics?x=%ZZ", "/health/live?%", "/v1/reverse", "/nothing/here", "/" + "a".repeat(5000),
          "/v1/geocode?q=%00", "/v1/geocode?q=%0D%0AX-Injected:%201",
      }), defaultBudgetMs);
    };
  }

  private String nastyText(SplittableRandom r) {
    StringBuilder sb = new StringBuilder();
    if (r.nextBoolean()) {
      sb.append(pick(r, ADDRESSES));
    }
    for (int n = 1 + r.nextInt(6); n > 0; n--) {
      sb.append(pick(r, NASTY));
    }
    return sb.toString();
  }

  private static String escapedBytes(SplittableRandom r, int n) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < n; k++) {
      sb.append('%').append(String.format("%02X", r.nextInt(256)));
    }
    return sb.toString();
  }

  private static String malformedEscape(SplittableRandom r) {
    String bad = pick(r, new String[] {"%", "%Z", "%ZZ", "%G5", "%4", "%%", "%u2603", "%-1", "% 1"});
    return switch (r.nextInt(4)) {
      case 0 -> "q=" + bad;
      case 1 -> "q=Paris" + bad;
      case 2 -> "q=Paris&" + bad + "=1";
      default -> "lat=4" + bad + "5&lon=2";
    };
  }

  private static String unknownNames(SplittableRandom r) {
    StringBuilder sb = new StringBuilder();
    for (int n = 1 + r.nextInt(30); n > 0; n--) {
      sb.append('&').append("f").append(r.nextLong() >>> 1).append("_".repeat(r.nextInt(200))).append("=").append(r.nextInt());
    }
    return sb.toString();
  }

  private static String rawSpecials(SplittableRandom r) {
    String s = pick(r, new String[] {"Zürich", "東京", "a<b>c", "a\"b", "a{b}", "a|b", "a^b", "a`b", "a\\b", "a\u0001b"});
    // Raw bytes in the request line, one char per byte.
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
  }

  // ---- hostile JSON bodies ----

  private Case hostileBody(long i, SplittableRandom r) {
    return switch (r.nextInt(14)) {
      case 0 -> post(i, "body: malformed JSON", pick(r, new String[] {
          "{\"q\": ", "{q: \"Paris\"}", "{'q': 'Paris'}", "{\"q\": \"Paris\",}", "{\"q\": \"Paris\"} x", "{\"q\": \"a\\x\"}",
          "{\"q\": \"a\\uZZZZ\"}", "{\"q\": NaN}", "/* c */ {\"q\": \"x\"}", "{\"q\":\"x\"}}", "", " ", "[", "\"q\"", "42", "null",
          "{\"q\": \"un\u0001escaped\"}", "{\"q\": \"Paris\"}{\"q\": \"Berlin\"}", "{\"q\"\u0000: 1}",
      }).getBytes(StandardCharsets.UTF_8));
      case 1 -> post(i, "body: duplicate keys", pick(r, new String[] {
          "{\"q\":\"Paris\",\"q\":\"Berlin\"}", "{\"address\":{\"street\":\"a\",\"street\":\"b\"}}",
          "{\"q\":\"Paris\",\"budget_ms\":1,\"budget_ms\":2000}", "{\"lat\":1,\"lon\":2,\"lat\":3}",
      }).getBytes(StandardCharsets.UTF_8));
      case 2 -> post(i, "body: deep nesting", deep(r).getBytes(StandardCharsets.UTF_8));
      case 3 -> post(i, "body: wrong types", pick(r, new String[] {
          "{\"q\": 5}", "{\"q\": []}", "{\"q\": {}}", "{\"q\": true}", "{\"q\": null}", "{\"address\": \"Main St\"}",
          "{\"address\": {\"street\": 5, \"planet\": \"Mars\"}}", "{\"q\": \"x\", \"bbox\": [1, \"2\", 3, 4]}",
          "{\"q\": \"x\", \"bbox\": [1, 2, 3]}", "{\"q\": \"x\", \"budget_ms\": 1e999}", "{\"q\": \"x\", \"budget_ms\": 1.5}",
          "{\"q\": \"x\", \"budget_ms\": 123456789012345678901234567890}", "{\"q\": \"x\", \"budget_ms\": -3}",
          "{\"q\": \"x\", \"intent\": 1}", "{\"q\": \"x\", \"bbox\": [1e999, 0, 1, 1]}", "{\"q\": \"x\", \"language\": [\"en\"]}",
      }).getBytes(StandardCharsets.UTF_8));
      case 4 -> post(i, "body: nasty text", ("{\"q\": " + jsonString(nastyText(r), r) + "}").getBytes(StandardCharsets.UTF_8));
      case 5 -> post(i, "body: structured nasty", ("{\"address\": {\"street\": " + jsonString(nastyText(r), r)
          + ", \"locality\": " + jsonString(pick(r, NASTY), r) + ", \"" + pick(r, new String[] {"unit", "postcode", "planet", ""})
          + "\": \"x\"}}").getBytes(StandardCharsets.UTF_8));
      case 6 -> post(i, "body: other encodings", otherEncoding(r));
      case 7 -> post(i, "body: random bytes", randomBytes(r, 1 + r.nextInt(300)));
      case 8 -> post(i, "body: near and over the size limit", ("{\"q\": \"" + "a".repeat(60_000 + r.nextInt(10_000)) + "\"}")
          .getBytes(StandardCharsets.UTF_8));
      case 9 -> chunked(i, r);
      case 10 -> raw(i, "body: content-length past the body", ("POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + (20 + r.nextInt(1000)) + "\r\n\r\n{\"q\":").getBytes(StandardCharsets.ISO_8859_1),
          false);
      case 11 -> post(i, "body: reverse fields", ("{\"lat\": " + jsonNumber(r) + ", \"lon\": " + jsonNumber(r) + "}")
          .getBytes(StandardCharsets.UTF_8));
      case 12 -> post(i, "body: many keys", manyKeys(r).getBytes(StandardCharsets.UTF_8));
      default -> post(i, "body: valid", ("{\"q\": " + jsonString(pick(r, ADDRESSES), r) + "}").getBytes(StandardCharsets.UTF_8));
    };
  }

  private static String deep(SplittableRandom r) {
    int depth = 100 + r.nextInt(20_000);
    String open = r.nextBoolean() ? "[" : "{\"a\":";
    String close = open.equals("[") ? "]" : "}";
    return "{\"q\":\"x\",\"bbox\":" + open.repeat(depth) + "1" + close.repeat(depth) + "}";
  }

  private static String jsonNumber(SplittableRandom r) {
    return pick(r, new String[] {"45", "-45.5", "1e2", "1E-400", "1e999", "-0", "0.0000001", "123456789012345678901234567890",
        "\"45\"", "\"0x1p4\"", "\"45d\"", "null", "[]", "90.0000001"});
  }

  /** {@code s} as a JSON string: escaped properly, or with its control characters left raw. */
  private static String jsonString(String s, SplittableRandom r) {
    StringBuilder sb = new StringBuilder("\"");
    boolean raw = r.nextInt(5) == 0;
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if ((c < 0x20 || Character.isSurrogate(c)) && !raw) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  private static byte[] otherEncoding(SplittableRandom r) {
    String json = "{\"q\": \"Zürich\"}";
    return switch (r.nextInt(4)) {
      case 0 -> json.getBytes(StandardCharsets.UTF_16);
      case 1 -> json.getBytes(StandardCharsets.UTF_16LE);
      case 2 -> json.getBytes(StandardCharsets.ISO_8859_1);
      default -> ("\uFEFF" + json).getBytes(StandardCharsets.UTF_8);
    };
  }

  private static byte[] randomBytes(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int k = 0; k < n; k++) {
      b[k] = (byte) r.nextInt(256);
    }
    return b;
  }

  private static String manyKeys(SplittableRandom r) {
    StringBuilder sb = new StringBuilder("{\"q\":\"x\"");
    for (int n = 100 + r.nextInt(3000); n > 0; n--) {
      sb.append(",\"k").append(n).append("\":").append(n);
    }
    return sb.append('}').toString();
  }

  private Case chunked(long i, SplittableRandom r) {
    String head = "POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    String body = "{\"q\": \"Paris, France\"}";
    return switch (r.nextInt(6)) {
      case 0 -> raw(i, "chunked: valid, split", (head + chunks(body, r) + "0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), true);
      case 1 -> raw(i, "chunked: bad size", (head + pick(r, new String[] {"ZZ", "-1", "0x10", "ffffffffffffffff", " 5", "5 5", ""})
          + "\r\n" + body + "\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), true);
      case 2 -> raw(i, "chunked: size past the data", (head + "ff\r\n" + body + "\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1),
          false);
      case 3 -> raw(i, "chunked: over the body limit", (head + ("4000\r\n" + "a".repeat(0x4000) + "\r\n").repeat(5 + r.nextInt(5))
          + "0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), true);
      case 4 -> raw(i, "chunked: no last chunk", (head + chunks(body, r)).getBytes(StandardCharsets.ISO_8859_1), false);
      default -> raw(i, "chunked: extensions and trailers", (head + Integer.toHexString(body.length()) + ";ext=" + "x".repeat(r.nextInt(3000))
          + "\r\n" + body + "\r\n0\r\nX-Trailer: " + "t".repeat(r.nextInt(10_000)) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), true);
    };
  }

  private static String chunks(String body, SplittableRandom r) {
    StringBuilder sb = new StringBuilder();
    int at = 0;
    while (at < body.length()) {
      int n = Math.min(body.length() - at, 1 + r.nextInt(8));
      sb.append(Integer.toHexString(n)).append("\r\n").append(body, at, at + n).append("\r\n");
      at += n;
    }
    return sb.toString();
  }

  // ---- malformed HTTP ----

  private Case malformedHttp(long i, SplittableRandom r) {
    String ok = "/v1/geocode?q=Paris";
    String h = "Host: localhost\r\nConnection: close\r\n";
    String[] whole = {
        "GARBAGE\r\n\r\n",
        "GET\r\n\r\n",
        "GET " + ok + "\r\n\r\n",
        "GET " + ok + " HTTP/9.9\r\n" + h + "\r\n",
        "GET " + ok + " HTTX/1.1\r\n" + h + "\r\n",
        "get " + ok + " HTTP/1.1\r\n" + h + "\r\n",
        "FOO " + ok + " HTTP/1.1\r\n" + h + "\r\n",
        "DELETE " + ok + " HTTP/1.1\r\n" + h + "\r\n",
        "OPTIONS * HTTP/1.1\r\n" + h + "\r\n",
        "CONNECT localhost:443 HTTP/1.1\r\n" + h + "\r\n",
        "TRACE " + ok + " HTTP/1.1\r\n" + h + "\r\n",
        "GET http://evil.example" + ok + " HTTP/1.1\r\n" + h + "\r\n",
        "GET " + ok + " HTTP/1.0\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "Bad Header: x\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "NoColon\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "X-Nul: a\u0000b\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "X-Folded: a\r\n b\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + ": empty-name\r\n\r\n",
        "GET " + ok + " HTTP/1.1\n" + "Host: localhost\nConnection: close\n\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "X-Big: " + "a".repeat(9 * 1024) + "\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + ("X-Many: 0123456789012345678901234567890123456789\r\n").repeat(250) + "\r\n",
        "GET /v1/geocode?q=" + "a".repeat(17_000) + " HTTP/1.1\r\n" + h + "\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "Request-Timeout: " + pick(r, BUDGETS) + "\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "X-Request-Id: " + "\u00ff".repeat(80) + "\r\ntraceparent: 00-zz-yy-01\r\n\r\n",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Content-Length: 5\r\nContent-Length: 7\r\n\r\n{\"q\":1}",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Content-Length: -5\r\n\r\n",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Content-Length: abc\r\n\r\n",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{}}\r\n0\r\n\r\n",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Transfer-Encoding: xchunked\r\n\r\n",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Content-Encoding: gzip\r\nContent-Length: 4\r\n\r\n\u001f\u008b\u0008\u0000",
        "POST /v1/geocode HTTP/1.1\r\n" + h + "Expect: 100-continue\r\nContent-Length: 12\r\n\r\n{\"q\":\"Rome\"}",
        "\r\n\r\nGET " + ok + " HTTP/1.1\r\n" + h + "\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "Host: second\r\n\r\n",
        "GET " + ok + " HTTP/1.1\r\n" + h + "Content-Length: 0\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n"
            + "Connection: Upgrade, HTTP2-Settings\r\n\r\n",
        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    };
    String[] partial = {
        "",
        "G",
        "GET " + ok + " HTTP/1.1\r\nHost: loc",
        "GET " + ok + " HTTP/1.1\r\n" + h,
        "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003",
        "\r\n",
    };
    if (r.nextInt(6) == 0) {
      int k = r.nextInt(partial.length);
      return raw(i, "http: incomplete #" + k, partial[k].getBytes(StandardCharsets.ISO_8859_1), false);
    }
    int k = r.nextInt(whole.length);
    return raw(i, "http: malformed #" + k, whole[k].getBytes(StandardCharsets.ISO_8859_1), true);
  }

  // ---- building ----

  private static Case get(long i, String kind, String target, long budgetMs) {
    return new Case(i, kind, RawHttp.get(target).getBytes(StandardCharsets.ISO_8859_1), budgetMs, true);
  }

  private Case post(long i, String kind, byte[] body) {
    return new Case(i, kind, RawHttp.post("/v1/geocode", body), maxBudgetMs, true);
  }

  private Case raw(long i, String kind, byte[] bytes, boolean complete) {
    return new Case(i, kind, bytes, maxBudgetMs, complete);
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String fmt(double d) {
    return String.format(java.util.Locale.ROOT, "%.5f", d);
  }

  private static String pick(SplittableRandom r, String[] from) {
    return from[r.nextInt(from.length)];
  }
}
