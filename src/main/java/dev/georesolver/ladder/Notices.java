package dev.georesolver.ladder;

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

  /**
   * The opener of an answer whose country (and region) the provider did not give but the chain
   * inferred from its point: {@code "From open data via osm, its country inferred from the point, "}.
   * The opener itself when nothing was inferred ({@code inferred} null).
   */
  public static String withInferred(String opener, String inferred) {
    return inferred == null ? opener : opener + "its " + inferred + " inferred from the point, ";
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

  /**
   * Why a walk ended without an answer, as a short code a caller can act on:
   * <ul>
   *   <li>{@code not_found}: every rung visited answered and found nothing (do not retry soon);
   *   <li>{@code budget_exhausted}: a rung was skipped or cut off for lack of time (a larger
   *       budget may help);
   *   <li>{@code not_found_where_asked}: a rung answered only outside the country (or region) the query names
   *       and no rung answered in it; or the rungs that answered found nothing, but others could
   *       not be asked (retrying later may help);
   *   <li>{@code no_rung_available}: every rung failed or was unavailable.
   * </ul>
   */
  public static String refusalReason(List<Attempt> attempts) {
    if (attempts.isEmpty()) {
      return "no_rung_available";
    }
    if (attempts.stream().anyMatch(a -> a.outcome().equals(CountryCheck.OUTSIDE))) {
      return "not_found_where_asked";
    }
    if (attempts.stream().allMatch(a -> foundNothing(a.outcome()))) {
      return "not_found";
    }
    if (attempts.stream().anyMatch(a -> a.outcome().equals("skipped_admission") || a.outcome().equals("deadline"))) {
      return "budget_exhausted";
    }
    if (attempts.stream().anyMatch(a -> foundNothing(a.outcome()))) {
      return "not_found_where_asked";
    }
    return "no_rung_available";
  }

  private static boolean foundNothing(String outcome) {
    return outcome.equals("no_match") || outcome.equals("out_of_bbox") || outcome.equals("rejected");
  }

  /**
   * The refusal's notice: what each rung did, in ladder order ("No rung could answer:
   * osm_nominatim was not asked (rate limited); world_gazetteer found nothing.").
   */
  public static String refusalNotice(List<Attempt> attempts) {
    if (attempts.isEmpty()) {
      return "No rung could answer: no rung was available.";
    }
    StringBuilder sb = new StringBuilder("No rung could answer: ");
    for (int i = 0; i < attempts.size(); i++) {
      Attempt a = attempts.get(i);
      sb.append(i == 0 ? "" : "; ").append(a.tier()).append(' ').append(what(a.outcome()));
    }
    return sb.append('.').toString();
  }

  private static String what(String outcome) {
    return switch (outcome) {
      case "no_match" -> "found nothing";
      case "out_of_bbox" -> "found nothing inside the bbox";
      case "rejected" -> "rejected the input";
      case CountryCheck.OUTSIDE -> "answered only outside the country or region asked";
      case "skipped_admission" -> "was skipped for lack of time";
      case "deadline" -> "ran out of time";
      case "skipped_breaker_open" -> "was not asked (breaker open)";
      case "skipped_rate_limited" -> "was not asked (rate limited)";
      case "unavailable" -> "was unavailable";
      case "quota" -> "was over quota";
      case "credential" -> "refused its credential";
      default -> "failed (" + outcome + ")";
    };
  }
}
