package dev.georesolver.bus;

import dev.georesolver.config.Manifest;
import dev.georesolver.geo.Bbox;
import dev.georesolver.normalize.AddressNormalizer;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates the public request contract shared by HTTP and the event bus: a JSON object
 * whose values may be JSON types or, from a query string, their text. Pure and thread-safe.
 *
 * <p>Every problem is reported, each naming its field. Nothing else happens to an invalid request.
 */
public final class RequestValidator {

  /** The longest address accepted, in characters (Unicode code points: an emoji is one). */
  public static final int MAX_ADDRESS_CHARS = 1000;

  private static final Set<String> FORWARD_FIELDS = Set.of("q", "address", "bbox", "intent", "budget_ms", "language");
  private static final Set<String> REVERSE_FIELDS = Set.of("lat", "lon", "intent", "budget_ms", "language");

  /**
   * Every field name a problem may carry for a request to the resolver's own API: its fields, the
   * structured address components, the budget header, and the parts of an HTTP request
   * ({@code body}, {@code query}, {@code path}, {@code request}). A fixed set, so that anything
   * counted by field (a metric label) stays bounded whatever names clients send.
   */
  public static final Set<String> PROBLEM_FIELDS = problemFields();

  /** The most problems one answer lists; the rest are dropped, so an answer stays small. */
  public static final int MAX_REPORTED_PROBLEMS = 20;

  private static final Pattern LANGUAGE = Pattern.compile("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*");
  private static final Pattern DIGITS = Pattern.compile("\\d+");
  /** A plain decimal number: no hexadecimal, no exponent, no type suffix such as {@code d} or {@code f}. */
  private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)");
  /** Longer number texts are refused before they are parsed. */
  private static final int MAX_NUMBER_CHARS = 32;

  private final Set<String> intents;
  private final String defaultIntent;
  private final long defaultBudgetMs;
  private final long maxBudgetMs;

  /**
   * @param intents the manifest's intent names
   * @param defaultIntent the intent of a request naming none
   * @param defaultBudgetMs the manifest's {@code budget_ms}
   * @param maxBudgetMs the manifest's {@code max_budget_ms}: larger budgets are capped
   */
  public RequestValidator(Set<String> intents, String defaultIntent, long defaultBudgetMs, long maxBudgetMs) {
    this.intents = Set.copyOf(intents);
    this.defaultIntent = defaultIntent;
    this.defaultBudgetMs = defaultBudgetMs;
    this.maxBudgetMs = maxBudgetMs;
  }

  /** The validator of a manifest's intents and budgets: what ingress and the chain both check. */
  public static RequestValidator forManifest(Manifest manifest) {
    return new RequestValidator(manifest.intentNames(), manifest.defaultIntent(), manifest.routing().budgetMs(),
        manifest.routing().maxBudgetMs());
  }

  /**
   * A validation outcome: a request and its budget, or the problems.
   *
   * @param request the request, or null when invalid
   * @param budgetMs the budget in milliseconds (defaulted and capped)
   * @param problems every problem found; empty when valid
   */
  public record Validated(ResolveRequest request, long budgetMs, List<FieldProblem> problems) {
    public boolean valid() {
      return problems.isEmpty();
    }
  }

  /**
   * Validates a request.
   *
   * @param body the request fields
   * @param direction forward or reverse
   * @param headerBudget the budget from a {@code Request-Timeout} header, or null; {@code budget_ms}
   *     in the body wins over it
   * @param traceId the trace id to give the request
   */
  public Validated validate(JsonObject body, Direction direction, String headerBudget, String traceId) {
    List<FieldProblem> problems = new ArrayList<>();
    Set<String> allowed = direction == Direction.FORWARD ? FORWARD_FIELDS : REVERSE_FIELDS;
    for (String k : body.fieldNames()) {
      if (!allowed.contains(k)) {
        // A key with no name can only be named by where it is.
        problems.add(k.isBlank()
            ? new FieldProblem("body", "has a field with a blank name")
            : new FieldProblem(k, "is not a known field (known: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")"));
      }
    }
    String intent = intent(body.getValue("intent"), problems);
    long budget = budget(body.getValue("budget_ms"), headerBudget, problems);
    String language = language(body.getValue("language"), problems);
    ResolveRequest req = direction == Direction.FORWARD
        ? forward(body, intent, language, traceId, problems)
        : reverse(body, intent, language, traceId, problems);
    return problems.isEmpty() ? new Validated(req, budget, List.of()) : new Validated(null, budget, List.copyOf(problems));
  }

  private ResolveRequest forward(JsonObject body, String intent, String language, String traceId, List<FieldProblem> problems) {
    Object q = body.getValue("q");
    Object address = body.getValue("address");
    String text = null;
    Map<String, String> components = Map.of();
    if (q != null && address != null) {
      problems.add(new FieldProblem("q", "give q or address, not both"));
    } else if (q != null) {
      text = addressText("q", q, problems);
    } else if (address != null) {
      components = components(address, problems);
      if (!components.isEmpty()) {
        text = joined(components);
        if (codePoints(text) > MAX_ADDRESS_CHARS) {
          problems.add(new FieldProblem("address", "must be at most " + MAX_ADDRESS_CHARS + " characters in all"));
        }
      }
    } else {
      problems.add(new FieldProblem("q", "is required (or give a structured address)"));
    }
    Bbox bbox = bbox(body.getValue("bbox"), problems);
    return problems.isEmpty()
        ? new ResolveRequest(Direction.FORWARD, text, components, bbox, null, null, intent, language, traceId)
        : null;
  }

  private ResolveRequest reverse(JsonObject body, String intent, String language, String traceId, List<FieldProblem> problems) {
    Double lat = number("lat", body.getValue("lat"), -90, 90, problems);
    Double lon = number("lon", body.getValue("lon"), -180, 180, problems);
    return problems.isEmpty()
        ? new ResolveRequest(Direction.REVERSE, null, Map.of(), null, lat, lon, intent, language, traceId)
        : null;
  }

  private static String addressText(String field, Object v, List<FieldProblem> problems) {
    if (!(v instanceof String s)) {
      problems.add(new FieldProblem(field, "must be a string"));
      return null;
    }
    String t = s.strip();
    if (t.isEmpty()) {
      problems.add(new FieldProblem(field, "must not be empty"));
      return null;
    }
    if (onlySeparatorsOrPunctuation(t)) {
      problems.add(new FieldProblem(field, "must contain an address, not only spaces or punctuation"));
      return null;
    }
    int length = codePoints(t);
    if (length > MAX_ADDRESS_CHARS) {
      problems.add(new FieldProblem(field, "must be at most " + MAX_ADDRESS_CHARS + " characters (got " + length + ")"));
      return null;
    }
    String bad = badCharacter(t);
    if (bad != null) {
      problems.add(new FieldProblem(field, bad));
      return null;
    }
    if (!AddressNormalizer.standard().hasLetterOrDigit(t)) {
      problems.add(new FieldProblem(field, "must contain a letter or a digit"));
      return null;
    }
    return t;
  }

  private static int codePoints(String t) {
    return t.codePointCount(0, t.length());
  }

  /** What is wrong with the characters of {@code t}, or null: control characters, broken surrogate pairs. */
  private static String badCharacter(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (Character.getType(c) == Character.CONTROL) {
        return "must not contain control characters";
      }
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < t.length() && Character.isLowSurrogate(t.charAt(i + 1))) {
          i++;
        } else {
          return "must be valid Unicode text (it has an unpaired surrogate)";
        }
      }
    }
    return null;
  }

  /** True when there is nothing but separators (no-break spaces included) and punctuation. */
  private static boolean onlySeparatorsOrPunctuation(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (!Character.isWhitespace(c) && !Character.isSpaceChar(c) && !isPunctuation(c)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPunctuation(char c) {
    return switch (Character.getType(c)) {
      case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
          Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION -> true;
      default -> false;
    };
  }

  private static Map<String, String> components(Object v, List<FieldProblem> problems) {
    if (!(v instanceof JsonObject o)) {
      problems.add(new FieldProblem("address", "must be an object with " + String.join(", ", AddressNormalizer.COMPONENT_ORDER)));
      return Map.of();
    }
    int before = problems.size();
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : o.fieldNames()) {
      String field = "address." + k;
      if (k.isBlank()) {
        problems.add(new FieldProblem("address", "has a component with a blank name"));
        continue;
      }
      if (!AddressNormalizer.COMPONENT_ORDER.contains(k)) {
        problems.add(new FieldProblem(field, "is not a known component (known: " + String.join(", ", AddressNormalizer.COMPONENT_ORDER) + ")"));
        continue;
      }
      Object c = o.getValue(k);
      if (c instanceof Number n) {
        c = n.toString();
      }
      String t = c == null ? null : addressText(field, c, problems);
      if (t != null) {
        out.put(k, t);
      }
    }
    if (out.isEmpty() && problems.size() == before) {
      problems.add(new FieldProblem("address", "must have at least one non-empty component"));
    }
    return out;
  }

  private static String joined(Map<String, String> components) {
    StringBuilder sb = new StringBuilder();
    for (String k : AddressNormalizer.COMPONENT_ORDER) {
      String v = components.get(k);
      if (v != null) {
        if (sb.length() > 0) {
          sb.append(", ");
        }
        sb.append(v);
      }
    }
    return sb.toString();
  }

  private static Bbox bbox(Object v, List<FieldProblem> problems) {
    if (v == null) {
      return null;
    }
    double[] d = new double[4];
    if (v instanceof String s) {
      String[] parts = s.split(",", -1);
      if (parts.length != 4) {
        problems.add(new FieldProblem("bbox", "must be four numbers minLon,minLat,maxLon,maxLat"));
        return null;
      }
      for (int i = 0; i < 4; i++) {
        Double n = decimal(parts[i]);
        if (n == null) {
          problems.add(new FieldProblem("bbox", "must be four numbers minLon,minLat,maxLon,maxLat ('" + shown(parts[i])
              + "' is not a number: plain decimals only)"));
          return null;
        }
        d[i] = n;
      }
    } else if (v instanceof JsonArray a && a.size() == 4) {
      for (int i = 0; i < 4; i++) {
        if (!(a.getValue(i) instanceof Number n)) {
          problems.add(new FieldProblem("bbox", "must be four numbers [minLon, minLat, maxLon, maxLat]"));
          return null;
        }
        d[i] = n.doubleValue();
      }
    } else {
      problems.add(new FieldProblem("bbox", "must be four numbers minLon,minLat,maxLon,maxLat"));
      return null;
    }
    try {
      return Bbox.of(d[0], d[1], d[2], d[3]);
    } catch (IllegalArgumentException e) {
      problems.add(new FieldProblem("bbox", e.getMessage()));
      return null;
    }
  }

  private String intent(Object v, List<FieldProblem> problems) {
    if (v == null) {
      return defaultIntent;
    }
    if (!(v instanceof String s) || !intents.contains(s)) {
      problems.add(new FieldProblem("intent", "must be one of " + String.join(", ", new java.util.TreeSet<>(intents))));
      return null;
    }
    return s;
  }

  private long budget(Object v, String header, List<FieldProblem> problems) {
    Object raw = v != null ? v : header;
    String field = v != null ? "budget_ms" : "Request-Timeout";
    if (raw == null) {
      return defaultBudgetMs;
    }
    long ms;
    if (raw instanceof Integer || raw instanceof Long) {
      ms = ((Number) raw).longValue();
    } else if (raw instanceof java.math.BigInteger b) {
      // JSON integers past a long decode as BigInteger: over the maximum, so capped below.
      ms = b.max(java.math.BigInteger.ZERO).min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    } else if (raw instanceof String s && DIGITS.matcher(s.strip()).matches()) {
      // More digits than a long holds is still a budget over the maximum: capped below, not refused.
      String digits = s.strip().replaceFirst("^0+(?=\\d)", "");
      ms = digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
    } else {
      problems.add(new FieldProblem(field, "must be a positive integer number of milliseconds"));
      return defaultBudgetMs;
    }
    if (ms <= 0) {
      problems.add(new FieldProblem(field, "must be a positive integer number of milliseconds"));
      return defaultBudgetMs;
    }
    return Math.min(ms, maxBudgetMs);
  }

  private static String language(Object v, List<FieldProblem> problems) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || !LANGUAGE.matcher(s).matches()) {
      problems.add(new FieldProblem("language", "must be a language tag such as en or pt-BR"));
      return null;
    }
    return s;
  }

  private static Double number(String field, Object v, double min, double max, List<FieldProblem> problems) {
    if (v == null) {
      problems.add(new FieldProblem(field, "is required"));
      return null;
    }
    double d;
    if (v instanceof Number n) {
      d = n.doubleValue();
    } else if (v instanceof String s) {
      Double n = decimal(s);
      if (n == null) {
        problems.add(new FieldProblem(field, "must be a plain decimal number"));
        return null;
      }
      d = n;
    } else {
      problems.add(new FieldProblem(field, "must be a number"));
      return null;
    }
    if (!Double.isFinite(d) || d < min || d > max) {
      problems.add(new FieldProblem(field, "must be a number in [" + (long) min + ", " + (long) max + "]"));
      return null;
    }
    return d;
  }

  /** The value of a plain decimal number such as {@code -12.5}, or null for any other text. */
  private static Double decimal(String s) {
    String t = s.strip();
    if (t.length() > MAX_NUMBER_CHARS || !DECIMAL.matcher(t).matches()) {
      return null;
    }
    return Double.parseDouble(t);
  }

  /** A value quoted in a problem: stripped, and cut to a few characters. */
  private static String shown(String v) {
    String t = v.strip();
    return t.codePointCount(0, t.length()) <= MAX_NUMBER_CHARS ? t
        : t.substring(0, t.offsetByCodePoints(0, MAX_NUMBER_CHARS)) + "…";
  }

  private static Set<String> problemFields() {
    Set<String> all = new java.util.HashSet<>(FORWARD_FIELDS);
    all.addAll(REVERSE_FIELDS);
    AddressNormalizer.COMPONENT_ORDER.forEach(c -> all.add("address." + c));
    all.addAll(List.of("Request-Timeout", "body", "query", "path", "request"));
    return Set.copyOf(all);
  }

  /** The problem JSON (RFC 9457) for a list of problems; at most {@link #MAX_REPORTED_PROBLEMS} are listed. */
  public static JsonObject problemJson(List<FieldProblem> problems) {
    JsonArray errors = new JsonArray();
    problems.stream().limit(MAX_REPORTED_PROBLEMS).forEach(p -> errors.add(p.toJson()));
    FieldProblem first = problems.get(0);
    return new JsonObject()
        .put("type", "https://georesolver.dev/problems/invalid-request")
        .put("title", "Invalid request")
        .put("status", 400)
        .put("detail", first.field() + " " + first.message())
        .put("field", first.field())
        .put("errors", errors);
  }
}
