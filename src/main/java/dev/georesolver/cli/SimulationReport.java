package dev.georesolver.cli;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The verdicts of {@code validate --simulate}: what each case's samples, replays and stand-in
 * logs show, judged against the budget and each strict tenant's region, and the report as a table
 * or JSON. A case fails when its p99 is over the budget, a replay was not idempotent, a strict
 * tenant's address reached (or was answered by) a rung outside its region, or no in-region rung
 * answered a strict tenant at all — a refusal keeps the address in its region but leaves the
 * tenant without service, which is what a ladder change must not ship.
 *
 * <p>Pure: no Vert.x runtime ({@link JsonObject} only as a value). Immutable and thread-safe.
 */
final class SimulationReport {

  private SimulationReport() {}

  /** What the status of a request that got no result reads as (the reply failed or timed out). */
  static final String UNANSWERED = "unanswered";

  /**
   * One simulated request as it came back.
   *
   * @param group the index of its group in the plan
   * @param elapsedMs from send to reply, ms, as the caller saw it (an unanswered one: until it gave up)
   * @param status {@code resolved}, {@code refused}, {@code misconfigured} (the ladder cannot serve
   *     the tenant at all) or {@link #UNANSWERED}
   * @param source the rung that answered ({@code resolution_source}), or null
   * @param replayed whether the answer was a replay of a stored one
   * @param attempted the rungs its attempts name, in order
   * @param key the answer's idempotency key, or null when it got none
   */
  record Sample(int group, long elapsedMs, String status, String source, boolean replayed, List<String> attempted, String key) {
    Sample {
      attempted = List.copyOf(attempted);
    }

    boolean resolved() {
      return "resolved".equals(status);
    }
  }

  /**
   * One replay check: the same request sent again with the same idempotency key.
   *
   * @param group the index of its group
   * @param idempotent whether it got the same answer without any provider being asked again
   * @param why what differed, or null when idempotent
   */
  record Replay(int group, boolean idempotent, String why) {}

  /**
   * One case's outcome.
   *
   * @param name the case
   * @param answeredBy per group (by label, in plan order), how many of its requests each rung
   *     answered ({@code refused}, {@code misconfigured}, {@code unanswered} for the others), most first
   * @param p99Ms the 99th percentile of the elapsed times, ms
   * @param budgetMs the budget, ms
   * @param replays replay checks made
   * @param replaysIdempotent of {@code replays}
   * @param replayProblems what differed in each replay that was not idempotent, naming its group
   * @param violations residency violations, each naming the tenant and the rung
   * @param unserved strict tenants no in-region rung answered
   */
  record CaseResult(String name, Map<String, Map<String, Integer>> answeredBy, long p99Ms, long budgetMs, int replays, int replaysIdempotent,
      List<String> replayProblems, List<String> violations, List<String> unserved) {
    CaseResult {
      Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
      answeredBy.forEach((g, counts) -> copy.put(g, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts))));
      answeredBy = java.util.Collections.unmodifiableMap(copy);
      replayProblems = List.copyOf(replayProblems);
      violations = List.copyOf(violations);
      unserved = List.copyOf(unserved);
    }

    boolean withinBudget() {
      return p99Ms <= budgetMs;
    }

    boolean idempotent() {
      return replaysIdempotent == replays;
    }

    boolean residencyOk() {
      return violations.isEmpty() && unserved.isEmpty();
    }

    boolean passed() {
      return withinBudget() && idempotent() && residencyOk();
    }

    /** Why it failed, one phrase a reason; empty when it passed. */
    List<String> failures() {
      List<String> f = new ArrayList<>();
      if (!withinBudget()) {
        f.add("p99 " + p99Ms + " ms is over the budget of " + budgetMs + " ms");
      }
      replayProblems.forEach(p -> f.add("replay not idempotent: " + p));
      violations.forEach(v -> f.add("residency violated: " + v));
      unserved.forEach(t -> f.add("no in-region rung answers strict tenant " + t));
      return f;
    }
  }

  /**
   * The {@code p}th percentile (0–100] of {@code values} by the nearest-rank method: the smallest
   * value at least {@code p}% of the values are at or below. 0 for no values.
   */
  static long percentile(Collection<Long> values, double p) {
    if (values.isEmpty()) {
      return 0;
    }
    long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /**
   * Judges one case.
   *
   * @param plan the plan it ran under
   * @param name the case
   * @param samples every request of the case's load
   * @param replays the replay checks
   * @param received per rung with a stand-in, the idempotency keys its stand-in was sent during the case
   */
  static CaseResult judge(SimulationPlan plan, String name, List<Sample> samples, List<Replay> replays,
      Map<String, Set<String>> received) {
    Map<String, Map<String, Integer>> answeredBy = new LinkedHashMap<>();
    for (int g = 0; g < plan.groups().size(); g++) {
      int gi = g;
      answeredBy.put(plan.groups().get(g).label(), counts(samples.stream().filter(s -> s.group() == gi).toList()));
    }
    long p99 = percentile(samples.stream().map(Sample::elapsedMs).toList(), 99);
    List<String> violations = new ArrayList<>();
    List<String> unserved = new ArrayList<>();
    for (int g = 0; g < plan.groups().size(); g++) {
      SimulationPlan.Group group = plan.groups().get(g);
      if (!group.strict()) {
        continue;
      }
      int gi = g;
      List<Sample> mine = samples.stream().filter(s -> s.group() == gi).toList();
      violations.addAll(residencyViolations(group, mine, received));
      if (mine.stream().noneMatch(Sample::resolved)) {
        unserved.add(group.label() + " (region " + group.strictRegion() + "; its ladder: "
            + (group.inRegion().isEmpty() ? "empty" : String.join(", ", group.inRegion())) + ")");
      }
    }
    List<String> replayProblems = replays.stream().filter(r -> !r.idempotent())
        .map(r -> plan.groups().get(r.group()).label() + ": " + r.why()).toList();
    int ok = (int) replays.stream().filter(Replay::idempotent).count();
    return new CaseResult(name, answeredBy, p99, plan.budgetMs(), replays.size(), ok, replayProblems, violations, unserved);
  }

  /** How many of {@code samples} each rung answered (the status for the unresolved), most first, then by name. */
  static Map<String, Integer> counts(List<Sample> samples) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Sample s : samples) {
      counts.merge(s.resolved() ? s.source() + (s.replayed() ? " (replay)" : "") : s.status(), 1, Integer::sum);
    }
    return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
  }

  /**
   * Where a strict group's addresses went outside its region: a rung out of its region in an
   * answer's attempts, answering it (a replay of another tenant's stored answer sends nothing out,
   * so it is not one), or its stand-in sent one of the group's keys. Each rung named once.
   */
  static List<String> residencyViolations(SimulationPlan.Group group, List<Sample> mine, Map<String, Set<String>> received) {
    Set<String> out = new LinkedHashSet<>();
    Set<String> keys = new LinkedHashSet<>();
    for (Sample s : mine) {
      s.attempted().stream().filter(t -> !group.inRegion().contains(t)).forEach(out::add);
      if (s.resolved() && !s.replayed() && s.source() != null && !group.inRegion().contains(s.source())) {
        out.add(s.source());
      }
      if (s.key() != null) {
        keys.add(s.key());
      }
    }
    received.forEach((tier, sent) -> {
      if (!group.inRegion().contains(tier) && sent.stream().anyMatch(keys::contains)) {
        out.add(tier);
      }
    });
    return out.stream().map(t -> "tenant " + group.label() + " (region " + group.strictRegion() + ") reached " + t).toList();
  }

  /** Whether every case passed. */
  static boolean passed(List<CaseResult> results) {
    return results.stream().allMatch(CaseResult::passed);
  }

  /** The report as text: a header, one row a case, the failures under the table, and the verdict line. */
  static List<String> table(String where, String revision, SimulationPlan plan, int requests, List<CaseResult> results) {
    List<String> lines = new ArrayList<>();
    lines.add(where + ": simulated (revision " + revision + "), " + results.size() + " case(s), " + requests
        + " request(s) each, budget " + plan.budgetMs() + " ms");
    lines.add("  ladder: " + String.join(" > ", plan.ladder()) + " (every rung, credentials stood in)");
    lines.add("  load for: " + plan.groups().stream()
        .map(g -> g.label() + " (" + g.intent() + (g.strict() ? ", strict in " + g.strictRegion() : "") + ")")
        .collect(Collectors.joining(", ")));
    String[] head = {"case", "answered by", "p99 ms / budget", "replay", "residency", "verdict"};
    List<String[]> rows = new ArrayList<>();
    rows.add(head);
    for (CaseResult r : results) {
      rows.add(new String[] {
          r.name(),
          answered(r.answeredBy()),
          r.p99Ms() + " / " + r.budgetMs(),
          r.idempotent() ? "yes (" + r.replays() + ")" : "NO (" + r.replaysIdempotent() + "/" + r.replays() + ")",
          r.residencyOk() ? "ok" : r.violations().isEmpty() ? "UNSERVED" : "VIOLATED (" + r.violations().size() + ")",
          r.passed() ? "pass" : "FAIL"});
    }
    int[] width = new int[head.length];
    rows.forEach(row -> {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    });
    for (String[] row : rows) {
      StringBuilder sb = new StringBuilder(" ");
      for (int i = 0; i < row.length; i++) {
        sb.append(' ').append(i == row.length - 1 ? row[i] : pad(row[i], width[i])).append(i == row.length - 1 ? "" : " |");
      }
      lines.add(sb.toString());
    }
    for (CaseResult r : results) {
      r.failures().forEach(f -> lines.add("  " + r.name() + ": " + f));
    }
    long failed = results.stream().filter(r -> !r.passed()).count();
    lines.add(failed == 0
        ? "simulation: PASS, every case within budget and residency"
        : "simulation: FAIL, " + failed + " of " + results.size() + " case(s) broke the budget, idempotency or residency");
    return lines;
  }

  /** {@code rung n, rung n} for one group; {@code group: rung n; group: rung n} for several. */
  static String answered(Map<String, Map<String, Integer>> byGroup) {
    return byGroup.entrySet().stream()
        .map(e -> (byGroup.size() > 1 ? e.getKey() + ": " : "")
            + (e.getValue().isEmpty() ? "nothing sent"
                : e.getValue().entrySet().stream().map(c -> c.getKey() + " " + c.getValue()).collect(Collectors.joining(", "))))
        .collect(Collectors.joining("; "));
  }

  private static String pad(String s, int w) {
    return s + " ".repeat(w - s.length());
  }

  /** The report as one JSON object, for CI: {@code passed}, {@code budget_ms}, {@code groups} and {@code cases}. */
  static JsonObject json(String where, String revision, SimulationPlan plan, int requests, List<CaseResult> results) {
    JsonArray cases = new JsonArray();
    for (CaseResult r : results) {
      JsonObject answered = new JsonObject();
      r.answeredBy().forEach((g, counts) -> {
        JsonObject c = new JsonObject();
        counts.forEach(c::put);
        answered.put(g, c);
      });
      cases.add(new JsonObject().put("case", r.name()).put("answered_by", answered).put("p99_ms", r.p99Ms())
          .put("within_budget", r.withinBudget()).put("replays", r.replays()).put("replays_idempotent", r.replaysIdempotent())
          .put("residency_ok", r.residencyOk()).put("violations", new JsonArray(r.violations()))
          .put("unserved", new JsonArray(r.unserved())).put("passed", r.passed()).put("failures", new JsonArray(r.failures())));
    }
    JsonArray groups = new JsonArray();
    plan.groups().forEach(g -> groups.add(new JsonObject().put("tenant", g.label()).put("intent", g.intent())
        .put("strict_region", g.strictRegion()).put("in_region", new JsonArray(List.copyOf(g.inRegion())))));
    return new JsonObject().put("manifest", where).put("revision", revision).put("passed", passed(results))
        .put("ladder", new JsonArray(plan.ladder()))
        .put("budget_ms", plan.budgetMs()).put("requests_per_case", requests).put("groups", groups).put("cases", cases);
  }
}
