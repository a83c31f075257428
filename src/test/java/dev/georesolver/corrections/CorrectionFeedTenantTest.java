package dev.georesolver.corrections;

import dev.georesolver.bus.Addresses;
import dev.georesolver.corrections.CorrectionRoutes.Feed;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each tenant reads only its own corrections from an outbox that holds everyone's. */
@ExtendWith(VertxExtension.class)
class CorrectionFeedTenantTest {

  /** The outbox: 30 corrections, every third acme's, the rest beta's; cursors "1".."30". */
  private final List<JsonObject> outbox = new ArrayList<>();

  @BeforeEach
  void outbox(Vertx vertx) {
    for (int i = 1; i <= 30; i++) {
      outbox.add(new JsonObject().put("cursor", Integer.toString(i)).put("correction_id", "c" + i)
          .put("tenant", i % 3 == 0 ? "acme" : "beta"));
    }
    vertx.eventBus().<JsonObject>consumer(Addresses.STATE_CORRECTIONS_PAGE, m -> {
      String after = m.body().getString("after");
      int from = after == null ? 0 : Integer.parseInt(after);
      int limit = m.body().getInteger("limit");
      JsonArray page = new JsonArray();
      outbox.stream().skip(from).limit(limit).forEach(page::add);
      m.reply(new JsonObject().put("corrections", page)
          .put("next", page.isEmpty() ? after : page.getJsonObject(page.size() - 1).getString("cursor")));
    }).completion().await();
  }

  @Test
  @DisplayName("a tenant's page holds only its corrections, filled across outbox pages, and next continues after the last one")
  void ownCorrectionsOnly(Vertx vertx) {
    JsonObject first = CorrectionRoutes.page(vertx.eventBus(), null, 4, new Feed("acme")).await();
    assertThat(first.getJsonArray("corrections")).extracting(o -> ((JsonObject) o).getString("correction_id"))
        .containsExactly("c3", "c6", "c9", "c12");
    assertThat(first.getString("next")).isEqualTo("12");

    JsonObject rest = CorrectionRoutes.page(vertx.eventBus(), first.getString("next"), 100, new Feed("acme")).await();
    assertThat(rest.getJsonArray("corrections")).extracting(o -> ((JsonObject) o).getString("tenant")).containsOnly("acme");
    assertThat(rest.getJsonArray("corrections")).hasSize(6);
    assertThat(rest.getString("next")).isEqualTo("30");

    JsonObject none = CorrectionRoutes.page(vertx.eventBus(), "30", 100, new Feed("acme")).await();
    assertThat(none.getJsonArray("corrections")).isEmpty();
    assertThat(none.getString("next")).as("an empty page keeps the cursor").isEqualTo("30");
  }

  @Test
  @DisplayName("an admin's feed of every tenant holds them all")
  void everyTenant(Vertx vertx) {
    JsonObject all = CorrectionRoutes.page(vertx.eventBus(), null, 100, new Feed(null)).await();
    assertThat(all.getJsonArray("corrections")).hasSize(30);
  }
}
