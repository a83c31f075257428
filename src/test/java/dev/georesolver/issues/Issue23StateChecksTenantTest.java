package dev.georesolver.issues;

import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.AuditBatch;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.Manifest;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The state store itself refuses a bus request for another tenant's audit records or batch rows, and one that names no caller. */
@ExtendWith(VertxExtension.class)
class Issue23StateChecksTenantTest {

  private static final Caller ACME = Caller.tenant("acme");
  private final long now = System.currentTimeMillis();

  @BeforeEach
  void store(Vertx vertx) {
    Codecs.registerAll(vertx.eventBus());
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + TestState.freshFile() + "\"\n").build();
    vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, Clock.systemUTC(), new Metrics()),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    // What the resolver's own work wrote: an audit record and a job with a row for each tenant.
    vertx.eventBus().request(Addresses.STATE_AUDIT_APPEND, new AuditBatch(List.of(event("acme"), event("globex"))),
        Caller.SYSTEM.on(new DeliveryOptions())).await();
    for (String tenant : List.of("acme", "globex")) {
      String id = "job-" + tenant;
      ask(vertx, Addresses.STATE_BATCHES_CREATE, new BatchJob(id, tenant, "key:" + id, BatchJob.LOADING,
          new JsonObject().put("intent", "describe").put("slice_rows", 10), 0, 0, 0, 0, 0, 0, now, null, null).toJson(), Caller.SYSTEM);
      ask(vertx, Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", id).put("rows", new JsonArray().add(new JsonObject()
          .put("i", 0).put("row", new JsonObject().put("v", new JsonArray().add(tenant + " secret street"))))), Caller.SYSTEM);
      ask(vertx, Addresses.STATE_BATCHES_SEAL, new JsonObject().put("job", id).put("total", 1)
          .put("columns", new JsonArray().add("address")), Caller.SYSTEM);
    }
  }

  @Test
  @DisplayName("acme's caller asking for globex's audit partition, job, rows, cancellation or job list is refused; its own are served")
  void anotherTenantsDataIsRefused(Vertx vertx) {
    JsonObject globexAudit = new JsonObject().put("tenant", "globex").put("limit", 10);
    assertThat(refusal(vertx, Addresses.STATE_AUDIT_PAGE, globexAudit, ACME)).isEqualTo(FailureCode.FORBIDDEN.code());
    assertThat(ask(vertx, Addresses.STATE_AUDIT_PAGE, globexAudit.copy().put("tenant", "acme"), ACME)
        .getJsonArray("records")).hasSize(1);

    JsonObject globexJob = new JsonObject().put("job", "job-globex");
    assertThat(ask(vertx, Addresses.STATE_BATCHES_GET, globexJob, ACME)).as("another tenant's job reads as none").isNull();
    assertThat(refusal(vertx, Addresses.STATE_BATCHES_PAGE, globexJob.copy().put("from", 0).put("limit", 10), ACME))
        .isEqualTo(FailureCode.FORBIDDEN.code());
    assertThat(ask(vertx, Addresses.STATE_BATCHES_CANCEL, globexJob, ACME)).isNull();
    assertThat(ask(vertx, Addresses.STATE_BATCHES_GET, globexJob, Caller.SYSTEM).getString("state"))
        .as("not cancelled by acme's request").isEqualTo(BatchJob.QUEUED);
    assertThat(refusal(vertx, Addresses.STATE_BATCHES_LIST, new JsonObject().put("tenant", "globex"), ACME))
        .isEqualTo(FailureCode.FORBIDDEN.code());
    JsonArray listed = ask(vertx, Addresses.STATE_BATCHES_LIST, new JsonObject().put("limit", 10), ACME).getJsonArray("batches");
    assertThat(listed).as("a list without a tenant is the caller's own").hasSize(1);
    assertThat(listed.getJsonObject(0).getString("tenant")).isEqualTo("acme");
    assertThat(ask(vertx, Addresses.STATE_BATCHES_PAGE, new JsonObject().put("job", "job-acme").put("from", 0).put("limit", 10), ACME)
        .getJsonArray("rows")).hasSize(1);
    // Work across tenants is an admin's or the resolver's own.
    assertThat(refusal(vertx, Addresses.STATE_BATCHES_LEASE, new JsonObject().put("owner", "w"), ACME))
        .isEqualTo(FailureCode.FORBIDDEN.code());
    assertThat(refusal(vertx, Addresses.STATE_DEBTS_DEAD, new JsonObject().put("limit", 10), ACME))
        .isEqualTo(FailureCode.FORBIDDEN.code());
    assertThat(ask(vertx, Addresses.STATE_AUDIT_PAGE, globexAudit, Caller.of("ops", true)).getJsonArray("records"))
        .as("an admin reads any partition").hasSize(1);
  }

  @Test
  @DisplayName("a state request that names no caller is refused, whatever its body asks")
  void aRequestWithoutCallerIsRefused(Vertx vertx) {
    for (String address : List.of(Addresses.STATE_AUDIT_PAGE, Addresses.STATE_BATCHES_GET, Addresses.STATE_BATCHES_LIST,
        Addresses.STATE_BATCHES_PAGE, Addresses.STATE_CORRECTIONS_PAGE, Addresses.STATE_DEBTS_STATS)) {
      JsonObject body = new JsonObject().put("tenant", "globex").put("job", "job-globex").put("limit", 10);
      assertThat(refusal(vertx, address, body, null)).as(address).isEqualTo(FailureCode.FORBIDDEN.code());
    }
  }

  private AuditEvent event(String tenant) {
    JsonObject b = new JsonObject().put("id", tenant + "-1").put("tenant", tenant).put("ts_ms", now).put("kind", "degraded");
    return new AuditEvent(tenant, tenant + "-1", now, CanonicalJson.canonical(b));
  }

  private static JsonObject ask(Vertx vertx, String address, JsonObject body, Caller caller) {
    return vertx.eventBus().<JsonObject>request(address, body, caller.on(new DeliveryOptions())).await().body();
  }

  /** The failure code of a request the store refuses, or -1 when it answered. */
  private static int refusal(Vertx vertx, String address, JsonObject body, Caller caller) {
    DeliveryOptions o = caller == null ? new DeliveryOptions() : caller.on(new DeliveryOptions());
    return vertx.eventBus().request(address, body, o).map(r -> -1)
        .otherwise(t -> t instanceof ReplyException e ? e.failureCode() : -2).await();
  }
}
