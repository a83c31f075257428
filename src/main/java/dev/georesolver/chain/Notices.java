package dev.georesolver.chain;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Hit;
import dev.georesolver.config.TierConfig;

import java.util.List;

/**
 * The result's {@code notice}: a sentence opener that says what the answer may claim, changing with
 * the rung ("From a cached result 4 h old, "). Pure and thread-safe.
 *
 * <p>A tier's manifest {@code notice:} overrides its claim's default; {@code {tier}} and
 * {@code {age}} are filled in.
 */
public final class Notices {

  private Notices() {}

  /** The opener for an answer from {@code tier}. */
  public static String opener(TierConfig tier, Hit hit, long nowMs) {
    String template = tier.notice() != null ? tier.notice() : switch (tier.claim()) {
      case EXACT -> "Matched to the address by {tier}, ";
      case OPEN_DATA -> "From open data via {tier}, ";
      case CACHED -> "From a cached result {age} old, ";
      case LOCALITY -> "Working from the city centre only, ";
    };
    String filled = template.replace("{tier}", tier.name());
    if (hit.observedAtMs() == null) {
      // "{age} old" would read "of unknown age old".
      return filled.replace("{age} old", "of unknown age").replace("{age}", "of unknown age");
    }
    return filled.replace("{age}", age(nowMs - hit.observedAtMs()));
  }

  /** An age in words: "under a minute", "12 min", "4 h", "3 d". */
  public static String age(long ms) {
    long s = Math.max(0, ms) / 1000;
    if (s < 60) {
      return "under a minute";
    }
    if (s < 3600) {
      return (s / 60) + " min";
    }
    if (s < 48 * 3600) {
      return (s / 3600) + " h";
    }
    return (s / 86_400) + " d";
  }

  /** Why a walk ended without an answer, as a short code. */
  public static String refusalReason(List<Attempt> attempts) {
    if (!attempts.isEmpty() && attempts.stream().allMatch(a -> a.outcome().equals("no_match") || a.outcome().equals("out_of_bbox")
        || a.outcome().equals("rejected"))) {
      return "not_found";
    }
    if (attempts.stream().anyMatch(a -> a.outcome().equals("skipped_admission") || a.outcome().equals("deadline"))) {
      return "budget_exhausted";
    }
    return "no_rung_available";
  }

  /** The refusal's notice for a reason code. */
  public static String refusalNotice(String reason) {
    return switch (reason) {
      case "not_found" -> "No rung could answer: every rung that answered found nothing for this address.";
      case "budget_exhausted" -> "No rung could answer within the time budget.";
      default -> "No rung could answer: every rung failed or was unavailable.";
    };
  }
}
