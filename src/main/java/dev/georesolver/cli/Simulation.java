package dev.georesolver.cli;

import dev.georesolver.GeoResolver;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.Role;
import dev.georesolver.bus.TierAction;
import dev.georesolver.cli.SimulationReport.CaseResult;
import dev.georesolver.cli.SimulationReport.Replay;
import dev.georesolver.cli.SimulationReport.Sample;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs {@code validate --simulate}: stand-ins for the remote rungs ({@link StandIns}), the resolver
 * in this process on the simulated manifest ({@link SimulatedManifest}; the chain and the tiers, as
 * {@code geocode} runs it, all state in memory), then each case of the {@link SimulationPlan}: the
 * case's rung forced open through its tier's control address (as {@code POST
 * /admin/tiers/{name}/force-open} does), the synthetic load sent over the event bus as the ingress
 * sends it (tenant header, the manifest's budget), a few answers asked again to check the replay,
 * the rung released. Judging is {@link SimulationReport}'s.
 *
 * <p>Blocking: {@link #run} is called from the command's own thread and waits; everything on the
 * event loops is composed futures and timers.
 */
final class Simulation {

  /** Answers asked again per group and case to check that a replay is idempotent. */
  static final int REPLAYS_PER_GROUP = 3;

  /** Requests of the warm-up at least. */
  static final int WARM_UP_MIN = 16;

  /** How long a forced state may take to be acknowledged by its tier, ms. */
  private static final long CONTROL_TIMEOUT_MS = 5_000;

  private final Vertx vertx;
  private final Manifest manifest;
  private final SimulationPlan plan;
  private final StandIns standIns;
  private final long graceMs;
  /** Time between two requests' starts at the paced rate, ns. */
  private final long intervalNanos;

  private Simulation(Vertx vertx, Manifest manifest, SimulationPlan plan, StandIns standIns, double rate) {
    this.vertx = vertx;
    this.intervalNanos = (long) (1e9 / rate);
    this.manifest = manifest;
    this.plan = plan;
    this.standIns = standIns;
    this.graceMs = manifest.routing().margins().ingressGraceMs();
  }

  /**
   * What a run gave.
   *
   * @param plan the plan run
   * @param results one per case, in order
   */
  record Outcome(SimulationPlan plan, List<CaseResult> results) {}

  /**
   * Simulates the manifest {@code user} (read from {@code yaml}).
   *
   * @param requests requests per case, 1 to {@link SimulationPlan#MAX_REQUESTS}
   * @param concurrency requests in flight at once, 1 to {@link SimulationPlan#MAX_CONCURRENCY}
   * @param rate requests started per second at most (the load is paced: a fallback that answers in
   *     a millisecond does not turn the workers into a flood that only rate limits would see)
   * @throws CliException ({@link Exit#UNAVAILABLE}) when the stand-ins or the resolver cannot start
   */
  static Outcome run(Manifest user, String yaml, int requests, int concurrency, double rate) throws CliException {
    Vertx vertx = Vertx.vertx();
    try {
      StandIns standIns = await(StandIns.start(vertx, user.routing().tiers()), "the stand-ins did not start");
      Manifest simulated;
      try {
        simulated = ManifestLoader.parse(SimulatedManifest.rewrite(yaml, user, standIns.urls()), SimulatedManifest.env());
      } catch (ManifestException | IllegalArgumentException e) {
        throw new CliException(Exit.UNAVAILABLE, "the simulated manifest is not valid (a bug): " + e.getMessage());
      }
      GeoResolver.Options options = GeoResolver.Options.defaults(0, Map.of()).withRedis(null)
          .withInstances(1).withRoles(Set.of(Role.CHAIN, Role.TIERS));
      await(GeoResolver.deploy(vertx, simulated, options), "the in-process resolver did not start");
      EmbeddedResolver.awaitReady(vertx);
      Simulation s = new Simulation(vertx, simulated, SimulationPlan.of(simulated), standIns, rate);
      await(s.warmUp(concurrency), "the warm-up did not run");
      List<CaseResult> results = new ArrayList<>();
      for (int c = 0; c < s.plan.cases().size(); c++) {
        results.add(await(s.runCase(c, requests, concurrency), "case " + s.plan.cases().get(c).name() + " did not run"));
      }
      return new Outcome(s.plan, results);
    } finally {
      vertx.close().await();
    }
  }

  private static <T> T await(Future<T> f, String what) throws CliException {
    try {
      return f.await();
    } catch (Exception e) {
      throw new CliException(Exit.UNAVAILABLE, what + ": " + e.getMessage());
    }
  }

  /**
   * A load that is not judged, before the first case: a freshly started JVM answers its first
   * requests slowly (classes loading, code not yet compiled, connections opening), which would
   * trip breakers and spend the first case's budget on what no running server sees. Its addresses
   * are the case index after the last, so no case replays them.
   */
  private Future<Void> warmUp(int concurrency) {
    return load(plan.cases().size(), Math.max(WARM_UP_MIN, 2 * concurrency), concurrency).mapEmpty();
  }

  /** Every rung's breaker closed with a clean window, as a new case begins: what an earlier case tripped is not carried over. */
  private Future<Void> resetBreakers() {
    List<Future<Void>> all = manifest.enabledTiers().stream()
        .map(t -> vertx.eventBus().<JsonObject>request(Addresses.tierStatus(t.name()), "",
                new DeliveryOptions().setSendTimeout(CONTROL_TIMEOUT_MS))
            .compose(m -> "closed".equals(m.body().getString("state")) ? Future.<Void>succeededFuture()
                : control(t.name(), TierAction.FORCE_CLOSED).compose(v -> control(t.name(), TierAction.RELEASE))))
        .toList();
    return Future.all(all).mapEmpty();
  }

  /** One case: reset, force, load, replay, judge, release (released even when the load failed). */
  private Future<CaseResult> runCase(int c, int requests, int concurrency) {
    SimulationPlan.Case kase = plan.cases().get(c);
    return resetBreakers()
        .compose(v -> {
          standIns.clear();
          return control(kase.forcedOpen(), TierAction.FORCE_OPEN);
        })
        .compose(v -> load(c, requests, concurrency))
        .compose(asked -> {
          List<Sample> samples = asked.stream().map(Asked::sample).toList();
          // What the load sent the stand-ins, before the replays ask anything.
          Map<String, Set<String>> received = standIns.received();
          return replays(asked).map(replays -> SimulationReport.judge(plan, kase.name(), samples, replays, received));
        })
        .eventually(() -> control(kase.forcedOpen(), TierAction.RELEASE));
  }

  /** Sends {@code action} to the tier's breaker and waits for its acknowledgement; nothing for no tier. */
  private Future<Void> control(String tier, TierAction action) {
    if (tier == null) {
      return Future.succeededFuture();
    }
    return vertx.eventBus().request(Addresses.tierControl(tier), action.toJson(),
        new DeliveryOptions().setSendTimeout(CONTROL_TIMEOUT_MS)).mapEmpty();
  }

  /** The case's load: every group's share, at most {@code concurrency} in flight, each answer kept. */
  private Future<List<Asked>> load(int c, int requests, int concurrency) {
    List<int[]> work = new ArrayList<>();
    for (int g = 0; g < plan.groups().size(); g++) {
      for (int i = 0; i < plan.share(g, requests); i++) {
        work.add(new int[] {g, i});
      }
    }
    // Interleaved so every group is under the same load at the same time.
    work.sort((a, b) -> a[1] != b[1] ? Integer.compare(a[1], b[1]) : Integer.compare(a[0], b[0]));
    List<Asked> samples = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    long start = System.nanoTime();
    List<Future<Void>> workers = new ArrayList<>();
    for (int w = 0; w < Math.min(concurrency, work.size()); w++) {
      workers.add(worker(c, work, next, samples, start));
    }
    return Future.all(workers).map(v -> List.copyOf(samples));
  }

  private Future<Void> worker(int c, List<int[]> work, AtomicInteger next, List<Asked> samples, long start) {
    int n = next.getAndIncrement();
    if (n >= work.size()) {
      return Future.succeededFuture();
    }
    int g = work.get(n)[0];
    String address = SimulationPlan.address(c, g, work.get(n)[1]);
    return due(start + n * intervalNanos)
        .compose(v -> ask(g, address))
        .compose(s -> {
          samples.add(s);
          return worker(c, work, next, samples, start);
        });
  }

  /** Completes at {@code atNanos} (System.nanoTime), by a timer; at once when it has passed. */
  private Future<Void> due(long atNanos) {
    long ms = (atNanos - System.nanoTime()) / 1_000_000;
    return ms < 1 ? Future.succeededFuture() : vertx.timer(ms).mapEmpty();
  }

  /** A request's address, its sample and the answer it came from (null when there was none). */
  private record Asked(String address, Sample sample, JsonObject answer) {}

  /** One request for group {@code g}, timed; never fails (an unanswered request is a sample too). */
  private Future<Asked> ask(int g, String address) {
    SimulationPlan.Group group = plan.groups().get(g);
    JsonObject body = new JsonObject().put("q", address).put("intent", group.intent());
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(plan.budgetMs() + graceMs)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(plan.budgetMs()));
    if (group.tenant() != null) {
      o.addHeader(Addresses.TENANT_HEADER, group.tenant());
    }
    long start = System.nanoTime();
    return vertx.eventBus().<JsonObject>request(Addresses.RESOLVE, body, o)
        .map(m -> new Asked(address, sample(g, msSince(start), m.body()), m.body()))
        .otherwise(t -> {
          boolean misconfigured = t instanceof ReplyException re && re.failureCode() == FailureCode.MISCONFIGURED.code();
          return new Asked(address, new Sample(g, msSince(start), misconfigured ? "misconfigured" : SimulationReport.UNANSWERED,
              null, false, List.of(), null), null);
        });
  }

  private static long msSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static Sample sample(int g, long ms, JsonObject a) {
    List<String> attempted = new ArrayList<>();
    JsonArray attempts = a.getJsonArray("attempts", new JsonArray());
    for (int i = 0; i < attempts.size(); i++) {
      if (attempts.getValue(i) instanceof JsonObject at && at.getValue("tier") instanceof String t) {
        attempted.add(t);
      }
    }
    return new Sample(g, ms, a.getString("status", SimulationReport.UNANSWERED), a.getString("resolution_source"),
        a.getBoolean("replayed", false), attempted, a.getString("idempotency_key"));
  }

  /**
   * The replay checks of a case: each group's first few resolved requests of the load asked again,
   * one after another (the same text, so the same idempotency key). Idempotent when the second
   * answer is a replay of the first (same key, status, point and source) and no stand-in was
   * sent the key again.
   */
  private Future<List<Replay>> replays(List<Asked> load) {
    List<Asked> firsts = new ArrayList<>();
    for (int g = 0; g < plan.groups().size(); g++) {
      int gi = g;
      load.stream().filter(a -> a.sample().group() == gi && a.sample().resolved() && a.answer() != null)
          .limit(REPLAYS_PER_GROUP).forEach(firsts::add);
    }
    return replayEach(firsts, 0, new ArrayList<>());
  }

  private Future<List<Replay>> replayEach(List<Asked> firsts, int i, List<Replay> acc) {
    if (i >= firsts.size()) {
      return Future.succeededFuture(acc);
    }
    Asked first = firsts.get(i);
    String key = first.answer().getString("idempotency_key");
    int before = standIns.times(key);
    return ask(first.sample().group(), first.address()).compose(again -> {
      String why = difference(first.answer(), again.answer());
      if (why == null && standIns.times(key) > before) {
        why = "the replay asked a provider again";
      }
      acc.add(new Replay(first.sample().group(), why == null, why));
      return replayEach(firsts, i + 1, acc);
    });
  }

  /** What differs between two answers to the same request, or null when the second is the same answer replayed. */
  static String difference(JsonObject a, JsonObject b) {
    if (b == null) {
      return "the second request got no answer";
    }
    if (!b.getBoolean("replayed", false)) {
      return "the second answer was not a replay";
    }
    for (String field : List.of("idempotency_key", "status", "lon", "lat", "resolution_source")) {
      if (!Objects.equals(a.getValue(field), b.getValue(field))) {
        return field + " differs (" + a.getValue(field) + " then " + b.getValue(field) + ")";
      }
    }
    return null;
  }
}
