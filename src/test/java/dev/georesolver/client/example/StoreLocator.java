package dev.georesolver.client.example;

// snippet:begin verticle
import dev.georesolver.client.GeoClient;
import dev.georesolver.client.GeoClientException;
import dev.georesolver.client.GeocodeRequest;
import dev.georesolver.client.GeocodeResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/**
 * An application's own verticle: it answers "stores.locate" (an address) with where it is, and
 * "stores.describe" ({"lat", "lon"}) with what is there, asking GeoResolver through GeoClient.
 */
public class StoreLocator extends VerticleBase {

  private GeoClient geo;

  @Override
  public Future<?> start() {
    geo = GeoClient.create(vertx).withBudget(Duration.ofMillis(1500));
    return Future.all(
        vertx.eventBus().<String>consumer("stores.locate", this::locate).completion(),
        vertx.eventBus().<JsonObject>consumer("stores.describe", this::describe).completion());
  }

  private void locate(Message<String> msg) {
    GeocodeRequest request = GeocodeRequest.address(msg.body()).intent("describe").language("en");
    geo.geocode(request).onComplete(place -> answer(msg, place.result(), place.cause()));
  }

  private void describe(Message<JsonObject> msg) {
    GeocodeRequest request = GeocodeRequest.point(msg.body().getDouble("lat"), msg.body().getDouble("lon"));
    geo.geocode(request).onComplete(place -> answer(msg, place.result(), place.cause()));
  }

  private static void answer(Message<?> msg, GeocodeResult r, Throwable failure) {
    if (failure instanceof GeoClientException e) {
      // BAD_REQUEST names the field (e.field()); TIMEOUT and UNAVAILABLE are worth asking again.
      msg.fail(e.code() == GeoClientException.Code.BAD_REQUEST ? 400 : 503, e.code() + ": " + e.getMessage());
    } else if (!r.resolved()) {
      // A refusal is an answer: no rung could tell, and r.reason() says why.
      msg.reply(new JsonObject().put("found", false).put("reason", r.reason()));
    } else {
      msg.reply(new JsonObject().put("found", true).put("lat", r.lat()).put("lon", r.lon()).put("label", r.label())
          .put("claim", r.claim()).put("degraded", r.degraded()).put("source", r.resolutionSource()));
    }
  }
}
// snippet:end verticle
