package dev.georesolver.state.rules;

import dev.georesolver.audit.AuditRecords;
import dev.georesolver.state.rules.AuditChain.Anchor;
import dev.georesolver.state.rules.AuditChain.Stored;
import dev.georesolver.state.rules.AuditChain.Verifier;
import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Claim;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The hash chain, its canonical encoding and its verification, and what is recorded: pure, no store. */
class AuditChainTest {

  /** A chain of {@code n} records of {@code tenant} after {@code anchor}, as a store would build it. */
  static List<Stored> chain(String tenant, Anchor anchor, int n) {
    List<Stored> out = new ArrayList<>();
    String prev = anchor.hash();
    for (long seq = anchor.seq() + 1; seq <= anchor.seq() + n; seq++) {
      String body = CanonicalJson.canonical(new JsonObject().put("id", "r" + seq).put("tenant", tenant).put("kind", "degraded")
          .put("ts_ms", 1_000L * seq));
      String hash = AuditChain.hash(prev, seq, body);
      out.add(new Stored(seq, "r" + seq, prev, hash, body));
      prev = hash;
    }
    return out;
  }

  private static Verifier walk(String tenant, Anchor anchor, List<Stored> records) {
    Verifier v = new Verifier(tenant, anchor);
    records.forEach(v::accept);
    return v;
  }

  @Test
  @DisplayName("the canonical JSON sorts keys at every depth, leaves nulls out and has no white space")
  void canonicalIsStable() {
    JsonObject a = new JsonObject().put("b", 1).put("a", new JsonObject().put("z", "x\"y").put("m", (String) null).put("c", 0.97))
        .put("l", new JsonArray().add(new JsonObject().put("y", true).put("x", 2L)));
    JsonObject b = new JsonObject().put("l", new JsonArray().add(new JsonObject().put("x", 2L).put("y", true)))
        .put("a", new JsonObject().put("c", 0.97).put("z", "x\"y")).put("b", 1);
    assertThat(CanonicalJson.canonical(a)).isEqualTo("{\"a\":{\"c\":0.97,\"z\":\"x\\\"y\"},\"b\":1,\"l\":[{\"x\":2,\"y\":true}]}")
        .isEqualTo(CanonicalJson.canonical(b));
  }

  @Test
  @DisplayName("a hash covers the previous hash, the sequence number and every byte of the body")
  void hashCoversEverything() {
    String h = AuditChain.hash(AuditChain.GENESIS, 1, "{\"a\":1}");
    assertThat(h).hasSize(64).matches("[0-9a-f]{64}");
    assertThat(AuditChain.hash(AuditChain.GENESIS, 2, "{\"a\":1}")).isNotEqualTo(h);
    assertThat(AuditChain.hash("1" + AuditChain.GENESIS.substring(1), 1, "{\"a\":1}")).isNotEqualTo(h);
    assertThat(AuditChain.hash(AuditChain.GENESIS, 1, "{\"a\":2}")).isNotEqualTo(h);
  }

  @Test
  @DisplayName("an intact chain verifies, from the genesis or from a retention anchor")
  void intactChainsVerify() {
    Verifier v = walk("acme", Anchor.NONE, chain("acme", Anchor.NONE, 5));
    assertThat(v.broken()).isNull();
    assertThat(v.count()).isEqualTo(5);
    List<Stored> full = chain("acme", Anchor.NONE, 8);
    Anchor anchor = new Anchor(3, full.get(2).hash());
    Verifier after = walk("acme", anchor, full.subList(3, 8));
    assertThat(after.broken()).isNull();
    assertThat(after.head()).isEqualTo(new Anchor(8, full.get(7).hash()));
  }

  @Test
  @DisplayName("an altered record breaks the chain at that record, named by tenant, seq and id")
  void alteredRecordIsNamed() {
    List<Stored> c = chain("acme", Anchor.NONE, 6);
    Stored s = c.get(3);
    c.set(3, new Stored(s.seq(), s.id(), s.prevHash(), s.hash(), s.body().replace("degraded", "answer")));
    Verifier v = walk("acme", Anchor.NONE, c);
    assertThat(v.broken()).isEqualTo(new AuditChain.Break("acme", 4, "r4", "hash does not match the record's content"));
    assertThat(v.count()).isEqualTo(6);
  }

  @Test
  @DisplayName("a re-hashed altered record still breaks the chain at the next record; a removed one at the gap")
  void rehashedOrRemovedRecordsAreFound() {
    List<Stored> c = chain("acme", Anchor.NONE, 6);
    Stored s = c.get(2);
    String body = s.body().replace("degraded", "answer");
    c.set(2, new Stored(s.seq(), s.id(), s.prevHash(), AuditChain.hash(s.prevHash(), s.seq(), body), body));
    assertThat(walk("acme", Anchor.NONE, c).broken().seq()).isEqualTo(4);

    List<Stored> gap = chain("acme", Anchor.NONE, 6);
    gap.remove(1);
    AuditChain.Break b = walk("acme", Anchor.NONE, gap).broken();
    assertThat(b.seq()).isEqualTo(3);
    assertThat(b.why()).isEqualTo("records 2 are missing");

    assertThat(walk("acme", new Anchor(2, AuditChain.GENESIS), chain("acme", Anchor.NONE, 4).subList(2, 4)).broken().why())
        .as("an anchor that is not the removed record's hash").isEqualTo("prev_hash does not match the hash of the record before it");
  }

  @Test
  @DisplayName("a record of another tenant in a partition breaks it there")
  void foreignRecordIsFound() {
    List<Stored> c = chain("beta", Anchor.NONE, 2);
    assertThat(walk("acme", Anchor.NONE, c).broken().why()).isEqualTo("record belongs to tenant beta, not this partition");
  }

  @Test
  @DisplayName("fallback activations are recorded; an answer from the first rung only with level all; no provider text")
  void whatIsRecorded() {
    ResolveResult degraded = ResolveResult.builder().status(ResolveResult.RESOLVED).resolutionSource("fallback").claim(Claim.LOCALITY)
        .confidence(0.6).degraded(true).idempotencyKey("k1").intent("describe").manifestRevision("rev1").traceId("t1")
        .attempts(List.of(new Attempt("primary", "http_5xx", 1, 12, "provider said: secret-ish text"),
            new Attempt("fallback", "ok", 1, 8, null)))
        .transform(new TransformInfo("EPSG:27700", "+proj=tmerc", "abc123")).resolvedAtMs(5).build();
    ResolveResult first = degraded.toBuilder().resolutionSource("primary").degraded(false)
        .attempts(List.of(new Attempt("primary", "ok", 1, 12, null))).build();

    AuditEvent e = AuditRecords.of("acme", degraded, false, 1_767_225_600_000L);
    JsonObject b = new JsonObject(e.body());
    assertThat(e.body()).isEqualTo(CanonicalJson.canonical(b));
    assertThat(b.getString("kind")).isEqualTo("degraded");
    assertThat(b.getString("tenant")).isEqualTo("acme");
    assertThat(b.getString("ts")).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(b.getString("resolution_source")).isEqualTo("fallback");
    assertThat(b.getString("claim")).isEqualTo("locality");
    assertThat(b.getBoolean("degraded")).isTrue();
    assertThat(b.getString("trace_id")).isEqualTo("t1");
    assertThat(b.getString("idempotency_key")).isEqualTo("k1");
    assertThat(b.getString("manifest_revision")).isEqualTo("rev1");
    assertThat(b.getJsonObject("transform")).isEqualTo(new JsonObject().put("definition_hash", "abc123").put("source_crs", "EPSG:27700"));
    assertThat(b.getJsonArray("attempts").getJsonObject(0).encode()).isEqualTo("{\"ms\":12,\"outcome\":\"http_5xx\",\"tier\":\"primary\",\"tries\":1}");
    assertThat(e.body()).doesNotContain("secret-ish");
    assertThat(e.id()).isEqualTo(b.getString("id"));

    assertThat(AuditRecords.of("acme", first, false, 1)).isNull();
    assertThat(new JsonObject(AuditRecords.of("acme", first, true, 1).body()).getString("kind")).isEqualTo("answer");
    ResolveResult refusedAfterFailure = ResolveResult.builder().status(ResolveResult.REFUSED).reason("budget_exhausted")
        .attempts(List.of(new Attempt("primary", "timeout", 1, 800, null))).resolvedAtMs(5).build();
    assertThat(new JsonObject(AuditRecords.of("acme", refusedAfterFailure, false, 1).body()).getString("kind")).isEqualTo("refused");
    ResolveResult notFound = refusedAfterFailure.toBuilder().reason("not_found")
        .attempts(List.of(new Attempt("primary", "no_match", 1, 8, null))).build();
    assertThat(AuditRecords.of("acme", notFound, false, 1)).as("an honest not-found is no fallback").isNull();
  }
}
