package dev.georesolver.tenant;

import dev.georesolver.config.Manifest;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Authentication by key and the per-tenant rate limit, on a fake clock. */
class TenantsTest {

  private static final String ACME_KEY = "tk-acme-5e1f0c";
  private static final String BETA_KEY = "tk-beta-90ab77";

  private static Manifest manifest() {
    return ManifestBuilder.manifest().tier("t1", "generic", "http://geo.example", "exact", 500).extra("""
        tenants:
          - id: "acme"
            keys: [ { env: "ACME_KEY" } ]
            intents: [describe]
            rate_limit_per_s: 2
            burst: 3
          - id: "beta"
            keys: [ { env: "BETA_KEY" }, { env: "BETA_OLD_KEY" } ]
            region: "eu"
            residency: "strict"
            admin: true
        """).build(Map.of("ACME_KEY", ACME_KEY, "BETA_KEY", BETA_KEY, "BETA_OLD_KEY", "tk-beta-old"));
  }

  @Test
  @DisplayName("no key and an unknown key are unauthenticated, each with its reason")
  void shouldRefuseMissingAndUnknownKeys() {
    Tenants t = Tenants.of(manifest(), new FakeClock());

    assertThat(t.admit(null)).isInstanceOfSatisfying(Verdict.Unauthenticated.class, u -> assertThat(u.reason()).isEqualTo("missing_key"));
    assertThat(t.admit("")).isInstanceOfSatisfying(Verdict.Unauthenticated.class, u -> assertThat(u.reason()).isEqualTo("missing_key"));
    assertThat(t.admit(ACME_KEY + "x")).isInstanceOfSatisfying(Verdict.Unauthenticated.class, u -> {
      assertThat(u.reason()).isEqualTo("unknown_key");
      assertThat(u.message()).doesNotContain(ACME_KEY);
    });
    assertThat(t.admit(ACME_KEY.substring(1))).isInstanceOf(Verdict.Unauthenticated.class);
  }

  @Test
  @DisplayName("each key admits its own tenant, with its intents, admin flag and residency")
  void shouldAdmitEachKeyAsItsTenant() {
    Tenants t = Tenants.of(manifest(), new FakeClock());

    Tenant acme = ((Verdict.Admitted) t.admit(ACME_KEY)).tenant();
    Tenant beta = ((Verdict.Admitted) t.admit(BETA_KEY)).tenant();
    assertThat(((Verdict.Admitted) t.admit("tk-beta-old")).tenant()).isEqualTo(beta);
    assertThat(acme.id()).isEqualTo("acme");
    assertThat(acme.allows("describe")).isTrue();
    assertThat(acme.allows("measure")).isFalse();
    assertThat(acme.admin()).isFalse();
    assertThat(acme.strict()).isFalse();
    assertThat(beta.allows("contain")).isTrue();
    assertThat(beta.admin()).isTrue();
    assertThat(beta.strictRegion()).isEqualTo("eu");
    assertThat(t.byId("beta")).isEqualTo(beta);
    assertThat(t.byId("public")).isNull();
    assertThat(t.byId(null)).isNull();
  }

  @Test
  @DisplayName("a tenant over its burst is rate limited with a retry-after, and refilled at its rate")
  void shouldLimitEachTenantToItsBucket() {
    FakeClock clock = new FakeClock();
    Tenants t = Tenants.of(manifest(), clock);

    for (int i = 0; i < 3; i++) {
      assertThat(t.admit(ACME_KEY)).as("request %d within the burst", i).isInstanceOf(Verdict.Admitted.class);
    }
    assertThat(t.admit(ACME_KEY)).isInstanceOfSatisfying(Verdict.RateLimited.class, r -> {
      assertThat(r.tenant().id()).isEqualTo("acme");
      assertThat(r.retryAfterS()).isEqualTo(1);
    });
    assertThat(t.admit(BETA_KEY)).as("another tenant has its own limit (none)").isInstanceOf(Verdict.Admitted.class);
    clock.advanceMs(499);
    assertThat(t.admit(ACME_KEY)).isInstanceOf(Verdict.RateLimited.class);
    clock.advanceMs(1);
    assertThat(t.admit(ACME_KEY)).as("one token after 500 ms at 2/s").isInstanceOf(Verdict.Admitted.class);
    assertThat(t.admit(ACME_KEY)).isInstanceOf(Verdict.RateLimited.class);
    clock.advanceMs(60_000);
    for (int i = 0; i < 3; i++) {
      assertThat(t.admit(ACME_KEY)).as("refilled to the burst, no more").isInstanceOf(Verdict.Admitted.class);
    }
    assertThat(t.admit(ACME_KEY)).isInstanceOf(Verdict.RateLimited.class);
  }

  @Test
  @DisplayName("without tenants every request is public, with or without a key")
  void shouldAdmitEverythingAsPublicWhenOpen() {
    Tenants t = Tenants.of(ManifestBuilder.manifest().tier("t1", "generic", "http://geo.example", "exact", 500).build());

    assertThat(t.configured()).isFalse();
    assertThat(t.admit(null)).isEqualTo(new Verdict.Admitted(Tenant.PUBLIC));
    assertThat(t.admit("anything")).isEqualTo(new Verdict.Admitted(Tenant.PUBLIC));
    assertThat(t.byId("acme")).isEqualTo(Tenant.PUBLIC);
    assertThat(Tenant.PUBLIC.admin()).isTrue();
    assertThat(Tenant.PUBLIC.allows("contain")).isTrue();
  }
}
