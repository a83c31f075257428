package dev.georesolver.issues;

import dev.georesolver.config.MarginsConfig;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.cache.DedupeVerticle;
import dev.georesolver.config.IdempotencyConfig;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.RedisServer;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** An answer read from Redis past half its TTL is then replayed from memory until its own TTL, not fetched again. */
@ExtendWith(VertxExtension.class)
class Issue010RedisReplayKeptInMemoryTest {

  private static final long TTL_MS = 3_600_000;
  private static final String KEY = "5f1c0c2b8e0d4a8f";
  private static final DedupeClaim CLAIM = new DedupeClaim(KEY, KEY + "|describe|FORWARD", TTL_MS, "");

  private RedisServer redisServer;
  private Redis redis;
  private final FakeClock clock = new FakeClock();

  @BeforeEach
  void deployDedupeOnRedis(Vertx vertx) throws Exception {
    redisServer = RedisServer.start();
    redis = Redis.createClient(vertx, redisServer.url());
    IdempotencyConfig idem = ManifestLoader.parse(manifest()
        .tier("primary", "generic", "http://127.0.0.1:9/", "exact", 500).yaml()
        // A loaded CI machine can take longer than the default 100 ms for one command; this test is about ages.
        .replace("    ttl_seconds: 3600\n", "    ttl_seconds: 3600\n    command_timeout_ms: 2000\n"), Map.of()).routing().idempotency();
    assertThat(idem.ttlSeconds() * 1000).as("the manifest default this test is written for").isEqualTo(TTL_MS);
    Codecs.registerAll(vertx.eventBus());
    vertx.deployVerticle(new DedupeVerticle(idem, MarginsConfig.SECTION.defaults(), redisServer.url(), clock, clock::nanoTime, new Metrics())).await();
  }

  @AfterEach
  void stopRedis() {
    redisServer.close();
  }

  @Test
  void shouldReplayFromMemoryAnAnswerReadFromRedisPastHalfItsTtl(Vertx vertx) {
    long age = TTL_MS * 2 / 3;
    storedByAnotherInstance(clock.millis() - age);

    DedupeVerdict fromRedis = claim(vertx);
    redis.send(Request.cmd(Command.DEL).arg("geo:idem:" + KEY)).await();
    clock.advanceMs(1_000);
    DedupeVerdict fromMemory = claim(vertx);
    clock.advanceMs(TTL_MS - age - 1_000);
    DedupeVerdict atItsTtl = claim(vertx);
    clock.advanceMs(1);
    DedupeVerdict pastItsTtl = claim(vertx);

    assertThat(fromRedis.kind()).isEqualTo(DedupeVerdict.Kind.REPLAY);
    assertThat(fromRedis.ageMs()).isEqualTo(age);
    assertThat(fromMemory.kind()).as("replayed from memory: Redis no longer has it").isEqualTo(DedupeVerdict.Kind.REPLAY);
    assertThat(fromMemory.ageMs()).as("aged from when it was first stored").isEqualTo(age + 1_000);
    assertThat(fromMemory.answer().resolutionSource()).isEqualTo("primary");
    assertThat(atItsTtl.kind()).isEqualTo(DedupeVerdict.Kind.REPLAY);
    assertThat(atItsTtl.ageMs()).isEqualTo(TTL_MS);
    assertThat(pastItsTtl.kind()).as("never served past its own TTL").isEqualTo(DedupeVerdict.Kind.LEAD);
  }

  /** The entry another instance wrote, in the shared store's format. */
  private void storedByAnotherInstance(long storedAtMs) {
    String entry = "{\"stored_at_ms\":" + storedAtMs + ",\"ttl_ms\":" + TTL_MS + ",\"result\":{\"status\":\"resolved\","
        + "\"lon\":2.35,\"lat\":48.85,\"crs\":\"EPSG:4326\",\"resolution_source\":\"primary\",\"claim\":\"exact\","
        + "\"degraded\":false,\"idempotency_key\":\"" + KEY + "\",\"attempts\":[],\"resolved_at_ms\":" + storedAtMs + "}}";
    long left = storedAtMs + TTL_MS - clock.millis();
    redis.send(Request.cmd(Command.SET).arg("geo:idem:" + KEY).arg(entry).arg("PX").arg(left)).await();
  }

  private DedupeVerdict claim(Vertx vertx) {
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(2_000).addHeader(Addresses.DEADLINE_HEADER, "1000");
    return vertx.eventBus().<DedupeVerdict>request(Addresses.DEDUPE_CLAIM, CLAIM, o).map(Message::body).await();
  }
}
