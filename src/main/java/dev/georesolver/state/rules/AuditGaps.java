package dev.georesolver.state.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.georesolver.bus.AuditEvent;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * Gap records: what makes the audit trail's completeness provable. A record that never reached the
 * store leaves a record in its place, chained like any other, saying how many are missing, over
 * which window and why, so {@code audit verify} reports a hole instead of an intact chain over a
 * silent one. Pure and thread-safe.
 *
 * <p>Two causes:
 * <ul>
 *   <li>{@link #BUFFER_FULL}: a writer's buffer (a chain instance, the reconciler) refused records
 *       while the store was slow or down. The writer knows the exact count per tenant and the window
 *       of their times; its gap record follows as soon as its buffer has room again.
 *   <li>{@link #WRITER_LOST}: a writer stopped without closing its session (a crash, a kill, a node
 *       cut off), so whatever it held in memory is gone and nobody can count it. Every writer renews
 *       its session with the store while it runs and closes it once its buffer is drained on a clean
 *       stop; a session not renewed for {@link #STALE_MS} is declared lost by the store's sweep, which
 *       adds one gap record to each tenant's chain with the bound {@code at_most} (the writer's
 *       buffer size) and the window since the writer was last seen. Its id is derived from the
 *       session and when it was last seen, so two sweepers (two resolvers on one Redis) record it
 *       once.
 * </ul>
 *
 * <p>A gap record's body, in canonical form (keys sorted, nulls left out): {@code at_most},
 * {@code cause}, {@code count}, {@code from_ts_ms}, {@code id}, {@code kind} ({@code "gap"}),
 * {@code session}, {@code tenant}, {@code to_ts_ms}, {@code ts}, {@code ts_ms}.
 */
public final class AuditGaps {

  /** The cause of records a full buffer refused. */
  public static final String BUFFER_FULL = "buffer_full";
  /** The cause of records lost with a writer that stopped without closing its session. */
  public static final String WRITER_LOST = "writer_lost";
  /** How often a running writer renews its session, milliseconds. */
  public static final long RENEW_MS = 10_000;
  /** A session not renewed for this long is lost, milliseconds (six renewals missed). */
  public static final long STALE_MS = 60_000;

  private static final JsonFactory JSON = new JsonFactory();

  private AuditGaps() {}

  /**
   * The gap record of {@code count} records of {@code tenant} a full buffer refused, the first at
   * {@code fromMs} and the last at {@code toMs} (epoch ms), recorded at {@code nowMs} under {@code id}.
   */
  public static AuditEvent refused(String id, String tenant, long count, long fromMs, long toMs, long nowMs) {
    return new AuditEvent(tenant, id, nowMs, body(id, tenant, BUFFER_FULL, count, null, null, fromMs, toMs, nowMs));
  }

  /**
   * The gap record in {@code tenant}'s chain for the lost writer {@code session}, last seen at
   * {@code lastSeenMs}, which held at most {@code atMost} records, declared lost at {@code nowMs}.
   */
  public static AuditEvent lost(String session, String tenant, long atMost, long lastSeenMs, long nowMs) {
    String id = "gap-" + session + "-" + Long.toHexString(lastSeenMs);
    return new AuditEvent(tenant, id, nowMs, body(id, tenant, WRITER_LOST, null, atMost, session, lastSeenMs, nowMs, nowMs));
  }

  /** Whether a session last renewed at {@code renewedMs} is lost at {@code nowMs}. */
  public static boolean stale(long renewedMs, long nowMs) {
    return nowMs - renewedMs > STALE_MS;
  }

  private static String body(String id, String tenant, String cause, Long count, Long atMost, String session, long fromMs, long toMs,
      long nowMs) {
    StringWriter w = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(w)) {
      g.writeStartObject();
      if (atMost != null) {
        g.writeNumberField("at_most", atMost);
      }
      g.writeStringField("cause", cause);
      if (count != null) {
        g.writeNumberField("count", count);
      }
      g.writeNumberField("from_ts_ms", fromMs);
      g.writeStringField("id", id);
      g.writeStringField("kind", "gap");
      if (session != null) {
        g.writeStringField("session", session);
      }
      g.writeStringField("tenant", tenant);
      g.writeNumberField("to_ts_ms", toMs);
      g.writeStringField("ts", Instant.ofEpochMilli(nowMs).toString());
      g.writeNumberField("ts_ms", nowMs);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  /**
   * What a record says of completeness: null for an ordinary record, else its cause, its exact count
   * ({@code -1} when unknown) and its bound ({@code -1} when exact).
   */
  public record Gap(String cause, long count, long atMost) {}

  /** The gap {@code body} records, or null when it is not a gap record (or not readable). */
  public static Gap of(String body) {
    if (body == null || !body.contains("\"gap\"")) {
      return null;
    }
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String kind = null;
      String cause = null;
      long count = -1;
      long atMost = -1;
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "kind" -> kind = v == JsonToken.VALUE_STRING ? p.getText() : null;
          case "cause" -> cause = v == JsonToken.VALUE_STRING ? p.getText() : null;
          case "count" -> count = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
          case "at_most" -> atMost = v == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
          default -> p.skipChildren();
        }
      }
      return "gap".equals(kind) ? new Gap(cause == null ? "?" : cause, count, atMost) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The gaps a walk of one chain found: gap records, records known missing, and lost writers with their bound. */
  public record Tally(long records, long missing, long writersLost, long atMost) {
    /** No gap. */
    public static final Tally NONE = new Tally(0, 0, 0, 0);

    /** This tally with {@code g} counted. */
    public Tally plus(Gap g) {
      boolean exact = g.count() >= 0;
      return new Tally(records + 1, missing + (exact ? g.count() : 0), writersLost + (exact ? 0 : 1),
          atMost + (exact ? 0 : Math.max(0, g.atMost())));
    }

    /** One line for an operator: {@code "2 gap record(s): 37 record(s) refused by a full buffer, 1 writer lost (up to 10000)"}. */
    public String describe() {
      StringBuilder b = new StringBuilder().append(records).append(" gap record(s)");
      String sep = ": ";
      if (missing > 0 || writersLost == 0) {
        b.append(sep).append(missing).append(" record(s) refused by a full buffer");
        sep = ", ";
      }
      if (writersLost > 0) {
        b.append(sep).append(writersLost).append(" writer(s) lost without closing (up to ").append(atMost).append(" record(s))");
      }
      return b.toString();
    }
  }
}
