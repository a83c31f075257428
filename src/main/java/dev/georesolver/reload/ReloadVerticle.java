package dev.georesolver.reload;

import dev.georesolver.bus.Addresses;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.tier.TierBreaker;
import io.vertx.core.Deployable;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reloads the manifest without a restart: on a change of the file (looked at every
 * {@code pollMs} on a worker: modification time, size and file key, so an editor's rename-replace
 * is seen), on {@link Addresses#MANIFEST_RELOAD} (what {@code POST /admin/reload} and SIGHUP send)
 * — one attempt at a time, in order.
 *
 * <p>An attempt reads and validates the file on a worker with the {@link ManifestLoader}; an
 * invalid or unreadable file, or one that changes what only a restart applies
 * ({@link ManifestDiff}), is refused and the old revision keeps serving. Otherwise, in this order,
 * so that no request finds a rung missing: the changed tiers' new verticles (started in the forced
 * state of the old ones) and the added tiers are deployed; the revision is swapped
 * ({@link LiveManifest#swap}: requests begun afterwards walk the new ladder); the walks begun on
 * the old revision are waited for (at most {@code max_budget_ms} and a second); then the old
 * verticles of changed tiers and the removed tiers are undeployed. Kept tiers are not touched:
 * their breaker state and latency window carry on. A tier that does not start refuses the reload
 * (the tiers started for it are undeployed). Each attempt's {@link ReloadStatus} goes to
 * {@link LiveManifest#report}, the log ({@link ReloadLog}) and {@link Addresses#MANIFEST_EVENTS}.
 */
public final class ReloadVerticle extends VerticleBase {

  /** How often the manifest file is looked at by default, milliseconds ({@code GEO_RELOAD_POLL_MS}; 0 turns the watch off). */
  public static final long DEFAULT_POLL_MS = 1000;

  /** The largest manifest file read, bytes: a bigger one is refused, not read whole. */
  public static final long MAX_FILE_BYTES = 1 << 20;

  /** How long the old revision's walks are waited for beyond {@code max_budget_ms}, milliseconds. */
  static final long DRAIN_GRACE_MS = 1000;

  private static final Pattern GIT_SHA = Pattern.compile("[0-9a-f]{7,40}");
  private static final Logger log = LoggerFactory.getLogger(ReloadVerticle.class);

  /** Builds one tier's verticle for a revision. */
  @FunctionalInterface
  public interface Tiers {
    /**
     * @param forced the breaker state to start in (a drill carried over), or null
     * @param visitAddress where its visits come ({@link Addresses#tierVisit})
     */
    Deployable tier(Manifest manifest, TierConfig tier, TierBreaker.Force forced, String visitAddress);
  }

  /** What one look at the file saw; nulls for a file that is not there. */
  private record Stamp(Object fileKey, long modifiedNanos, long size) {}

  /** A file read: the manifest, or why there is none, and the candidate revision when the text was read. */
  private record Loaded(Manifest manifest, List<String> problems, String candidate) {}

  private final LiveManifest live;
  private final Path file;
  private final Map<String, String> env;
  private final long pollMs;
  private final Map<String, String> tierDeployments;
  /** The visit address of each tier a reload deployed, by name (the others listen on {@link Addresses#tier}). */
  private final Map<String, String> visitAddresses = new HashMap<>();
  /** The generation the next tier deployed gets ({@link Addresses#tierVisit}); confined to this context. */
  private int nextGeneration = 1;
  private final Tiers tiers;
  private final boolean indexRunning;
  private final Function<Manifest, LiveManifest.Revision> revisionOf;
  private final Consumer<Manifest> onApplied;
  private final Clock clock;
  /** The last attempt's end: attempts are chained on it, one at a time. Confined to this context. */
  private Future<ReloadStatus> tail;
  private Stamp lastStamp;
  private boolean looking;
  private long timer = -1;
  /** The git SHA given with the last {@code POST /admin/reload}, else the environment's {@code MANIFEST_GIT_SHA}. */
  private String gitSha;
  /** The sha256 of the last file refused, so the watch does not refuse the same text every period. */
  private String lastRefusedSha;

  /**
   * @param file the manifest file, or null when there is none to watch (only asked reloads fail then)
   * @param env the environment the manifest was loaded with (credential variables, {@code MANIFEST_GIT_SHA})
   * @param pollMs how often the file is looked at, milliseconds; 0 or less: not watched
   * @param tierDeployments the deployment id of each running tier verticle, by tier name; this
   *     verticle keeps it up to date
   * @param tiers how to build a tier's verticle, or null when this process runs no tiers
   * @param indexRunning whether the cached-index verticle runs
   * @param revisionOf what is built once per revision ({@link LiveManifest.Revision})
   * @param onApplied told of each manifest swapped in, on this context (start-up reports, meters)
   */
  public ReloadVerticle(LiveManifest live, Path file, Map<String, String> env, long pollMs, Map<String, String> tierDeployments,
      Tiers tiers, boolean indexRunning, Function<Manifest, LiveManifest.Revision> revisionOf, Consumer<Manifest> onApplied,
      Clock clock) {
    this.live = live;
    this.file = file;
    this.env = Map.copyOf(env);
    this.pollMs = pollMs;
    this.tierDeployments = new HashMap<>(tierDeployments);
    this.tiers = tiers;
    this.indexRunning = indexRunning;
    this.revisionOf = revisionOf;
    this.onApplied = onApplied;
    this.clock = clock;
    this.gitSha = env.get("MANIFEST_GIT_SHA");
  }

  @Override
  public Future<?> start() {
    tail = Future.succeededFuture(live.status());
    Future<Void> listening = vertx.eventBus().<Object>localConsumer(Addresses.MANIFEST_RELOAD, this::onAsked).completion();
    if (file == null || pollMs <= 0) {
      return listening;
    }
    return listening.compose(v -> vertx.executeBlocking(this::look, false)).onSuccess(first -> {
      lastStamp = first;
      timer = vertx.setPeriodic(pollMs, id -> poll());
    });
  }

  @Override
  public Future<?> stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return Future.succeededFuture();
  }

  /** A reload asked on the bus: {@code {"trigger", "git_sha"?}}; replied with the status after it. */
  private void onAsked(Message<Object> msg) {
    JsonObject body = msg.body() instanceof JsonObject j ? j : new JsonObject();
    String trigger = body.getValue("trigger") instanceof String t && (t.equals("http") || t.equals("signal")) ? t : "http";
    Object sha = body.getValue("git_sha");
    if (sha != null && !(sha instanceof String s && GIT_SHA.matcher(s).matches())) {
      msg.reply(refusedNow(trigger, List.of("git_sha: must be 7 to 40 lower-case hex digits")).toJson());
      return;
    }
    reload(trigger, (String) sha).onComplete(ar -> msg.reply(ar.succeeded() ? ar.result().toJson() : live.status().toJson()));
  }

  /** One attempt, after any already asked for. */
  Future<ReloadStatus> reload(String trigger, String askedGitSha) {
    tail = tail.transform(x -> attempt(trigger, askedGitSha)).andThen(ar -> {
      if (ar.failed()) {
        log.error("reload ({}) failed unexpectedly", trigger, ar.cause());
      }
    });
    return tail;
  }

  private void poll() {
    if (looking) {
      return;
    }
    looking = true;
    vertx.executeBlocking(this::look, false).onComplete(ar -> {
      looking = false;
      if (ar.succeeded() && !Objects.equals(ar.result(), lastStamp)) {
        lastStamp = ar.result();
        reload("file", null);
      }
    });
  }

  private Stamp look() {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new Stamp(a.fileKey(), a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.size());
    } catch (IOException e) {
      return new Stamp(null, 0, -1);
    }
  }

  private Future<ReloadStatus> attempt(String trigger, String askedGitSha) {
    if (file == null) {
      return Future.succeededFuture(refusedNow(trigger, List.of("no manifest file: this resolver was started from text")));
    }
    String sha = askedGitSha != null ? askedGitSha : gitSha;
    LiveManifest.Revision was = live.current();
    return vertx.executeBlocking(() -> read(sha), false).compose(loaded -> {
      if (loaded.manifest() == null) {
        return Future.succeededFuture(refused(trigger, loaded.candidate(), loaded.problems(), List.of()));
      }
      Manifest next = loaded.manifest();
      if (next.revision().equals(was.name())) {
        if (askedGitSha != null) {
          gitSha = askedGitSha;
        }
        return Future.succeededFuture(finish(live.status().next(ReloadStatus.Outcome.UNCHANGED, trigger, clock.millis(),
            was.name(), next.revision(), List.of(), List.of(), null)));
      }
      ManifestDiff diff = ManifestDiff.of(was.manifest(), next, indexRunning, next.readsIndex());
      if (!diff.appliable()) {
        return Future.succeededFuture(refused(trigger, next.revision(), List.of(), diff.needsRestart()));
      }
      return apply(trigger, was, next, diff).onSuccess(s -> {
        if (askedGitSha != null && s.outcome() == ReloadStatus.Outcome.APPLIED) {
          gitSha = askedGitSha;
        }
      });
    });
  }

  /** Reads and validates the file, on a worker. */
  private Loaded read(String sha) {
    String text;
    try {
      long size = Files.size(file);
      if (size > MAX_FILE_BYTES) {
        return new Loaded(null, List.of(file + " is larger than " + MAX_FILE_BYTES + " bytes"), null);
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new Loaded(null, List.of("cannot read manifest " + file + ": no such file"), null);
    } catch (IOException | RuntimeException e) {
      return new Loaded(null, List.of("cannot read manifest " + file + ": " + e.getMessage()), null);
    }
    Map<String, String> withSha = new HashMap<>(env);
    if (sha == null) {
      withSha.remove("MANIFEST_GIT_SHA");
    } else {
      withSha.put("MANIFEST_GIT_SHA", sha);
    }
    String candidate = IdempotencyKey.sha256Hex(text).substring(0, 12) + (sha == null || sha.isBlank() ? "" : "-g" + sha.trim());
    try {
      return new Loaded(ManifestLoader.parse(text, withSha), List.of(), candidate);
    } catch (ManifestException e) {
      return new Loaded(null, e.problems(), candidate);
    } catch (RuntimeException e) {
      return new Loaded(null, List.of("manifest could not be read: " + e.getMessage()), candidate);
    }
  }

  /** Deploys what the new revision adds, swaps it in, waits for the old one's walks, then undeploys what it dropped. */
  private Future<ReloadStatus> apply(String trigger, LiveManifest.Revision was, Manifest next, ManifestDiff diff) {
    Map<String, String> started = new LinkedHashMap<>();
    Map<String, String> addresses = new HashMap<>();
    return deployNew(next, diff, started, addresses).transform(deployed -> {
      if (deployed.failed()) {
        return undeploy(new ArrayList<>(started.values()))
            .map(v -> refused(trigger, next.revision(), List.of(deployed.cause().getMessage()), List.of()));
      }
      diff.removed().forEach(visitAddresses::remove);
      visitAddresses.putAll(addresses);
      live.swap(revisionOf.apply(next).at(visitAddresses));
      onApplied.accept(next);
      List<String> retired = new ArrayList<>();
      diff.changed().forEach(n -> retired.add(tierDeployments.get(n)));
      diff.removed().forEach(n -> retired.add(tierDeployments.get(n)));
      diff.removed().forEach(tierDeployments::remove);
      tierDeployments.putAll(started);
      ReloadStatus s = finish(live.status().next(ReloadStatus.Outcome.APPLIED, trigger, clock.millis(), next.revision(),
          next.revision(), List.of(), List.of(), diff));
      long drainMs = was.manifest().routing().maxBudgetMs() + DRAIN_GRACE_MS;
      return drained(was, clock.millis() + drainMs).compose(v -> undeploy(retired)).map(s);
    });
  }

  private Future<Void> deployNew(Manifest next, ManifestDiff diff, Map<String, String> started, Map<String, String> addresses) {
    if (tiers == null) {
      return Future.succeededFuture();
    }
    Map<String, TierConfig> byName = new HashMap<>();
    next.enabledTiers().forEach(t -> byName.put(t.name(), t));
    Future<Void> f = Future.succeededFuture();
    for (String name : diff.changed()) {
      f = f.compose(v -> forcedState(name, next)).compose(forced -> deployTier(next, byName.get(name), forced, started, addresses));
    }
    for (String name : diff.added()) {
      f = f.compose(v -> deployTier(next, byName.get(name), null, started, addresses));
    }
    return f;
  }

  private Future<Void> deployTier(Manifest next, TierConfig t, TierBreaker.Force forced, Map<String, String> started,
      Map<String, String> addresses) {
    String address = Addresses.tierVisit(t.name(), nextGeneration++);
    addresses.put(t.name(), address);
    return vertx.deployVerticle(tiers.tier(next, t, forced, address))
        .recover(e -> Future.failedFuture("routing.tiers." + t.name() + ": did not start: " + e.getMessage()))
        .map(id -> {
          started.put(t.name(), id);
          return null;
        });
  }

  /** The forced state the running verticle of {@code name} is in (a drill to carry over), or null. */
  private Future<TierBreaker.Force> forcedState(String name, Manifest next) {
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(next.routing().margins().statusTimeoutMs());
    return vertx.eventBus().<JsonObject>request(Addresses.tierStatus(name), "", o).map(m -> {
      String state = m.body().getString("state");
      for (TierBreaker.Force f : TierBreaker.Force.values()) {
        if (f.state().wire().equals(state)) {
          return f;
        }
      }
      return (TierBreaker.Force) null;
    }).otherwise((TierBreaker.Force) null);
  }

  /** Completes once no walk begun on {@code was} is in flight, or at {@code untilMs} (logged). */
  private Future<Void> drained(LiveManifest.Revision was, long untilMs) {
    Promise<Void> done = Promise.promise();
    checkDrained(was, untilMs, done);
    return done.future();
  }

  private void checkDrained(LiveManifest.Revision was, long untilMs, Promise<Void> done) {
    if (was.walksInFlight() <= 0) {
      done.complete();
    } else if (clock.millis() >= untilMs) {
      log.warn("revision {} still has {} walk(s) in flight; undeploying its retired tiers anyway", was.name(), was.walksInFlight());
      done.complete();
    } else {
      vertx.setTimer(10, id -> checkDrained(was, untilMs, done));
    }
  }

  private Future<Void> undeploy(List<String> ids) {
    List<Future<Void>> all = ids.stream().filter(Objects::nonNull)
        .map(id -> vertx.undeploy(id).otherwise(e -> {
          log.warn("undeploying retired tier {}: {}", id, e.getMessage());
          return null;
        }))
        .toList();
    return Future.join(all).mapEmpty();
  }

  private ReloadStatus refused(String trigger, String candidate, List<String> problems, List<String> needsRestart) {
    if (candidate != null && candidate.equals(lastRefusedCandidate(trigger))) {
      // The watch saw the same refused text again (a touch): said once already.
      return live.status();
    }
    lastRefusedSha = candidate;
    return finish(live.status().next(ReloadStatus.Outcome.REFUSED, trigger, clock.millis(), live.current().name(), candidate,
        problems, needsRestart, null));
  }

  private String lastRefusedCandidate(String trigger) {
    return "file".equals(trigger) ? lastRefusedSha : null;
  }

  private ReloadStatus refusedNow(String trigger, List<String> problems) {
    return finish(live.status().next(ReloadStatus.Outcome.REFUSED, trigger, clock.millis(), live.current().name(), null,
        problems, List.of(), null));
  }

  /** Records an attempt: the holder, the log, the bus. */
  private ReloadStatus finish(ReloadStatus s) {
    if (s.outcome() != ReloadStatus.Outcome.REFUSED) {
      lastRefusedSha = null;
    }
    live.report(s);
    ReloadLog.record(s);
    vertx.eventBus().publish(Addresses.MANIFEST_EVENTS, s.toJson(), new io.vertx.core.eventbus.DeliveryOptions().setLocalOnly(true));
    return s;
  }
}
