package dev.georesolver.shadow;

import dev.georesolver.geo.Claim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * {@code georesolver shadow advise}: from the ladder's order and the shadow figures, a proposed
 * reorder of {@code routing.tiers} as a diff with its evidence, or the reasons no change is
 * warranted. It only proposes; nothing is ever reordered on its own. Pure and thread-safe.
 *
 * <p><b>The rule.</b> Each adjacent pair of rungs, upper U above lower L, is judged on the samples
 * of L asked in U's shadow (or, if there are none, of U asked in L's), all intents together. L is
 * proposed above U when all of these hold:
 * <ol>
 *   <li><b>enough evidence</b>: at least {@link Rule#minSamples} samples (default 200);
 *   <li><b>agreement</b>: of the samples both found, the 95 % Wilson lower bound of the share within
 *       {@link Rule#agreeWithinM} (250 m, fixed) is at least {@link Rule#minAgreement} (default
 *       0.95) — so thin evidence cannot pass however good it looks, and 96 % of 4,000 does;
 *   <li><b>finds about as often</b>: the samples only U found, less those only L found, are at most
 *       {@link Rule#maxFoundDeficit} of the samples (default 2 %). Not zero: once L is first, an
 *       address it does not find falls through to U, so a small deficit costs time, not answers;
 *   <li><b>faster</b>: the latency ratio (L's median over U's) is at most {@link Rule#maxLatencyRatio}
 *       (default 0.8, a margin so that noise does not flip the order);
 *   <li><b>no weaker claim above a stronger one</b>: L's claim is at least as strong as U's
 *       ({@link Claim} order), unless {@link Rule#allowWeakerClaim} is set. A claim is what every
 *       answer tells its client it may be relied on for (and what an intent's {@code claims:} and
 *       the {@code degraded} flag are computed from); agreement in metres cannot establish it, so only
 *       the operator can accept answering with less. A pair that passes 1–4 but not 5 is reported
 *       as qualifying but not proposed.
 * </ol>
 * Pairs are judged top to bottom on the current order; a proposed swap takes both rungs, so the
 * next pair judged starts below them. New neighbours made by a swap are judged on the next run,
 * once the new order has its own samples. Cost per call is not in the figures and not judged.
 *
 * <p>The latency ratio of a pair sampled under several intents is combined as the samples-weighted
 * geometric mean of the intents' ratios (the medians themselves cannot be merged from summaries);
 * every count is summed exactly.
 */
public final class Advisor {

  /** The threshold agreement is judged at, metres. */
  public static final int AGREE_WITHIN_M = 250;

  private Advisor() {}

  /**
   * One rung of the ladder as the manifest orders it.
   *
   * @param name the tier's name
   * @param claim its claim
   */
  public record Rung(String name, Claim claim) {
    /** @throws NullPointerException when either is missing */
    public Rung {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(claim, "claim");
    }
  }

  /**
   * The rule's thresholds; {@link #DEFAULT} holds the documented defaults.
   *
   * @param minSamples samples a pair needs before it is judged
   * @param minAgreement the least 95 % lower bound of the within-250 m share, in [0, 1]
   * @param maxFoundDeficit the most (upper-only − lower-only) / samples, in [0, 1]
   * @param maxLatencyRatio the most lower/upper median latency
   * @param allowWeakerClaim whether a rung with a weaker claim may be proposed above a stronger one
   */
  public record Rule(long minSamples, double minAgreement, double maxFoundDeficit, double maxLatencyRatio,
      boolean allowWeakerClaim) {

    /** 200 samples, 95 %, 2 %, 0.8×, claims kept in order. */
    public static final Rule DEFAULT = new Rule(200, 0.95, 0.02, 0.8, false);

    /** @throws IllegalArgumentException for thresholds out of range */
    public Rule {
      if (minSamples < 1 || !(minAgreement >= 0 && minAgreement <= 1) || !(maxFoundDeficit >= 0 && maxFoundDeficit <= 1)
          || !(maxLatencyRatio > 0)) {
        throw new IllegalArgumentException("advise thresholds: samples >= 1, shares in [0, 1], ratio > 0");
      }
    }

    /** The threshold agreement is judged at, metres ({@value Advisor#AGREE_WITHIN_M}). */
    public int agreeWithinM() {
      return AGREE_WITHIN_M;
    }

    /** This rule with weaker claims allowed above stronger ones (or not). */
    public Rule withAllowWeakerClaim(boolean allow) {
      return new Rule(minSamples, minAgreement, maxFoundDeficit, maxLatencyRatio, allow);
    }
  }

  /** What was concluded about one adjacent pair. */
  public enum Verdict {
    /** The lower rung is proposed above the upper one. */
    PROPOSE,
    /** The evidence qualifies, but the lower rung's claim is weaker: not proposed. */
    QUALIFIES_BUT_WEAKER_CLAIM,
    /** The evidence does not support a change. */
    KEEP
  }

  /**
   * The judgement of one adjacent pair.
   *
   * @param upper the rung above, now
   * @param lower the rung below, now
   * @param verdict what follows
   * @param evidence the figures and, for {@link Verdict#KEEP}, every criterion that failed
   */
  public record Finding(String upper, String lower, Verdict verdict, String evidence) {}

  /**
   * The advice.
   *
   * @param current the order now
   * @param proposed the proposed order (equal to {@code current} when no change is warranted)
   * @param findings one per adjacent pair judged, top to bottom
   */
  public record Advice(List<String> current, List<String> proposed, List<Finding> findings) {

    /** Copies the lists. */
    public Advice {
      current = List.copyOf(current);
      proposed = List.copyOf(proposed);
      findings = List.copyOf(findings);
    }

    /** Whether a reorder is proposed. */
    public boolean changes() {
      return !current.equals(proposed);
    }

    /** The reorder as a unified diff of the {@code routing.tiers} names; empty when there is none. */
    public String diff() {
      return changes() ? Diff.unified(current, proposed) : "";
    }

    /** The advice as the command line prints it. */
    public String text() {
      StringBuilder s = new StringBuilder();
      if (changes()) {
        s.append("Proposed reorder of routing.tiers (not applied: edit the manifest to take it):\n\n").append(diff()).append('\n');
      } else {
        s.append("No change to the order of routing.tiers is warranted.\n\n");
      }
      s.append("Evidence, pair by pair:\n");
      if (findings.isEmpty()) {
        s.append("  (the ladder has fewer than two rungs)\n");
      }
      for (Finding f : findings) {
        s.append("  ").append(f.upper()).append(" / ").append(f.lower()).append(": ").append(switch (f.verdict()) {
          case PROPOSE -> "move " + f.lower() + " above " + f.upper();
          case QUALIFIES_BUT_WEAKER_CLAIM -> "keep (the figures qualify, but the claim would weaken)";
          case KEEP -> "keep";
        }).append(". ").append(f.evidence()).append('\n');
      }
      return s.toString();
    }
  }

  /** Advice under {@link Rule#DEFAULT}. */
  public static Advice advise(List<Rung> ladder, Collection<PairSummary> pairs) {
    return advise(ladder, pairs, Rule.DEFAULT);
  }

  /**
   * Judges each adjacent pair of {@code ladder} by {@code rule} on {@code pairs}' figures.
   *
   * @throws IllegalArgumentException when a rung is named twice
   */
  public static Advice advise(List<Rung> ladder, Collection<PairSummary> pairs, Rule rule) {
    Set<String> seen = new HashSet<>();
    for (Rung r : ladder) {
      if (!seen.add(r.name())) {
        throw new IllegalArgumentException("the ladder names " + r.name() + " twice");
      }
    }
    List<String> current = ladder.stream().map(Rung::name).toList();
    List<String> proposed = new ArrayList<>(current);
    List<Finding> findings = new ArrayList<>();
    int i = 0;
    while (i + 1 < ladder.size()) {
      Rung upper = ladder.get(i);
      Rung lower = ladder.get(i + 1);
      Finding f = judge(upper, lower, pairs, rule);
      findings.add(f);
      if (f.verdict() == Verdict.PROPOSE) {
        proposed.set(i, lower.name());
        proposed.set(i + 1, upper.name());
        i += 2;
      } else {
        i += 1;
      }
    }
    return new Advice(current, proposed, findings);
  }

  private static Finding judge(Rung upper, Rung lower, Collection<PairSummary> pairs, Rule rule) {
    Evidence e = Evidence.of(upper.name(), lower.name(), pairs);
    if (e == null) {
      return new Finding(upper.name(), lower.name(), Verdict.KEEP,
          "No samples of " + lower.name() + " in the shadow of " + upper.name() + " (or the reverse).");
    }
    List<String> failed = new ArrayList<>();
    if (e.samples < rule.minSamples()) {
      failed.add("only " + Figures.count(e.samples) + " samples (at least " + Figures.count(rule.minSamples()) + " needed)");
    }
    Wilson agreement = Wilson.of(e.within, e.bothFound);
    if (e.bothFound == 0 || agreement.low() < rule.minAgreement()) {
      failed.add(e.bothFound == 0 ? "never both found an address"
          : "agreement within 250 m is at least " + Figures.percent(agreement.low()) + " at 95 % confidence (at least "
              + Figures.percent(rule.minAgreement()) + " needed)");
    }
    double deficit = (double) (e.upperOnly - e.lowerOnly) / e.samples;
    if (deficit > rule.maxFoundDeficit()) {
      failed.add(lower.name() + " finds less often: " + Figures.percent(deficit) + " of samples fewer (at most "
          + Figures.percent(rule.maxFoundDeficit()) + " allowed)");
    }
    if (!(e.latencyRatio <= rule.maxLatencyRatio())) {
      failed.add(lower.name() + " is not faster enough: " + Figures.ratio(e.latencyRatio) + " the latency (at most "
          + Figures.ratio(rule.maxLatencyRatio()) + " needed)");
    }
    boolean weaker = lower.claim().ordinal() > upper.claim().ordinal();
    String figures = e.describe(upper, lower);
    if (!failed.isEmpty()) {
      return new Finding(upper.name(), lower.name(), Verdict.KEEP, figures + " Not enough: " + String.join("; ", failed) + ".");
    }
    if (weaker && !rule.allowWeakerClaim()) {
      return new Finding(upper.name(), lower.name(), Verdict.QUALIFIES_BUT_WEAKER_CLAIM, figures + " But " + lower.name()
          + " claims " + lower.claim().wire() + ", weaker than " + upper.name() + "'s " + upper.claim().wire()
          + ": answers would claim less, which only the operator can accept (advise with weaker claims allowed to see it proposed).");
    }
    return new Finding(upper.name(), lower.name(), Verdict.PROPOSE, figures);
  }

  /** A pair's figures seen from the ladder: the upper and the lower rung, every intent together. */
  private static final class Evidence {
    long samples;
    long bothFound;
    long within;
    long upperOnly;
    long lowerOnly;
    double latencyRatio;

    static Evidence of(String upper, String lower, Collection<PairSummary> pairs) {
      Evidence down = collect(upper, lower, pairs, false);
      return down != null ? down : collect(lower, upper, pairs, true);
    }

    /** The summaries with {@code served} serving and {@code shadow} in its shadow, oriented upper/lower. */
    private static Evidence collect(String served, String shadow, Collection<PairSummary> pairs, boolean reversed) {
      Evidence e = new Evidence();
      double logRatio = 0;
      for (PairSummary p : pairs) {
        if (!p.key().served().equals(served) || !p.key().shadow().equals(shadow) || p.samples() == 0) {
          continue;
        }
        e.samples += p.samples();
        e.bothFound += p.bothFound();
        e.within += p.within().count(AGREE_WITHIN_M);
        e.upperOnly += reversed ? p.shadowOnly() : p.servedOnly();
        e.lowerOnly += reversed ? p.servedOnly() : p.shadowOnly();
        double r = reversed ? 1 / p.latencyRatio() : p.latencyRatio();
        logRatio += p.samples() * Math.log(r);
      }
      if (e.samples == 0) {
        return null;
      }
      e.latencyRatio = Math.exp(logRatio / e.samples);
      return e;
    }

    String describe(Rung upper, Rung lower) {
      Wilson agreement = Wilson.of(within, bothFound);
      String share = bothFound == 0 ? "no address both found"
          : String.format(Locale.ROOT, "%s of %s both found within 250 m (95 %% interval %s–%s)",
              Figures.percent((double) within / bothFound), Figures.count(bothFound), Figures.percent(agreement.low()),
              Figures.percent(agreement.high()));
      return Figures.count(samples) + " samples: " + share + "; found by " + upper.name() + " alone: "
          + Figures.count(upperOnly) + ", by " + lower.name() + " alone: " + Figures.count(lowerOnly) + "; "
          + lower.name() + " at " + Figures.ratio(latencyRatio) + " the latency of " + upper.name() + "; claims "
          + upper.claim().wire() + " and " + lower.claim().wire() + ".";
    }
  }
}
