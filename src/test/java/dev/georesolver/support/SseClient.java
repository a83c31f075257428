package dev.georesolver.support;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A Server-Sent Events client over a plain HTTP connection, as a browser's {@code EventSource}
 * would read the stream: lines, {@code id:}/{@code event:}/{@code data:} fields, an empty line
 * ending each event, comments ignored.
 */
public final class SseClient {

  /** One event. */
  public record Event(String id, String event, JsonObject data) {}

  private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
  private final StringBuilder pending = new StringBuilder();
  private HttpClient client;
  private HttpClientResponse response;
  private String id;
  private String event;
  private StringBuilder data = new StringBuilder();

  private SseClient() {}

  /** Connects to {@code path} on the resolver at {@code port}, resuming after {@code lastEventId} when given. */
  public static Future<SseClient> connect(Vertx vertx, int port, String path, String lastEventId) {
    SseClient c = new SseClient();
    c.client = vertx.createHttpClient();
    RequestOptions o = new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(port).setURI(path)
        .putHeader("Accept", "text/event-stream");
    if (lastEventId != null) {
      o.putHeader("Last-Event-ID", lastEventId);
    }
    return c.client.request(o).compose(req -> req.send()).map(resp -> {
      c.response = resp;
      resp.handler(b -> c.feed(b.toString()));
      return c;
    });
  }

  /** The response's status and content type, for assertions. */
  public HttpClientResponse response() {
    return response;
  }

  private synchronized void feed(String chunk) {
    pending.append(chunk);
    int nl;
    while ((nl = pending.indexOf("\n")) >= 0) {
      String line = pending.substring(0, nl);
      pending.delete(0, nl + 1);
      if (line.isEmpty()) {
        if (data.length() > 0) {
          events.add(new Event(id, event, new JsonObject(data.toString())));
        }
        event = null;
        data = new StringBuilder();
      } else if (line.startsWith("id: ")) {
        id = line.substring(4);
      } else if (line.startsWith("event: ")) {
        event = line.substring(7);
      } else if (line.startsWith("data: ")) {
        data.append(line.substring(6));
      }
    }
  }

  /** The events received so far. */
  public List<Event> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** Closes the connection. */
  public Future<Void> close() {
    return client.close();
  }
}
