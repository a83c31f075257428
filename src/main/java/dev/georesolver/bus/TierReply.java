package dev.georesolver.bus;

import dev.georesolver.geo.FailureClass;
import io.vertx.core.json.JsonObject;

/**
 * A tier's answer to one rung visit. Immutable.
 *
 * @param kind hit, failed (classified) or skipped (no call made)
 * @param failureClass for {@link Kind#FAILED}: the class of the last attempt
 * @param skipReason for {@link Kind#SKIPPED}: {@code breaker_open}, {@code rate_limited},
 *     {@code admission}, {@code unsupported}; or, made up by the chain when the tier did not answer,
 *     {@code deadline} or {@code unavailable} (reported without the {@code skipped_} prefix)
 * @param detail short operator-facing reason, or null
 * @param hit for {@link Kind#HIT}: the point
 * @param tries HTTP attempts made (0 when skipped)
 */
public record TierReply(Kind kind, FailureClass failureClass, String skipReason, String detail, Hit hit, int tries) {

  /** What happened at the rung. */
  public enum Kind {
    HIT,
    FAILED,
    SKIPPED
  }

  public static TierReply hit(Hit hit, int tries) {
    return new TierReply(Kind.HIT, null, null, null, hit, tries);
  }

  public static TierReply failed(FailureClass c, String detail, int tries) {
    return new TierReply(Kind.FAILED, c, null, detail, null, tries);
  }

  public static TierReply skipped(String reason, String detail, int tries) {
    return new TierReply(Kind.SKIPPED, null, reason, detail, null, tries);
  }

  /** The attempt outcome name used in result JSON. */
  public String outcome() {
    return switch (kind) {
      case HIT -> "hit";
      case FAILED -> failureClass.wire();
      case SKIPPED -> skipReason.equals("deadline") || skipReason.equals("unavailable") ? skipReason : "skipped_" + skipReason;
    };
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("kind", kind.name())
        .put("failure_class", failureClass == null ? null : failureClass.wire())
        .put("skip_reason", skipReason)
        .put("detail", detail)
        .put("hit", hit == null ? null : hit.toJson())
        .put("tries", tries);
  }

  public static TierReply fromJson(JsonObject j) {
    String fc = j.getString("failure_class");
    JsonObject h = j.getJsonObject("hit");
    return new TierReply(Kind.valueOf(j.getString("kind")), fc == null ? null : FailureClass.fromWire(fc),
        j.getString("skip_reason"), j.getString("detail"), h == null ? null : Hit.fromJson(h), j.getInteger("tries"));
  }
}
