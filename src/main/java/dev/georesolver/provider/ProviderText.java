package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.logging.OneLine;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes text a provider wrote safe to store, return and log: labels, precisions, CRS names and
 * address components of its candidates, and every failure detail (its error messages, and exception messages that may
 * quote its bytes). A provider is outside the trust boundary, like a client, and may echo the
 * request — and so the tier's credential — or send megabytes, newlines and terminal escapes.
 *
 * <p>{@link #clean(String, int)} is the one redaction function; in order it
 * <ol>
 *   <li>redacts the tier's own credential value (as sent, and percent-encoded as it appears in a
 *       URL), and anything shaped like the configured credential parameter ({@code key=…}) or
 *       header ({@code X-Api-Key: …}, case-insensitive), each replaced by {@value #REDACTED};
 *   <li>escapes every control character ({@link OneLine#escapeControls}), so the text cannot write
 *       a log line of its own or carry escapes into an answer;
 *   <li>truncates to a bound, in UTF-16 units without splitting a surrogate pair, marking the cut
 *       with {@value #ELLIPSIS}.
 * </ol>
 * Redaction runs on a window a little longer than the bound before the cut, so a credential that
 * straddles the cut is never left half shown, and a body-sized text costs no more than a short one.
 *
 * <p>The tier applies {@link #clean(ProviderAnswer)} to every answer its HTTP adapter gives, before
 * anything else sees it. Text that needs no change is returned as the same instance, so an ordinary
 * answer costs a few scans of short strings. Immutable and thread-safe.
 */
public final class ProviderText {

  /** What a hidden credential is shown as. */
  public static final String REDACTED = "[redacted]";
  /** Marks text that was cut at its bound. */
  public static final String ELLIPSIS = "…";
  /** Longest failure detail kept, UTF-16 units (before {@link #ELLIPSIS}). */
  public static final int MAX_DETAIL_CHARS = 256;
  /** Longest candidate label kept, UTF-16 units (before {@link #ELLIPSIS}). */
  public static final int MAX_LABEL_CHARS = 512;
  /** Longest precision or CRS name kept, UTF-16 units (before {@link #ELLIPSIS}). */
  public static final int MAX_CODE_CHARS = 128;
  /** Longest address component kept, UTF-16 units (before {@link #ELLIPSIS}). */
  public static final int MAX_COMPONENT_CHARS = 256;

  private static final ProviderText NONE = new ProviderText(null, null);

  /** Exact forms of the credential to hide, longest first. */
  private final List<String> values;
  /** The credential parameter or header followed by its value, or null. */
  private final Pattern shaped;
  /** The extra length redaction looks at past the bound. */
  private final int window;

  private ProviderText(String raw, CredentialPlacement placement) {
    List<String> v = new ArrayList<>(2);
    if (raw != null && !raw.isEmpty()) {
      String encoded = URLEncoder.encode(raw, StandardCharsets.UTF_8);
      if (!encoded.equals(raw)) {
        v.add(encoded);
      }
      v.add(raw);
      v.sort((a, b) -> b.length() - a.length());
    }
    this.values = List.copyOf(v);
    this.shaped = raw == null || placement == null ? null : shape(placement);
    int longest = values.isEmpty() ? 0 : values.get(0).length();
    int name = placement == null ? 0 : Math.max(len(placement.header()), len(placement.queryParam()));
    this.window = 2 * longest + name + 16;
  }

  private static int len(String s) {
    return s == null ? 0 : s.length();
  }

  /** The parameter ({@code name=value}) or header ({@code Name: value}) the credential travels in. */
  private static Pattern shape(CredentialPlacement p) {
    if (p.queryParam() != null) {
      return Pattern.compile("(?<![A-Za-z0-9_.-])(" + Pattern.quote(p.queryParam()) + ")(\\s*=\\s*)[^&\\s\"'<>,;]+",
          Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }
    return Pattern.compile("(?<![A-Za-z0-9_-])(" + Pattern.quote(p.header()) + ")(\"?\\s*[:=]\\s*\"?)"
        + "(?:(?:Bearer|Basic|Token)\\s+)?[^\\s\"'<>,;&]+", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  }

  /**
   * The cleaner for a tier.
   *
   * @param credential the tier's credential as sent, or null when it has none (then text is only
   *     escaped and bounded)
   * @param placement where the credential goes on the request, or null
   */
  public static ProviderText forTier(String credential, CredentialPlacement placement) {
    return credential == null ? NONE : new ProviderText(credential, placement);
  }

  /** A cleaner that knows no credential: it escapes and bounds. */
  public static ProviderText none() {
    return NONE;
  }

  /** {@code text} cleaned as a failure detail with {@code credential} placed at {@code placement} redacted. */
  public static String clean(String text, String credential, CredentialPlacement placement) {
    return forTier(credential, placement).clean(text, MAX_DETAIL_CHARS);
  }

  /** {@code text} escaped and bounded as a failure detail, for text that cannot hold a credential. */
  public static String bound(String text) {
    return NONE.clean(text, MAX_DETAIL_CHARS);
  }

  /**
   * {@code text} with the credential redacted, control characters escaped and at most
   * {@code maxChars} UTF-16 units kept (plus {@link #ELLIPSIS} when cut); the same instance when
   * nothing changes; null stays null.
   */
  public String clean(String text, int maxChars) {
    if (text == null) {
      return null;
    }
    String t = text.length() > maxChars + window ? text.substring(0, maxChars + window) : text;
    t = OneLine.escapeControls(redact(t));
    return t.length() > maxChars ? cut(t, maxChars) : t;
  }

  private String redact(String t) {
    if (values.isEmpty()) {
      return t;
    }
    String out = t;
    for (String v : values) {
      if (out.contains(v)) {
        out = out.replace(v, REDACTED);
      }
    }
    if (shaped != null && (out.indexOf('=') >= 0 || out.indexOf(':') >= 0)) {
      Matcher m = shaped.matcher(out);
      if (m.find()) {
        out = m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + r.group(2) + REDACTED));
      }
    }
    return out;
  }

  private static String cut(String t, int maxChars) {
    int end = maxChars;
    if (end > 0 && Character.isHighSurrogate(t.charAt(end - 1))) {
      end--;
    }
    return t.substring(0, end) + ELLIPSIS;
  }

  /**
   * The answer with every provider-written text cleaned: a failure's detail
   * ({@value #MAX_DETAIL_CHARS}), each candidate's label ({@value #MAX_LABEL_CHARS}), precision and
   * CRS name ({@value #MAX_CODE_CHARS}) and every address component ({@value #MAX_COMPONENT_CHARS}).
   * The same instance when nothing changes.
   */
  public ProviderAnswer clean(ProviderAnswer answer) {
    if (answer instanceof ProviderAnswer.Failed f) {
      String d = clean(f.detail(), MAX_DETAIL_CHARS);
      return d == f.detail() ? f : new ProviderAnswer.Failed(f.failureClass(), d, f.retryAfterMs());
    }
    if (answer instanceof ProviderAnswer.Found found) {
      List<RawHit> hits = found.hits();
      List<RawHit> cleaned = null;
      for (int i = 0; i < hits.size(); i++) {
        RawHit h = hits.get(i);
        RawHit c = clean(h);
        if (c != h && cleaned == null) {
          cleaned = new ArrayList<>(hits.subList(0, i));
        }
        if (cleaned != null) {
          cleaned.add(c);
        }
      }
      return cleaned == null ? found : new ProviderAnswer.Found(cleaned);
    }
    return answer;
  }

  private RawHit clean(RawHit h) {
    String label = clean(h.label(), MAX_LABEL_CHARS);
    String precision = clean(h.precision(), MAX_CODE_CHARS);
    String crs = clean(h.crs(), MAX_CODE_CHARS);
    Address address = h.address().map(v -> clean(v, MAX_COMPONENT_CHARS));
    if (label == h.label() && precision == h.precision() && crs == h.crs() && address == h.address()) {
      return h;
    }
    return new RawHit(h.x(), h.y(), crs, h.confidence(), label, precision, h.distanceM(), h.observedAtMs(), address);
  }
}
