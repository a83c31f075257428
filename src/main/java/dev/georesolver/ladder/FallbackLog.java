package dev.georesolver.ladder;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One log record per fallback activation: a walk that answered below its first rung (a degraded
 * answer), or that ended in a refusal after at least one rung failed or was skipped (a refusal
 * where every rung only found nothing is an honest "not found", not a fallback).
 *
 * <p>Replays and coalesced deliveries share a walk that was already recorded, so they are not
 * recorded again. The record is an INFO event of logger {@code dev.georesolver.fallback} whose
 * message is {@code fallback chain activated} and whose structured fields are {@link #fields}:
 * <ul>
 *   <li>{@code event} {@code "fallback"}, {@code fallback_chain_activated} {@code true};
 *   <li>{@code status} ({@code resolved} | {@code refused}), {@code degraded}, {@code reason}
 *       (refusals);
 *   <li>{@code rung} (the tier that answered), {@code rung_index} (its place in the ladder the
 *       walk went down, 0 = the first eligible rung; for a refusal the number of rungs),
 *       {@code first_rung} (the first eligible rung's name);
 *   <li>{@code claim}, {@code confidence}, {@code transform} (source CRS) and
 *       {@code transform_definition_hash};
 *   <li>{@code idempotency_key}, {@code trace_id}, {@code intent}, {@code direction},
 *       {@code manifest_revision}, {@code elapsed_ms};
 *   <li>{@code attempts}: each rung visited as {@code tier:outcome:tries:ms}, joined by
 *       {@code " > "} (details are left out: they are provider text).
 * </ul>
 * Null fields are left out. No credential can reach the record: it holds only the result's own
 * fields. Pure apart from the logger; thread-safe.
 */
public final class FallbackLog {

  /** The logger the records are written to, so an operator can route or silence them apart. */
  public static final String LOGGER = "dev.georesolver.fallback";

  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  private FallbackLog() {}

  /** Writes the record when {@code r} is a fallback activation; otherwise does nothing. */
  public static void record(ResolveResult r) {
    if (!log.isInfoEnabled() || !activated(r)) {
      return;
    }
    LoggingEventBuilder e = log.atInfo().setMessage("fallback chain activated");
    for (Map.Entry<String, Object> f : fields(r)) {
      e = e.addKeyValue(f.getKey(), f.getValue());
    }
    e.log();
  }

  /** Whether {@code r} is a fallback activation (see the class comment). */
  public static boolean activated(ResolveResult r) {
    if (r.replayAgeS() != null || r.coalesced()) {
      return false;
    }
    if (r.resolved()) {
      return r.degraded();
    }
    return r.attempts().stream().anyMatch(a -> !foundNothing(a.outcome()));
  }

  private static boolean foundNothing(String outcome) {
    return outcome.equals("no_match") || outcome.equals("out_of_bbox") || outcome.equals("rejected");
  }

  /** The record's structured fields, in order; null values are left out. */
  public static List<Map.Entry<String, Object>> fields(ResolveResult r) {
    List<Attempt> attempts = r.attempts();
    List<Map.Entry<String, Object>> f = new ArrayList<>(20);
    put(f, "event", "fallback");
    put(f, "fallback_chain_activated", true);
    put(f, "status", r.status());
    put(f, "degraded", r.degraded());
    put(f, "reason", r.reason());
    put(f, "rung", r.resolutionSource());
    put(f, "rung_index", rungIndex(r));
    put(f, "first_rung", attempts.isEmpty() ? null : attempts.get(0).tier());
    put(f, "claim", r.claim() == null ? null : r.claim().wire());
    put(f, "confidence", r.confidence());
    put(f, "transform", r.transform() == null ? null : r.transform().sourceCrs());
    put(f, "transform_definition_hash", r.transform() == null || r.transform().definitionHash().isEmpty()
        ? null : r.transform().definitionHash());
    put(f, "idempotency_key", r.idempotencyKey());
    put(f, "trace_id", r.traceId());
    put(f, "intent", r.intent());
    put(f, "direction", r.direction().name().toLowerCase(Locale.ROOT));
    put(f, "manifest_revision", r.manifestRevision());
    put(f, "elapsed_ms", r.elapsedMs());
    put(f, "attempts", summary(attempts));
    return f;
  }

  private static Integer rungIndex(ResolveResult r) {
    List<Attempt> attempts = r.attempts();
    if (!r.resolved()) {
      return attempts.size();
    }
    for (int i = 0; i < attempts.size(); i++) {
      if (attempts.get(i).tier().equals(r.resolutionSource())) {
        return i;
      }
    }
    return null;
  }

  /** {@code tier:outcome:tries:ms > …}. */
  static String summary(List<Attempt> attempts) {
    StringBuilder sb = new StringBuilder(24 * attempts.size());
    for (Attempt a : attempts) {
      if (!sb.isEmpty()) {
        sb.append(" > ");
      }
      sb.append(a.tier()).append(':').append(a.outcome()).append(':').append(a.tries()).append(':').append(a.ms());
    }
    return sb.toString();
  }

  private static void put(List<Map.Entry<String, Object>> f, String key, Object value) {
    if (value != null) {
      f.add(Map.entry(key, value));
    }
  }
}
